package ethsig_test

import (
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
)

func mustKey(t testing.TB, hexKey string) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

func TestSignRecoverRoundTrip(t *testing.T) {
	key := mustKey(t, testKey)
	digest := ethsig.PersonalDigest([]byte("hello"))
	sig, err := ethsig.Sign(key, digest)
	if err != nil {
		t.Fatal(err)
	}
	if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		t.Fatalf("Sign gave %d bytes, v %d", len(sig), sig[64])
	}
	got, err := ethsig.Recover(digest, sig)
	if err != nil || got != ethsig.Address(key) {
		t.Fatalf("Recover = %s, %v", got.Hex(), err)
	}
	if err := ethsig.Verify(digest, sig, ethsig.Address(key)); err != nil {
		t.Fatal(err)
	}
	if _, err := ethsig.Sign(nil, digest); err == nil {
		t.Fatal("Sign(nil) succeeded")
	}
}

func TestRecoverRefuses(t *testing.T) {
	key := mustKey(t, testKey)
	digest := ethsig.Keccak([]byte("x"))
	sig, _ := ethsig.Sign(key, digest)

	highS := append([]byte(nil), sig...)
	n := crypto.S256().Params().N
	s := new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64]))
	s.FillBytes(highS[32:64])
	highS[64] = 27 + 28 - highS[64] // the twin recovers the same key with the other parity

	zeroR := append([]byte(nil), sig...)
	clear(zeroR[:32])
	bigR := append([]byte(nil), sig...)
	n.FillBytes(bigR[:32])

	cases := []struct {
		name string
		sig  []byte
		want error
	}{
		{"empty", nil, ethsig.ErrSignatureLength},
		{"64 bytes", sig[:64], ethsig.ErrSignatureLength},
		{"66 bytes", append(append([]byte(nil), sig...), 0), ethsig.ErrSignatureLength},
		{"v 2", withV(sig, 2), ethsig.ErrBadV},
		{"v 26", withV(sig, 26), ethsig.ErrBadV},
		{"v 29", withV(sig, 29), ethsig.ErrBadV},
		{"v 37 (EIP-155)", withV(sig, 37), ethsig.ErrBadV},
		{"high s", highS, ethsig.ErrHighS},
		{"r zero", zeroR, ethsig.ErrRecover},
		{"r = N", bigR, ethsig.ErrRecover},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ethsig.Recover(digest, c.sig)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if veriland.CodeOf(err) != veriland.CodeInvalidSignature {
				t.Fatalf("code = %s", veriland.CodeOf(err))
			}
		})
	}
	// The twin is a valid ECDSA signature of the same key: only the low-s rule stops it.
	twin := append([]byte(nil), highS...)
	twin[64] -= 27
	if pub, err := crypto.Ecrecover(digest[:], twin); err != nil || crypto.Keccak256Hash(pub[1:]).Big().Cmp(crypto.Keccak256Hash(crypto.FromECDSAPub(&key.PublicKey)[1:]).Big()) != 0 {
		t.Fatalf("test setup: the high-s twin should recover the same key (%v)", err)
	}
}

func withV(sig []byte, v byte) []byte {
	out := append([]byte(nil), sig...)
	out[64] = v
	return out
}

func TestPersonalDigestMatchesGoEthereum(t *testing.T) {
	for _, msg := range []string{"", "hello", strings.Repeat("x", 1000)} {
		if got, want := ethsig.PersonalDigest([]byte(msg)), accounts.TextHash([]byte(msg)); [32]byte(want) != got {
			t.Errorf("PersonalDigest(%d bytes) = %x, want %x", len(msg), got, want)
		}
	}
}

func TestHashStrings(t *testing.T) {
	if got := ethsig.HashStrings(nil); got != crypto.Keccak256Hash() {
		t.Errorf("empty list = %x", got)
	}
	items := make([]string, 20) // more than the stack buffer holds
	var cat []byte
	for i := range items {
		items[i] = strings.Repeat("a", i)
		cat = append(cat, crypto.Keccak256([]byte(items[i]))...)
	}
	if got := ethsig.HashStrings(items); got != crypto.Keccak256Hash(cat) {
		t.Errorf("HashStrings = %x", got)
	}
}

func TestDomainSeparatorMatchesAPITypes(t *testing.T) {
	for _, d := range []ethsig.Domain{
		{Name: "Identity Consent", Version: "1", ChainID: 1},
		{Name: "Identity Attestation", Version: "1", ChainID: 11155111},
		{Name: "x", Version: "2", ChainID: 1<<64 - 1},
	} {
		td := apitypesDomain(d)
		want, err := td.HashStruct("EIP712Domain", td.Domain.Map())
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Separator(); got != [32]byte(want) {
			t.Errorf("%+v: Separator = %x, want %x", d, got, want)
		}
	}
}

func apitypesDomain(d ethsig.Domain) apitypes.TypedData {
	return apitypes.TypedData{
		Types:  apitypes.Types{"EIP712Domain": ethsig.DomainFields()},
		Domain: d.APITypes(),
	}
}
