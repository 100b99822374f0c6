package anchor

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// Simulated is an Ethereum anchor on go-ethereum's in-process simulated chain
// (chainId 1337), for SANDBOX and tests. Each Anchor mines its own block. Close it to
// stop the chain.
type Simulated struct {
	*Ethereum
	backend *simulated.Backend
	rpc     *rpc.Client // over the IPC socket of WithIPC; nil without it
}

// SimulatedOption configures NewSimulated.
type SimulatedOption func(*simulatedConfig)

type simulatedConfig struct{ ipc string }

// WithIPC makes the simulated chain's node listen for JSON-RPC on the Unix socket
// at path (absolute; in a directory only this process's user may enter), so that
// RPC can serve the chain to clients outside Go's bindings (the reference server's
// read-only POST /v1/sandbox/chain).
func WithIPC(path string) SimulatedOption { return func(c *simulatedConfig) { c.ipc = path } }

// NewSimulated starts a simulated chain whose genesis funds key's address and returns
// an anchor that sends from key to the key's own address.
func NewSimulated(key *ecdsa.PrivateKey, opts ...SimulatedOption) (*Simulated, error) {
	if key == nil {
		return nil, errors.New("anchor: simulated needs a key")
	}
	var cfg simulatedConfig
	for _, o := range opts {
		o(&cfg)
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	funds := new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether))
	backend := simulated.NewBackend(types.GenesisAlloc{from: {Balance: funds}}, func(n *node.Config, _ *ethconfig.Config) {
		n.IPCPath = cfg.ipc
	})
	s := &Simulated{backend: backend}
	if cfg.ipc != "" {
		c, err := rpc.Dial(cfg.ipc)
		if err != nil {
			_ = backend.Close()
			return nil, fmt.Errorf("anchor: the simulated chain's IPC socket: %w", err)
		}
		s.rpc = c
	}
	e, err := NewEthereum(backend.Client(), EthereumConfig{
		Key: key, To: from, ReceiptTimeout: 30 * time.Second, PollInterval: 10 * time.Millisecond,
	})
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	e.name = "simulated"
	e.afterSend = func() { backend.Commit() }
	s.Ethereum = e
	return s, nil
}

// Backend returns the simulated chain, to inspect it in tests.
func (s *Simulated) Backend() *simulated.Backend { return s.backend }

// RPC returns a JSON-RPC client of the chain's node (WithIPC), or nil.
func (s *Simulated) RPC() *rpc.Client { return s.rpc }

// Close stops the simulated chain.
func (s *Simulated) Close() error {
	if s.rpc != nil {
		s.rpc.Close()
	}
	return s.backend.Close()
}
