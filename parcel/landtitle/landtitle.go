package landtitle

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// InterfaceID is ERC-5192's interface id, which LandTitle reports through supportsInterface.
const InterfaceID = 0xb45a3c0e

// Backend is what the client needs from a node. *ethclient.Client and the simulated
// chain's Client() satisfy it.
type Backend interface {
	bind.ContractBackend
	bind.DeployBackend
	ethereum.ChainIDReader
	ethereum.BlockNumberReader
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
}

// ErrConflict: the chain holds a different title under the token id (another holder,
// another certificate hash, or a burned title that is never minted again).
var ErrConflict = errors.New("landtitle: the token id holds a different title")

// ErrNotMinted: the token id was never minted, so there is nothing to burn.
var ErrNotMinted = errors.New("landtitle: the token id was never minted")

// Config configures a Contract.
type Config struct {
	// Key is the registry account's: it deploys, mints, burns and pays the gas.
	Key *ecdsa.PrivateKey
	// ChainID of the node; 0 asks the node once. A set value that the node contradicts
	// is refused.
	ChainID uint64
	// Legacy sends legacy (gas price) transactions instead of EIP-1559 ones.
	Legacy bool
	// ReceiptTimeout bounds each wait for a receipt (default 2 minutes).
	ReceiptTimeout time.Duration
	// PollInterval is the longest pause between receipt queries (default 1 s); the
	// first comes after 25 ms, each next one after twice the pause before.
	PollInterval time.Duration
	// FromBlock is the first block searched for past Transfer logs, when an idempotent
	// Mint or Burn returns the receipt of the original transaction: the deployment
	// block. Deploy sets it to the deployment's block when it is 0.
	FromBlock uint64
	// AfterSend is called after each SendTransaction (the simulated chain mines a block
	// there); nil otherwise.
	AfterSend func()
}

// Receipt of a mined transaction.
type Receipt struct {
	TxHash      common.Hash
	BlockNumber uint64
	GasUsed     uint64
}

// Contract is a client of one LandTitle deployment, sending as its registry. It is safe
// for concurrent use: sending is serialised, so nonces never collide within one Contract
// (two Contracts, or two processes, on one key may still race; the loser's Mint or Burn
// reads the chain again and returns the winner's receipt).
type Contract struct {
	b       Backend
	cfg     Config
	addr    common.Address
	from    common.Address
	abi     *abi.ABI
	caller  *LandTitleCaller
	chainID *big.Int

	mu sync.Mutex // serialises nonce allocation and sending
}

// newContract checks cfg, fills its defaults and learns the chain id.
func newContract(ctx context.Context, b Backend, cfg Config) (*Contract, error) {
	if b == nil || cfg.Key == nil {
		return nil, errors.New("landtitle: a backend and the registry key are needed")
	}
	if cfg.ReceiptTimeout <= 0 {
		cfg.ReceiptTimeout = 2 * time.Minute
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Second
	}
	parsed, err := LandTitleMetaData.GetAbi()
	if err != nil {
		return nil, fmt.Errorf("landtitle: parsing the ABI: %w", err)
	}
	id, err := b.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("landtitle: chain id: %w", err)
	}
	if cfg.ChainID != 0 && (!id.IsUint64() || id.Uint64() != cfg.ChainID) {
		return nil, fmt.Errorf("landtitle: the node is on chain %s, not the configured %d", id, cfg.ChainID)
	}
	return &Contract{b: b, cfg: cfg, from: crypto.PubkeyToAddress(cfg.Key.PublicKey), abi: parsed, chainID: id}, nil
}

// bindTo points c at the deployment addr.
func (c *Contract) bindTo(addr common.Address) error {
	caller, err := NewLandTitleCaller(addr, c.b)
	if err != nil {
		return fmt.Errorf("landtitle: binding %s: %w", addr.Hex(), err)
	}
	c.addr, c.caller = addr, caller
	return nil
}

