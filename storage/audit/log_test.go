package audit

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

func TestAppendFillsEntry(t *testing.T) {
	store := openStore(t)
	clk := newClock(t0.Add(1234567 * time.Nanosecond))
	l := &Log{Now: clk.Now}
	ctx := veriland.WithPrincipal(context.Background(), veriland.Principal{
		Subject: "NOT-ABJ-0042", Role: veriland.RoleNotary, Env: veriland.Production,
	})
	ctx = veriland.WithRequestID(ctx, "req_abc")

	tests := []struct {
		name                  string
		in                    Entry
		actor, requestID, sev string
		role                  veriland.Role
	}{
		{"defaults from context", Entry{Env: veriland.Production, Action: "parcel.certify", Outcome: OutcomeSuccess},
			"NOT-ABJ-0042", "req_abc", "INFO", veriland.RoleNotary},
		{"explicit values win", Entry{Env: veriland.Production, Action: "parcel.certify", Outcome: OutcomeSuccess,
			Actor: "system", Role: veriland.RoleAdmin, RequestID: "req_own", Severity: SeverityCritical},
			"system", "req_own", "CRITICAL", veriland.RoleAdmin},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := writeSealed(t, ctx, store, l, tt.in)
			require.Equal(t, uint64(i+1), e.Seq)
			require.True(t, ids.Valid(e.ID, "aud"), e.ID)
			require.Equal(t, t0.Add(time.Millisecond), e.Time, "UTC, truncated to the millisecond")
			require.Equal(t, tt.actor, e.Actor)
			require.Equal(t, tt.role, e.Role)
			require.Equal(t, tt.requestID, e.RequestID)
			require.Equal(t, Severity(tt.sev), e.Severity)
			require.Len(t, e.Hash, 64)
		})
	}
	requireValid(t, store, veriland.Production, 2)
}

func TestAppendValidation(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	ok := Entry{Env: veriland.Sandbox, Action: "auth.bad_token", Outcome: OutcomeFailure}
	tests := []struct {
		name    string
		mutate  func(*Entry)
		pointer string
	}{
		{"missing env", func(e *Entry) { e.Env = "" }, "/env"},
		{"unknown env", func(e *Entry) { e.Env = "STAGING" }, "/env"},
		{"missing action", func(e *Entry) { e.Action = "" }, "/action"},
		{"action not machine-readable", func(e *Entry) { e.Action = "Consent Approve" }, "/action"},
		{"unknown severity", func(e *Entry) { e.Severity = "DEBUG" }, "/severity"},
		{"missing outcome", func(e *Entry) { e.Outcome = "" }, "/outcome"},
		{"unknown role", func(e *Entry) { e.Role = "root" }, "/role"},
		{"seq is Append's", func(e *Entry) { e.Seq = 7 }, ""},
		{"hash is Append's", func(e *Entry) { e.Hash = GenesisHash }, ""},
		{"time is Append's", func(e *Entry) { e.Time = t0 }, ""},
		{"secret in detail", func(e *Entry) { e.Detail = map[string]any{"apiKey": "x"} }, "/detail/apiKey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := ok
			tt.mutate(&e)
			_, err := l.Write(context.Background(), store, e)
			require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%v", err)
			var verr *veriland.Error
			require.True(t, errors.As(err, &verr))
			require.Equal(t, tt.pointer, verr.Pointer)
		})
	}
	requireValid(t, store, veriland.Sandbox, 0)
}

