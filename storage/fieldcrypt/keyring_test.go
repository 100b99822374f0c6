package fieldcrypt

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

func testRing(t testing.TB) *Keyring {
	t.Helper()
	k, err := NewKeyring("k1", map[string][]byte{"k1": testKey(1), "k0": testKey(0)}, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSealOpen(t *testing.T) {
	ring := testRing(t)
	other, err := NewKeyring("k1", map[string][]byte{"k1": testKey(9)}, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	aad := []byte("parcel:SANDBOX:prc_1:owner.fullName")
	plain := []byte("Amina Diallo")
	good, err := ring.Seal(plain, aad)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(b []byte, i int) []byte { b = bytes.Clone(b); b[i] ^= 1; return b }
	tests := []struct {
		name   string
		ring   *Keyring
		sealed func(Sealed) Sealed
		aad    []byte
		want   error // nil: opens to plain
	}{
		{"round trip", ring, func(s Sealed) Sealed { return s }, aad, nil},
		{"wrong aad", ring, func(s Sealed) Sealed { return s }, []byte("parcel:SANDBOX:prc_2:owner.fullName"), ErrOpen},
		{"empty aad", ring, func(s Sealed) Sealed { return s }, nil, ErrOpen},
		{"other key under the same id", other, func(s Sealed) Sealed { return s }, aad, ErrOpen},
		{"key id of another key", ring, func(s Sealed) Sealed { s.KeyID = "k0"; return s }, aad, ErrOpen},
		{"unknown key id", ring, func(s Sealed) Sealed { s.KeyID = "k7"; return s }, aad, ErrUnknownKey},
		{"malformed key id", ring, func(s Sealed) Sealed { s.KeyID = "k 1"; return s }, aad, ErrMalformed},
		{"tampered ciphertext", ring, func(s Sealed) Sealed { s.Ciphertext = flip(s.Ciphertext, 0); return s }, aad, ErrOpen},
		{"tampered tag", ring, func(s Sealed) Sealed { s.Ciphertext = flip(s.Ciphertext, len(s.Ciphertext)-1); return s }, aad, ErrOpen},
		{"tampered nonce", ring, func(s Sealed) Sealed { s.Nonce = flip(s.Nonce, 3); return s }, aad, ErrOpen},
		{"truncated ciphertext", ring, func(s Sealed) Sealed { s.Ciphertext = s.Ciphertext[:len(s.Ciphertext)-1]; return s }, aad, ErrOpen},
		{"ciphertext shorter than a tag", ring, func(s Sealed) Sealed { s.Ciphertext = s.Ciphertext[:TagSize-1]; return s }, aad, ErrMalformed},
		{"short nonce", ring, func(s Sealed) Sealed { s.Nonce = s.Nonce[:8]; return s }, aad, ErrMalformed},
		{"zero", ring, func(Sealed) Sealed { return Sealed{} }, aad, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.ring.Open(tt.sealed(good), tt.aad)
			if tt.want == nil {
				if err != nil || !bytes.Equal(got, plain) {
					t.Fatalf("Open = %q, %v; want %q", got, err, plain)
				}
				return
			}
			if !errors.Is(err, tt.want) || got != nil {
				t.Fatalf("Open = %q, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestSealFreshNonceAndKeyID(t *testing.T) {
	ring := testRing(t)
	a, _ := ring.Seal([]byte("x"), nil)
	b, _ := ring.Seal([]byte("x"), nil)
	if a.KeyID != "k1" || bytes.Equal(a.Nonce, b.Nonce) || bytes.Equal(a.Ciphertext, b.Ciphertext) {
		t.Fatalf("two seals: %+v %+v", a, b)
	}
	if _, err := NewKeyring("k1", map[string][]byte{"k1": testKey(1)}, failingReader{}); err != nil {
		t.Fatal(err)
	}
	var zero Keyring
	if _, err := zero.Seal([]byte("x"), nil); err == nil {
		t.Fatal("the zero Keyring sealed")
	}
	var none *Keyring
	if _, err := none.Open(a, nil); err == nil {
		t.Fatal("a nil Keyring opened")
	}
	broken, _ := NewKeyring("k1", map[string][]byte{"k1": testKey(1)}, failingReader{})
	if _, err := broken.Seal([]byte("x"), nil); err == nil {
		t.Fatal("Seal with a failing rand succeeded")
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

func TestNewKeyringRefuses(t *testing.T) {
	tests := []struct {
		name    string
		current string
		keys    map[string][]byte
	}{
		{"current missing", "k2", map[string][]byte{"k1": testKey(1)}},
		{"short key", "k1", map[string][]byte{"k1": testKey(1)[:16]}},
		{"bad key id", "k/1", map[string][]byte{"k/1": testKey(1)}},
		{"no keys", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewKeyring(tt.current, tt.keys, rand.Reader); err == nil {
				t.Fatal("NewKeyring succeeded")
			}
		})
	}
	if _, err := NewKeyring("k1", map[string][]byte{"k1": testKey(1)}, nil); err == nil {
		t.Fatal("nil rand accepted")
	}
}

func TestRotateAndErase(t *testing.T) {
	ring := testRing(t)
	old, _ := ring.Seal([]byte("old"), []byte("a"))
	id, err := ring.Rotate()
	if err != nil {
		t.Fatal(err)
	}
	if ring.Current() != id || !strings.HasPrefix(id, "fk_") {
		t.Fatalf("Current = %q, Rotate = %q", ring.Current(), id)
	}
	if got := ring.KeyIDs(); len(got) != 3 || got[0] != id || got[1] != "k1" {
		t.Fatalf("KeyIDs = %v", got)
	}
	fresh, _ := ring.Seal([]byte("new"), []byte("a"))
	if fresh.KeyID != id {
		t.Fatalf("sealed under %q after rotation to %q", fresh.KeyID, id)
	}
	if got, err := ring.Open(old, []byte("a")); err != nil || string(got) != "old" {
		t.Fatalf("old value after rotation: %q, %v", got, err)
	}
	if err := ring.Erase(id); err == nil {
		t.Fatal("erased the current key")
	}
	if err := ring.Erase("k1"); err != nil {
		t.Fatal(err)
	}
	if _, err := ring.Open(old, []byte("a")); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("erased value opens: %v", err)
	}
	if got, err := ring.Open(fresh, []byte("a")); err != nil || string(got) != "new" {
		t.Fatalf("new value after erase: %q, %v", got, err)
	}
	if err := ring.Erase("k1"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("second erase: %v", err)
	}
}

func TestLoadOrCreate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ring, err := LoadOrCreate(dir, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, KeyFileName)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v", fi, err)
	}
	s, _ := ring.Seal([]byte("v"), []byte("aad"))
	again, err := LoadOrCreate(dir, rand.Reader)
	if err != nil || again.Current() != ring.Current() {
		t.Fatalf("reload: %v, current %q vs %q", err, again.Current(), ring.Current())
	}
	if got, err := again.Open(s, []byte("aad")); err != nil || string(got) != "v" {
		t.Fatalf("open after reload: %q, %v", got, err)
	}

	// Rotation and erasure are persisted; the file stays 0600.
	first := ring.Current()
	id, err := ring.Rotate()
	if err != nil {
		t.Fatal(err)
	}
	reloaded, err := LoadOrCreate(dir, rand.Reader)
	if err != nil || reloaded.Current() != id || len(reloaded.KeyIDs()) != 2 {
		t.Fatalf("after rotate: %v, %v", err, reloaded.KeyIDs())
	}
	if err := ring.Erase(first); err != nil {
		t.Fatal(err)
	}
	reloaded, err = LoadOrCreate(dir, rand.Reader)
	if err != nil || len(reloaded.KeyIDs()) != 1 {
		t.Fatalf("after erase: %v, %v", err, reloaded.KeyIDs())
	}
	if _, err := reloaded.Open(s, []byte("aad")); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("erased value opens after reload: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after rewrite: %v", fi.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp*")); len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestLoadOrCreateRefuses(t *testing.T) {
	key := strings.Repeat("ab", KeySize)
	tests := []struct {
		name string
		body string
		mode os.FileMode
	}{
		{"readable by group", "k1 " + key + "\n", 0o640},
		{"readable by others", "k1 " + key + "\n", 0o604},
		{"empty", "# nothing\n", 0o600},
		{"short key", "k1 abcd\n", 0o600},
		{"not hex", "k1 " + strings.Repeat("zz", KeySize) + "\n", 0o600},
		{"three fields", "k1 " + key + " extra\n", 0o600},
		{"bad id", "k.1 " + key + "\n", 0o600},
		{"repeated id", "k1 " + key + "\nk1 " + key + "\n", 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, KeyFileName)
			if err := os.WriteFile(path, []byte(tt.body), tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadOrCreate(dir, rand.Reader); err == nil {
				t.Fatal("LoadOrCreate accepted it")
			}
		})
	}
	// A well-formed, hand-written file with comments loads; its first key is current.
	dir := t.TempDir()
	body := "# keys\n\nk2 " + strings.Repeat("02", KeySize) + "\nk1 " + key + "\n"
	if err := os.WriteFile(filepath.Join(dir, KeyFileName), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	ring, err := LoadOrCreate(dir, rand.Reader)
	if err != nil || ring.Current() != "k2" {
		t.Fatalf("LoadOrCreate: %v, current %q", err, ring.Current())
	}
}

func TestSealedEncodings(t *testing.T) {
	ring := testRing(t)
	s, _ := ring.Seal([]byte("hello"), []byte("aad"))

	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(js, []byte(`{"kid":"k1","n":"`)) {
		t.Fatalf("JSON form: %s", js)
	}
	var fromJSON Sealed
	if err := json.Unmarshal(js, &fromJSON); err != nil {
		t.Fatal(err)
	}
	bin, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var fromBin Sealed
	if err := fromBin.UnmarshalBinary(bin); err != nil {
		t.Fatal(err)
	}
	for _, got := range []Sealed{fromJSON, fromBin} {
		if p, err := ring.Open(got, []byte("aad")); err != nil || string(p) != "hello" {
			t.Fatalf("decoded value: %q, %v", p, err)
		}
	}

	// The zero value round-trips through JSON (records without the field).
	zjs, _ := json.Marshal(Sealed{})
	var z Sealed
	if err := json.Unmarshal(zjs, &z); err != nil || !z.IsZero() {
		t.Fatalf("zero: %s → %+v, %v", zjs, z, err)
	}
	if _, err := (Sealed{}).MarshalBinary(); !errors.Is(err, ErrMalformed) {
		t.Fatalf("zero MarshalBinary: %v", err)
	}

	bad := []string{
		`{"kid":"k1","n":"AAAA","c":"AAAAAAAAAAAAAAAAAAAAAA=="}`, // short nonce
		`{"kid":"k1","n":"AAAAAAAAAAAAAAAA","c":"AAAA"}`,         // short ciphertext
		`{"kid":"","n":"AAAAAAAAAAAAAAAA","c":"AAAAAAAAAAAAAAAAAAAAAA=="}`,
		`{"kid":"k1","n":"AAAAAAAAAAAAAAAA","c":"AAAAAAAAAAAAAAAAAAAAAA==","x":1}`,
		`{"kid":"k1","n":"!!","c":""}`,
		`[1]`,
	}
	for _, in := range bad {
		var v Sealed
		if err := json.Unmarshal([]byte(in), &v); !errors.Is(err, ErrMalformed) {
			t.Errorf("Unmarshal(%s) = %v, want ErrMalformed", in, err)
		}
	}
	for _, in := range [][]byte{nil, {1}, {2, 2, 'k', '1'}, bin[:len(bin)-1][:20], append([]byte{1, 0}, make([]byte, 40)...)} {
		var v Sealed
		if err := v.UnmarshalBinary(in); !errors.Is(err, ErrMalformed) {
			t.Errorf("UnmarshalBinary(%x) = %v, want ErrMalformed", in, err)
		}
	}
}

func TestConcurrentSealRotate(t *testing.T) {
	ring := testRing(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if i == 0 {
					if _, err := ring.Rotate(); err != nil {
						t.Error(err)
					}
				}
				s, err := ring.Seal([]byte("v"), []byte("a"))
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := ring.Open(s, []byte("a")); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}

func BenchmarkSealOpen64(b *testing.B) {
	ring := testRing(b)
	field := bytes.Repeat([]byte("n"), 64)
	aad := []byte("parcel:PRODUCTION:prc_01JQ7Z8X9Y0ABCDEFGHJKMNPQR:owner.fullName")
	b.SetBytes(int64(len(field)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := ring.Seal(field, aad)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ring.Open(s, aad); err != nil {
			b.Fatal(err)
		}
	}
}
