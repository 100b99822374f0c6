package anchor

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/veriland/veriland/internal/ethreceipt"
)

// Backend is the part of a JSON-RPC client that Ethereum uses. *ethclient.Client and
// the simulated backend's client satisfy it.
type Backend interface {
	ChainID(ctx context.Context) (*big.Int, error)
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	SuggestGasPrice(ctx context.Context) (*big.Int, error)
	SuggestGasTipCap(ctx context.Context) (*big.Int, error)
	EstimateGas(ctx context.Context, call ethereum.CallMsg) (uint64, error)
	SendTransaction(ctx context.Context, tx *types.Transaction) error
	TransactionReceipt(ctx context.Context, txHash common.Hash) (*types.Receipt, error)
}

// EthereumConfig configures an Ethereum anchor.
type EthereumConfig struct {
	// Key signs the anchoring transactions and pays their gas.
	Key *ecdsa.PrivateKey
	// To receives the transactions; the digest is their calldata. The zero address is
	// refused (use the key's own address for a self-send).
	To common.Address
	// ChainID of the node; 0 asks the node once, at the first Anchor.
	ChainID uint64
	// Legacy sends legacy (gas price) transactions instead of EIP-1559 ones.
	Legacy bool
	// GasLimit of each transaction; 0 estimates it.
	GasLimit uint64
	// ReceiptTimeout bounds the wait for the receipt (default 2 minutes).
	ReceiptTimeout time.Duration
	// PollInterval is the longest pause between receipt queries (default 2 s).
	PollInterval time.Duration
}

// Ethereum anchors digests through a JSON-RPC node.
type Ethereum struct {
	client Backend
	cfg    EthereumConfig
	from   common.Address
	name   string
	// afterSend runs after each transaction is sent (the simulated chain mines a block).
	afterSend func()

	mu      sync.Mutex // serialises nonce allocation and sending
	chainID *big.Int
}

// NewEthereum returns an anchor that sends through client.
func NewEthereum(client Backend, cfg EthereumConfig) (*Ethereum, error) {
	if client == nil || cfg.Key == nil {
		return nil, errors.New("anchor: ethereum needs a client and a key")
	}
	if cfg.To == (common.Address{}) {
		return nil, errors.New("anchor: ethereum needs a recipient address")
	}
	if cfg.ReceiptTimeout <= 0 {
		cfg.ReceiptTimeout = 2 * time.Minute
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 2 * time.Second
	}
	e := &Ethereum{client: client, cfg: cfg, from: crypto.PubkeyToAddress(cfg.Key.PublicKey), name: "ethereum"}
	if cfg.ChainID != 0 {
		e.chainID = new(big.Int).SetUint64(cfg.ChainID)
	}
	return e, nil
}

// DialEthereum connects to the JSON-RPC endpoint rawURL and returns an anchor on it.
func DialEthereum(ctx context.Context, rawURL string, cfg EthereumConfig) (*Ethereum, error) {
	client, err := ethclient.DialContext(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("anchor: dialing the node: %w", err)
	}
	return NewEthereum(client, cfg)
}

// Name returns "ethereum" ("simulated" for the simulated chain).
func (e *Ethereum) Name() string { return e.name }

// From returns the address that sends the anchoring transactions.
func (e *Ethereum) From() common.Address { return e.from }

// Anchor sends a transaction to the configured address with digest as calldata and
// waits for its receipt. A reverted transaction is an error.
func (e *Ethereum) Anchor(ctx context.Context, digest [32]byte) (Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.ReceiptTimeout)
	defer cancel()
	tx, err := e.send(ctx, digest)
	if err != nil {
		return Receipt{}, err
	}
	rcpt, err := ethreceipt.Wait(ctx, e.client, tx.Hash(), e.cfg.PollInterval)
	if err != nil {
		return Receipt{}, fmt.Errorf("anchor: %w", err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		return Receipt{}, fmt.Errorf("anchor: transaction %s failed", tx.Hash().Hex())
	}
	return Receipt{TxHash: tx.Hash().Hex(), BlockNumber: rcpt.BlockNumber.Uint64()}, nil
}

func (e *Ethereum) send(ctx context.Context, digest [32]byte) (*types.Transaction, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.chainID == nil {
		id, err := e.client.ChainID(ctx)
		if err != nil {
			return nil, fmt.Errorf("anchor: chain id: %w", err)
		}
		e.chainID = id
	}
	nonce, err := e.client.PendingNonceAt(ctx, e.from)
	if err != nil {
		return nil, fmt.Errorf("anchor: nonce: %w", err)
	}
	data := digest[:]
	gas := e.cfg.GasLimit
	if gas == 0 {
		gas, err = e.client.EstimateGas(ctx, ethereum.CallMsg{From: e.from, To: &e.cfg.To, Data: data})
		if err != nil {
			return nil, fmt.Errorf("anchor: estimating gas: %w", err)
		}
	}
	var unsigned *types.Transaction
	if e.cfg.Legacy {
		price, err := e.client.SuggestGasPrice(ctx)
		if err != nil {
			return nil, fmt.Errorf("anchor: gas price: %w", err)
		}
		unsigned = types.NewTx(&types.LegacyTx{Nonce: nonce, GasPrice: price, Gas: gas, To: &e.cfg.To, Data: data})
	} else {
		tip, err := e.client.SuggestGasTipCap(ctx)
		if err != nil {
			return nil, fmt.Errorf("anchor: gas tip: %w", err)
		}
		head, err := e.client.HeaderByNumber(ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("anchor: head: %w", err)
		}
		feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
		unsigned = types.NewTx(&types.DynamicFeeTx{
			ChainID: e.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: &e.cfg.To, Data: data,
		})
	}
	tx, err := types.SignTx(unsigned, types.LatestSignerForChainID(e.chainID), e.cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("anchor: signing: %w", err)
	}
	if err := e.client.SendTransaction(ctx, tx); err != nil {
		return nil, fmt.Errorf("anchor: sending: %w", err)
	}
	if e.afterSend != nil {
		e.afterSend()
	}
	return tx, nil
}
