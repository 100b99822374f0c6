package landtitle

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/params"
)

// Simulated is LandTitle on go-ethereum's in-process simulated chain (chainId 1337),
// for SANDBOX and tests: each transaction mines its own block. Close it to stop the
// chain.
type Simulated struct {
	*Contract
	backend *simulated.Backend
}

// NewSimulated starts a simulated chain whose genesis funds key's address with 1000
// ether, and deploys LandTitle there with key's address as registry and baseURI as the
// token URI prefix.
func NewSimulated(key *ecdsa.PrivateKey, baseURI string) (*Simulated, error) {
	if key == nil {
		return nil, errors.New("landtitle: simulated needs a key")
	}
	funds := new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether))
	backend := simulated.NewBackend(types.GenesisAlloc{crypto.PubkeyToAddress(key.PublicKey): {Balance: funds}})
	cfg := Config{
		Key: key, ReceiptTimeout: 30 * time.Second, PollInterval: 10 * time.Millisecond,
		AfterSend: func() { backend.Commit() },
	}
	c, _, err := Deploy(context.Background(), backend.Client(), cfg, baseURI)
	if err != nil {
		_ = backend.Close()
		return nil, err
	}
	return &Simulated{Contract: c, backend: backend}, nil
}

// Backend returns the simulated chain, to inspect it in tests.
func (s *Simulated) Backend() *simulated.Backend { return s.backend }

// Close stops the simulated chain.
func (s *Simulated) Close() error { return s.backend.Close() }
