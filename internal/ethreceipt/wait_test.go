package ethreceipt

import (
	"context"
	"errors"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// script answers TransactionReceipt from a list of errors, then with a receipt.
type script struct {
	errs  []error
	calls int
}

func (s *script) TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error) {
	s.calls++
	if s.calls <= len(s.errs) {
		return nil, s.errs[s.calls-1]
	}
	return &types.Receipt{Status: 1, BlockNumber: big.NewInt(7)}, nil
}

func TestWait(t *testing.T) {
	other := errors.New("connection refused")
	for _, tc := range []struct {
		name    string
		errs    []error
		timeout time.Duration
		calls   int
		want    error // nil: a receipt
	}{
		{"at once", nil, time.Second, 1, nil},
		{"after not found and indexing", []error{ethereum.NotFound, errors.New("transaction indexing is in progress"), ethereum.NotFound}, time.Second, 4, nil},
		{"another error ends the wait", []error{ethereum.NotFound, other}, time.Second, 2, other},
		{"the transport's timeout", []error{os.ErrDeadlineExceeded}, time.Second, 1, context.DeadlineExceeded},
		{"never mined", []error{ethereum.NotFound, ethereum.NotFound, ethereum.NotFound, ethereum.NotFound, ethereum.NotFound, ethereum.NotFound, ethereum.NotFound, ethereum.NotFound}, 60 * time.Millisecond, 0, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			s := &script{errs: tc.errs}
			start := time.Now()
			r, err := Wait(ctx, s, common.Hash{1}, 20*time.Millisecond)
			if tc.want == nil {
				if err != nil || r.BlockNumber.Uint64() != 7 {
					t.Fatalf("got %v, %v", r, err)
				}
			} else if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if tc.calls > 0 && s.calls != tc.calls {
				t.Fatalf("%d calls, want %d", s.calls, tc.calls)
			}
			if tc.want == nil && time.Since(start) > 500*time.Millisecond {
				t.Fatalf("took %v: the pauses are capped at 20 ms", time.Since(start))
			}
		})
	}
}
