package ethsig_test

import (
	"bufio"
	"encoding/hex"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/ethsig"
)

// mailVector reads testdata/eip712_mail_example.txt: "key = value" lines, with an
// optional "OK" marker in front.
func mailVector(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/eip712_mail_example.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "OK "))
		k, _, ok := strings.Cut(line, " = ")
		if !ok {
			continue
		}
		// "privateKey = keccak256("cow") = 0x…": the value is after the last " = ".
		v[strings.TrimSpace(k)] = strings.TrimSpace(line[strings.LastIndex(line, " = ")+3:])
	}
	return v
}

func rawLine(t *testing.T, prefix string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/eip712_mail_example.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "OK "))
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no line %q in the vector", prefix)
	return ""
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func mustHash(t *testing.T, s string) [32]byte {
	t.Helper()
	b := mustHex(t, s)
	if len(b) != 32 {
		t.Fatalf("%q is not 32 bytes", s)
	}
	return [32]byte(b)
}

func mailTypedData(chainID int64) apitypes.TypedData {
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"},
				{Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"},
				{Name: "verifyingContract", Type: "address"},
			},
			"Person": {{Name: "name", Type: "string"}, {Name: "wallet", Type: "address"}},
			"Mail": {
				{Name: "from", Type: "Person"},
				{Name: "to", Type: "Person"},
				{Name: "contents", Type: "string"},
			},
		},
		PrimaryType: "Mail",
		Domain: apitypes.TypedDataDomain{
			Name:              "Ether Mail",
			Version:           "1",
			ChainId:           (*math.HexOrDecimal256)(big.NewInt(chainID)),
			VerifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
		},
		Message: apitypes.TypedDataMessage{
			"from":     map[string]any{"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
			"to":       map[string]any{"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
			"contents": "Hello, Bob!",
		},
	}
}

func mailDigest(t *testing.T, td apitypes.TypedData) (ds, sh, digest [32]byte) {
	t.Helper()
	d, err := td.HashStruct("EIP712Domain", td.Domain.Map())
	if err != nil {
		t.Fatal(err)
	}
	s, err := td.HashStruct(td.PrimaryType, td.Message)
	if err != nil {
		t.Fatal(err)
	}
	ds, sh = [32]byte(d), [32]byte(s)
	return ds, sh, ethsig.TypedDataDigest(ds, sh)
}

func TestMailVector(t *testing.T) {
	v := mailVector(t)
	td := mailTypedData(1)

	if got := string(td.EncodeType("Mail")); got != v["encodeType"] {
		t.Errorf("encodeType = %q, want %q", got, v["encodeType"])
	}
	if got := common.Hash(td.TypeHash("Mail")); got != common.Hash(mustHash(t, v["typeHash"])) {
		t.Errorf("typeHash = %s, want %s", got, v["typeHash"])
	}
	ds, sh, digest := mailDigest(t, td)
	if ds != mustHash(t, v["domainSeparator"]) {
		t.Errorf("domainSeparator = %x, want %s", ds, v["domainSeparator"])
	}
	if sh != mustHash(t, v["hashStruct"]) {
		t.Errorf("hashStruct = %x, want %s", sh, v["hashStruct"])
	}
	if digest != mustHash(t, v["digest"]) {
		t.Errorf("digest = %x, want %s", digest, v["digest"])
	}
	want, _, err := apitypes.TypedDataAndHash(td)
	if err != nil || [32]byte(want) != digest {
		t.Errorf("apitypes digest %x (%v) differs from TypedDataDigest %x", want, err, digest)
	}

	signer := common.HexToAddress(v["signer"])
	sig := mustHex(t, v["signature"])
	got, err := ethsig.Recover(digest, sig)
	if err != nil || got != signer {
		t.Fatalf("Recover = %s, %v; want %s", got.Hex(), err, signer.Hex())
	}
	sig01 := append([]byte(nil), sig...)
	sig01[64] -= 27
	if got, err := ethsig.Recover(digest, sig01); err != nil || got != signer {
		t.Errorf("Recover(v 0/1) = %s, %v; want %s", got.Hex(), err, signer.Hex())
	}
	if sig01[64] != 1 || sig[64] != 28 {
		t.Errorf("Recover modified its input")
	}

	twin := mustHex(t, rawLine(t, "high-s twin signature "))
	if _, err := ethsig.Recover(digest, twin); !errors.Is(err, ethsig.ErrHighS) {
		t.Errorf("high-s twin: err = %v, want ErrHighS", err)
	}

	_, _, digest5 := mailDigest(t, mailTypedData(5))
	other := common.HexToAddress(rawLine(t, "same signature under chainId=5 recovers a different address: "))
	if got, err := ethsig.Recover(digest5, sig); err != nil || got != other || got == signer {
		t.Errorf("chainId 5: Recover = %s, %v; want %s", got.Hex(), err, other.Hex())
	}
	if err := ethsig.Verify(digest5, sig, signer); err == nil {
		t.Errorf("chainId 5: signature verifies for the chainId 1 signer")
	}
}

// The private key of the Mail vector is keccak256("cow"); signing again must give the
// same (RFC 6979 deterministic) signature.
func TestSignMailVector(t *testing.T) {
	v := mailVector(t)
	key := mustKey(t, v["privateKey"])
	sig, err := ethsig.Sign(key, mustHash(t, v["digest"]))
	if err != nil {
		t.Fatal(err)
	}
	if got := "0x" + hex.EncodeToString(sig); got != v["signature"] {
		t.Errorf("Sign = %s, want %s", got, v["signature"])
	}
	if ethsig.Address(key) != common.HexToAddress(v["signer"]) {
		t.Errorf("Address = %s", ethsig.Address(key).Hex())
	}
}
