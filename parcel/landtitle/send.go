package landtitle

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/veriland/veriland/internal/ethreceipt"
)

// transact sends data to to (nil: a deployment) from the registry, waits for the
// receipt, and fails on a reverted transaction. what names the action in errors.
func (c *Contract) transact(ctx context.Context, what string, to *common.Address, data []byte) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.ReceiptTimeout)
	defer cancel()
	tx, err := c.send(ctx, to, data)
	if err != nil {
		return nil, fmt.Errorf("landtitle: %s: %w", what, err)
	}
	rcpt, err := ethreceipt.Wait(ctx, c.b, tx.Hash(), c.cfg.PollInterval)
	if err != nil {
		return nil, fmt.Errorf("landtitle: %s: %w", what, err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		return nil, fmt.Errorf("landtitle: %s: transaction %s reverted in block %s", what, tx.Hash().Hex(), rcpt.BlockNumber)
	}
	return rcpt, nil
}

// send signs and sends one transaction with the next pending nonce. The gas limit is
// estimated, so a call that would revert fails here, with the contract's error decoded.
func (c *Contract) send(ctx context.Context, to *common.Address, data []byte) (*types.Transaction, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	nonce, err := c.b.PendingNonceAt(ctx, c.from)
	if err != nil {
		return nil, fmt.Errorf("nonce: %w", err)
	}
	gas, err := c.b.EstimateGas(ctx, ethereum.CallMsg{From: c.from, To: to, Data: data})
	if err != nil {
		return nil, fmt.Errorf("estimating gas: %w", c.decodeRevert(err))
	}
	var unsigned *types.Transaction
	if c.cfg.Legacy {
		price, err := c.b.SuggestGasPrice(ctx)
		if err != nil {
			return nil, fmt.Errorf("gas price: %w", err)
		}
		unsigned = types.NewTx(&types.LegacyTx{Nonce: nonce, GasPrice: price, Gas: gas, To: to, Data: data})
	} else {
		tip, err := c.b.SuggestGasTipCap(ctx)
		if err != nil {
			return nil, fmt.Errorf("gas tip: %w", err)
		}
		head, err := c.b.HeaderByNumber(ctx, nil)
		if err != nil {
			return nil, fmt.Errorf("head: %w", err)
		}
		if head.BaseFee == nil {
			return nil, errors.New("the chain has no base fee (pre-London): set Legacy")
		}
		feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
		unsigned = types.NewTx(&types.DynamicFeeTx{
			ChainID: c.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: to, Data: data,
		})
	}
	tx, err := types.SignTx(unsigned, types.LatestSignerForChainID(c.chainID), c.cfg.Key)
	if err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	// "already known": another client on this key signed the very same transaction
	// (same nonce, data and fees), which is in the pool; its receipt is ours.
	if err := c.b.SendTransaction(ctx, tx); err != nil && !strings.Contains(err.Error(), "already known") {
		return nil, fmt.Errorf("sending: %w", err)
	}
	if c.cfg.AfterSend != nil {
		c.cfg.AfterSend()
	}
	return tx, nil
}

// receiptOf keeps what callers need of a receipt.
func receiptOf(r *types.Receipt) Receipt {
	return Receipt{TxHash: r.TxHash, BlockNumber: r.BlockNumber.Uint64(), GasUsed: r.GasUsed}
}

// RevertError is a call that the contract refused with one of its custom errors (or
// OpenZeppelin's), decoded from the node's revert data.
type RevertError struct {
	// Name of the Solidity error, e.g. "NotRegistry", "Soulbound", "TitleAlreadyBurned".
	Name string
	// Args are the error's decoded arguments, in order.
	Args []any
	err  error
}

// Error says that the call reverted with the Solidity error, e.g. "reverted with
// Soulbound()".
func (e *RevertError) Error() string { return "reverted with " + e.Solidity() }

// Solidity returns the error as Solidity writes it, e.g. "Soulbound()".
func (e *RevertError) Solidity() string {
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = fmt.Sprint(a)
	}
	return fmt.Sprintf("%s(%s)", e.Name, strings.Join(args, ", "))
}

// DecodeRevert decodes the revert data of a node's error (an eth_call or
// eth_estimateGas against LandTitle) into one of LandTitle's or OpenZeppelin's errors,
// or returns nil when err carries none: for clients that read the contract without a
// Contract (a wallet, an explorer).
func DecodeRevert(err error) *RevertError {
	parsed, perr := LandTitleMetaData.GetAbi()
	if perr != nil {
		return nil
	}
	return revertOf(parsed, err)
}

// Unwrap returns the node's error.
func (e *RevertError) Unwrap() error { return e.err }

// decodeRevert turns a node error carrying revert data that names one of the ABI's
// errors into a *RevertError; other errors come back as they are.
func (c *Contract) decodeRevert(err error) error {
	if r := revertOf(c.abi, err); r != nil {
		return r
	}
	return err
}

// revertOf decodes the revert data in err against parsed, or returns nil.
func revertOf(parsed *abi.ABI, err error) *RevertError {
	var de rpc.DataError
	if parsed == nil || !errors.As(err, &de) {
		return nil
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return nil
	}
	data := common.FromHex(s)
	if len(data) < 4 {
		return nil
	}
	e, lookupErr := parsed.ErrorByID([4]byte(data[:4]))
	if lookupErr != nil {
		return nil
	}
	args, unpackErr := e.Inputs.Unpack(data[4:])
	if unpackErr != nil {
		return nil
	}
	return &RevertError{Name: e.Name, Args: args, err: err}
}

// isNonceRace reports whether err is the node refusing a transaction whose nonce another
// sender on the same key took first.
func isNonceRace(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "nonce too low") || strings.Contains(msg, "replacement transaction underpriced")
}