// Deploy deploys LandTitle with the key's address as registry and baseURI as the prefix
// of every token URI (e.g. "https://registry.example/v1/tokens/"), and waits for it to
// be mined.
func Deploy(ctx context.Context, b Backend, cfg Config, baseURI string) (*Contract, Receipt, error) {
	c, err := newContract(ctx, b, cfg)
	if err != nil {
		return nil, Receipt{}, err
	}
	args, err := c.abi.Pack("", c.from, baseURI)
	if err != nil {
		return nil, Receipt{}, fmt.Errorf("landtitle: packing the constructor: %w", err)
	}
	code := append(common.FromHex(LandTitleMetaData.Bin), args...)
	rcpt, err := c.transact(ctx, "deploying", nil, code)
	if err != nil {
		return nil, Receipt{}, err
	}
	if err := c.bindTo(rcpt.ContractAddress); err != nil {
		return nil, Receipt{}, err
	}
	if c.cfg.FromBlock == 0 {
		c.cfg.FromBlock = rcpt.BlockNumber.Uint64()
	}
	return c, receiptOf(rcpt), nil
}

// At binds to the deployment at addr and checks it: code is there, it supports
// ERC-5192, and its registry is the key's address.
func At(ctx context.Context, b Backend, addr common.Address, cfg Config) (*Contract, error) {
	c, err := newContract(ctx, b, cfg)
	if err != nil {
		return nil, err
	}
	code, err := b.CodeAt(ctx, addr, nil)
	if err != nil {
		return nil, fmt.Errorf("landtitle: code at %s: %w", addr.Hex(), err)
	}
	if len(code) == 0 {
		return nil, fmt.Errorf("landtitle: no contract at %s on chain %s", addr.Hex(), c.chainID)
	}
	if err := c.bindTo(addr); err != nil {
		return nil, err
	}
	opts := &bind.CallOpts{Context: ctx}
	ok, err := c.caller.SupportsInterface(opts, [4]byte{0xb4, 0x5a, 0x3c, 0x0e})
	if err != nil || !ok {
		return nil, fmt.Errorf("landtitle: %s is not an ERC-5192 contract (supportsInterface(0xb45a3c0e): %v, %v)", addr.Hex(), ok, err)
	}
	registry, err := c.caller.Registry(opts)
	if err != nil {
		return nil, fmt.Errorf("landtitle: registry() of %s: %w", addr.Hex(), err)
	}
	if registry != c.from {
		return nil, fmt.Errorf("landtitle: the registry of %s is %s, not the key's address %s", addr.Hex(), registry.Hex(), c.from.Hex())
	}
	return c, nil
}

// Address returns the contract's address.
func (c *Contract) Address() common.Address { return c.addr }

// Registry returns the registry's address: the key's, the custody address of every
// title's mint and burn.
func (c *Contract) Registry() common.Address { return c.from }

// ChainID returns the chain the contract lives on.
func (c *Contract) ChainID() uint64 { return c.chainID.Uint64() }

// Title reads what the chain says about tokenID, in one titleOf call.
func (c *Contract) Title(ctx context.Context, tokenID *big.Int) (Title, error) {
	got, err := c.caller.TitleOf(&bind.CallOpts{Context: ctx}, tokenID)
	if err != nil {
		return Title{}, fmt.Errorf("landtitle: titleOf(%s): %w", tokenID, err)
	}
	return titleFrom(got.Holder, got.CertificateHash), nil
}

// Mint mints tokenID to to for the certificate whose hash is certificateHash, and
// returns the mint's receipt. It is idempotent: a title already minted to the same
// holder with the same hash returns the receipt of the original mint, and sends
// nothing. A title minted otherwise, or burned, is an error wrapping ErrConflict.
func (c *Contract) Mint(ctx context.Context, to common.Address, tokenID *big.Int, certificateHash common.Hash) (Receipt, error) {
	if to == (common.Address{}) || certificateHash == (common.Hash{}) || tokenID == nil || tokenID.Sign() < 0 {
		return Receipt{}, errors.New("landtitle: minting needs a holder, a token id and a certificate hash")
	}
	want := Title{State: Minted, Holder: to, CertificateHash: certificateHash}
	done := func(t Title) (Receipt, bool, error) {
		switch {
		case t == want:
			r, err := c.pastTransfer(ctx, &common.Address{}, &to, tokenID)
			return r, true, err
		case t.State != Unminted:
			return Receipt{}, true, fmt.Errorf("%w: token %s is %s (holder %s, certificate %s)", ErrConflict, tokenID, t.State, t.Holder.Hex(), t.CertificateHash.Hex())
		}
		return Receipt{}, false, nil
	}
	data, err := c.abi.Pack("mint", to, tokenID, certificateHash)
	if err != nil {
		return Receipt{}, fmt.Errorf("landtitle: packing mint: %w", err)
	}
	return c.idempotent(ctx, "minting "+tokenID.String(), tokenID, data, done)
}

