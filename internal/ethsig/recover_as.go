package ethsig

import (
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland/internal/secpcomb"
)

// RecoverAs is Recover for a signature expected from want, an address the caller
// trusts (a configured issuer): it returns exactly what Recover returns, address or
// error. The first time a signature recovers to want, RecoverAs keeps want's public
// key with precomputed tables (secpcomb, about 512 KiB, built in a few
// milliseconds); later signatures by that key are then checked against it in about
// half the time of a recovery. Any other outcome — another signer, a bad signature —
// takes the ordinary recovery. At most maxKnownKeys addresses are kept, the first
// ones seen: pass only trusted addresses, never one taken from untrusted input alone.
func RecoverAs(digest [32]byte, sig []byte, want common.Address) (common.Address, error) {
	rsv, err := checkSignature(sig)
	if err != nil {
		return common.Address{}, err
	}
	if k := knownKey(want); k != nil && k.Recovers(&digest, &rsv) {
		return want, nil
	}
	pub, err := recoverKey(digest, &rsv)
	if err != nil {
		return common.Address{}, err
	}
	addr := keyAddress(pub)
	if addr == want {
		learnKey(want, pub)
	}
	return addr, nil
}

// maxKnownKeys bounds the keys RecoverAs keeps (and their memory, 512 KiB each).
const maxKnownKeys = 8

var (
	// knownKeys is an immutable map, replaced whole when a key is learnt, so that
	// lookups take no lock.
	knownKeys atomic.Pointer[map[common.Address]*secpcomb.Key]
	learnMu   sync.Mutex
)

func knownKey(a common.Address) *secpcomb.Key {
	if m := knownKeys.Load(); m != nil {
		return (*m)[a]
	}
	return nil
}

// learnKey keeps the table of pub, whose address is a, unless it is kept already or
// maxKnownKeys are.
func learnKey(a common.Address, pub []byte) {
	learnMu.Lock()
	defer learnMu.Unlock()
	old := knownKeys.Load()
	if old != nil && ((*old)[a] != nil || len(*old) >= maxKnownKeys) {
		return
	}
	k, err := secpcomb.NewKey(pub)
	if err != nil {
		return // not a point: recovery never returns one, but the fast path is optional
	}
	m := make(map[common.Address]*secpcomb.Key, 1)
	if old != nil {
		for addr, key := range *old {
			m[addr] = key
		}
	}
	m[a] = k
	knownKeys.Store(&m)
}