// An entry appended in a transaction that fails is rolled back with it, and the chain
// does not advance.
func TestAppendRolledBackWithTransaction(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	ctx := context.Background()
	appendN(t, store, l, nil, veriland.Sandbox, 2)

	boom := errors.New("state change failed")
	err := store.Update(ctx, func(tx storage.Tx) error {
		if _, err := l.Append(ctx, tx, sample(veriland.Sandbox, 9)); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.Zero(t, pendingCount(t, store, veriland.Sandbox), "nothing pending")
	requireValid(t, store, veriland.Sandbox, 2)

	e := writeSealed(t, ctx, store, l, sample(veriland.Sandbox, 3))
	require.Equal(t, uint64(3), e.Seq)
	requireValid(t, store, veriland.Sandbox, 3)
}

// rerunStore runs every Update function once, rolls it back, and runs it again, as a
// backend that retries a batch does.
type rerunStore struct{ storage.Store }

var errRerun = errors.New("rolled back for a rerun")

func (s rerunStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errRerun
	})
	if !errors.Is(err, errRerun) {
		return err
	}
	return s.Store.Update(ctx, fn)
}

func TestAppendSafeToRerun(t *testing.T) {
	store := rerunStore{openStore(t)}
	got := appendN(t, store, &Log{}, nil, veriland.Sandbox, 5)
	for i, e := range got {
		require.Equal(t, uint64(i+1), e.Seq)
	}
	requireValid(t, store, veriland.Sandbox, 5)
}

func TestEnvironmentsHaveIndependentChains(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	var sandbox, production []Entry
	for i := range 6 {
		env := veriland.Sandbox
		if i%3 == 0 {
			env = veriland.Production
		}
		e := writeSealed(t, context.Background(), store, l, sample(env, i))
		if env == veriland.Sandbox {
			sandbox = append(sandbox, e)
		} else {
			production = append(production, e)
		}
	}
	for _, chain := range [][]Entry{sandbox, production} {
		require.Equal(t, GenesisHash, chain[0].PrevHash)
		for i, e := range chain {
			require.Equal(t, uint64(i+1), e.Seq)
			if i > 0 {
				require.Equal(t, chain[i-1].Hash, e.PrevHash)
			}
		}
	}
	requireValid(t, store, veriland.Sandbox, 4)
	requireValid(t, store, veriland.Production, 2)

	list, _, err := List(context.Background(), store, veriland.Production, Filter{})
	require.NoError(t, err)
	require.Len(t, list, 2)
	for _, e := range list {
		require.Equal(t, veriland.Production, e.Env)
	}
}

func TestConcurrentAppendersGiveGaplessChain(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	const writers, perWriter = 32, 20
	var wg sync.WaitGroup
	errs := make(chan error, writers*perWriter)
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				env := veriland.Sandbox
				if w%4 == 0 {
					env = veriland.Production
				}
				// A state change and its entry in one transaction.
				errs <- store.Update(context.Background(), func(tx storage.Tx) error {
					if err := tx.Put(storage.Bucket(env, "things"), []byte{byte(w), byte(i)}, []byte("x")); err != nil {
						return err
					}
					_, err := l.Append(context.Background(), tx, sample(env, i))
					return err
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	requireValid(t, store, veriland.Sandbox, 24*perWriter)
	requireValid(t, store, veriland.Production, 8*perWriter)
}

// Sealing refuses to write over an entry when the head record is behind; the entry
// stays pending.
func TestSealNeverOverwrites(t *testing.T) {
	store := openStore(t)
	l := &Log{}
	entries := appendN(t, store, l, nil, veriland.Sandbox, 3)
	rawPut(t, store, storage.Bucket(veriland.Sandbox, "audit_head"), []byte("head"),
		[]byte(`{"seq":2,"hash":"`+entries[1].Hash+`"}`))
	before := rawGet(t, store, storage.Bucket(veriland.Sandbox, "audit"), seqKey(3))

	_, err := l.Write(context.Background(), store, sample(veriland.Sandbox, 9))
	require.NoError(t, err, "appending does not read the chain")
	_, err = Seal(context.Background(), store, veriland.Sandbox)
	require.ErrorIs(t, err, ErrCorrupt)
	require.Equal(t, before, rawGet(t, store, storage.Bucket(veriland.Sandbox, "audit"), seqKey(3)))
	require.Equal(t, 1, pendingCount(t, store, veriland.Sandbox))
}