// Burn burns tokenID and returns the burn's receipt. It is idempotent: a burned title
// returns the receipt of the original burn, and sends nothing. A title never minted is
// an error wrapping ErrNotMinted.
func (c *Contract) Burn(ctx context.Context, tokenID *big.Int) (Receipt, error) {
	if tokenID == nil || tokenID.Sign() < 0 {
		return Receipt{}, errors.New("landtitle: burning needs a token id")
	}
	done := func(t Title) (Receipt, bool, error) {
		switch t.State {
		case Burned:
			r, err := c.pastTransfer(ctx, nil, &common.Address{}, tokenID)
			return r, true, err
		case Unminted:
			return Receipt{}, true, fmt.Errorf("%w: token %s", ErrNotMinted, tokenID)
		}
		return Receipt{}, false, nil
	}
	data, err := c.abi.Pack("burn", tokenID)
	if err != nil {
		return Receipt{}, fmt.Errorf("landtitle: packing burn: %w", err)
	}
	return c.idempotent(ctx, "burning "+tokenID.String(), tokenID, data, done)
}

// idempotent reads the title and lets done decide whether the chain already says the
// last word; otherwise it sends data and waits. A failed send or a reverted transaction
// is followed by a second reading, since another sender may have won the race; a send
// that lost a nonce race with another client on the same key is tried again.
func (c *Contract) idempotent(ctx context.Context, what string, tokenID *big.Int, data []byte,
	done func(Title) (Receipt, bool, error)) (Receipt, error) {
	const attempts = 3
	t, err := c.Title(ctx, tokenID)
	if err != nil {
		return Receipt{}, err
	}
	for attempt := 1; ; attempt++ {
		if r, ok, err := done(t); ok {
			return r, err
		}
		rcpt, sendErr := c.transact(ctx, what, &c.addr, data)
		if sendErr == nil {
			return receiptOf(rcpt), nil
		}
		if ctx.Err() != nil {
			return Receipt{}, sendErr
		}
		if t, err = c.Title(ctx, tokenID); err != nil {
			return Receipt{}, errors.Join(sendErr, err)
		}
		if attempt == attempts || !isNonceRace(sendErr) {
			if r, ok, err := done(t); ok {
				return r, err
			}
			return Receipt{}, sendErr
		}
	}
}

// pastTransfer finds the Transfer(from, to, tokenID) log from cfg.FromBlock and returns
// its transaction's receipt; a nil from or to matches any address. A token id has at
// most one mint and one burn, so the first log found is the one.
func (c *Contract) pastTransfer(ctx context.Context, from, to *common.Address, tokenID *big.Int) (Receipt, error) {
	topic := func(a *common.Address) []common.Hash {
		if a == nil {
			return nil
		}
		return []common.Hash{common.BytesToHash(a.Bytes())}
	}
	logs, err := c.b.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(c.cfg.FromBlock),
		Addresses: []common.Address{c.addr},
		Topics:    [][]common.Hash{{c.abi.Events["Transfer"].ID}, topic(from), topic(to), {common.BigToHash(tokenID)}},
	})
	if err != nil {
		return Receipt{}, fmt.Errorf("landtitle: searching the Transfer log of token %s: %w", tokenID, err)
	}
	for _, l := range logs {
		if l.Removed {
			continue
		}
		rcpt, err := c.b.TransactionReceipt(ctx, l.TxHash)
		if err != nil {
			return Receipt{}, fmt.Errorf("landtitle: receipt of %s: %w", l.TxHash.Hex(), err)
		}
		return receiptOf(rcpt), nil
	}
	return Receipt{}, fmt.Errorf("landtitle: token %s: no Transfer log from block %d", tokenID, c.cfg.FromBlock)
}
