package anchor

import (
	"crypto/ecdsa"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/params"
)

// Simulated is an Ethereum anchor on go-ethereum's in-process simulated chain
// (chainId 1337), for SANDBOX and tests. Each Anchor mines its own block. Close it to
// stop the chain.
type Simulated struct {
	*Ethereum
	backend *simulated.Backend
}

// NewSimulated starts a simulated chain whose genesis funds key's address and returns
// an anchor that sends from key to the key's own address.
func NewSimulated(key *ecdsa.PrivateKey) (*Simulated, error) {
	if key == nil {
		return nil, errors.New("anchor: simulated needs a key")
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	funds := new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether))
	backend := simulated.NewBackend(types.GenesisAlloc{from: {Balance: funds}})
	e, err := NewEthereum(backend.Client(), EthereumConfig{
		Key: key, To: from, ReceiptTimeout: 30 * time.Second, PollInterval: 10 * time.Millisecond,
	})
	if err != nil {
		_ = backend.Close()
		return nil, err
	}
	e.name = "simulated"
	e.afterSend = func() { backend.Commit() }
	return &Simulated{Ethereum: e, backend: backend}, nil
}

// Backend returns the simulated chain, to inspect it in tests.
func (s *Simulated) Backend() *simulated.Backend { return s.backend }

// Close stops the simulated chain.
func (s *Simulated) Close() error { return s.backend.Close() }
