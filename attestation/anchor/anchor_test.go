package anchor

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

func testKey(t *testing.T) *Simulated {
	t.Helper()
	key, err := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	sim, err := NewSimulated(key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	return sim
}

func TestSimulatedAnchorsDigestAsCalldata(t *testing.T) {
	sim := testKey(t)
	ctx := context.Background()
	if sim.Name() != "simulated" || IsDisabled(sim) {
		t.Fatalf("Name = %q", sim.Name())
	}
	for i, legacy := range []bool{false, true} {
		sim.cfg.Legacy = legacy
		digest := crypto.Keccak256Hash([]byte{byte(i)})
		r, err := sim.Anchor(ctx, digest)
		if err != nil {
			t.Fatalf("legacy=%v: %v", legacy, err)
		}
		if r.BlockNumber != uint64(i+1) || len(r.TxHash) != 66 {
			t.Fatalf("receipt = %+v", r)
		}
		tx, pending, err := sim.Backend().Client().TransactionByHash(ctx, common.HexToHash(r.TxHash))
		if err != nil || pending {
			t.Fatalf("tx: %v, pending %v", err, pending)
		}
		if common.BytesToHash(tx.Data()) != digest || *tx.To() != sim.From() {
			t.Fatalf("tx data %x to %s", tx.Data(), tx.To())
		}
		if wantType := map[bool]uint8{false: 2, true: 0}[legacy]; tx.Type() != wantType {
			t.Fatalf("tx type %d, want %d", tx.Type(), wantType)
		}
	}
}

func TestEthereumTimesOutWithoutReceipt(t *testing.T) {
	sim := testKey(t)
	e, err := NewEthereum(sim.Backend().Client(), EthereumConfig{
		Key: sim.cfg.Key, To: sim.From(), ReceiptTimeout: 50 * time.Millisecond, PollInterval: 5 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Nothing mines the block: the wait must end at the timeout.
	_, err = e.Anchor(context.Background(), [32]byte{1})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if e.Name() != "ethereum" {
		t.Fatalf("Name = %q", e.Name())
	}
}

func TestConfigErrors(t *testing.T) {
	sim := testKey(t)
	if _, err := NewEthereum(nil, EthereumConfig{Key: sim.cfg.Key, To: sim.From()}); err == nil {
		t.Error("nil client accepted")
	}
	if _, err := NewEthereum(sim.Backend().Client(), EthereumConfig{To: sim.From()}); err == nil {
		t.Error("nil key accepted")
	}
	if _, err := NewEthereum(sim.Backend().Client(), EthereumConfig{Key: sim.cfg.Key}); err == nil {
		t.Error("zero recipient accepted")
	}
	if _, err := NewSimulated(nil); err == nil {
		t.Error("simulated without key")
	}
	if _, err := DialEthereum(context.Background(), "not a url://", EthereumConfig{}); err == nil {
		t.Error("bad URL accepted")
	}
}

func TestDisabled(t *testing.T) {
	var d Disabled
	if _, err := d.Anchor(context.Background(), [32]byte{}); !errors.Is(err, ErrDisabled) {
		t.Fatal(err)
	}
	if !IsDisabled(d) || !IsDisabled(nil) || !IsDisabled(&d) || d.Name() != "disabled" {
		t.Fatal("IsDisabled")
	}
}
