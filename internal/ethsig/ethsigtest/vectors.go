package ethsigtest

import (
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/ethsig"
)

// File is the shape of veriland_typed_data.json.
type File struct {
	Generator  string   `json:"generator"`
	PrivateKey string   `json:"privateKey"`
	Signer     string   `json:"signer"`
	Vectors    []Vector `json:"vectors"`
}

// Vector is one signed typed-data object with every intermediate value.
type Vector struct {
	Name string `json:"name"`
	apitypes.TypedData
	StructHash      common.Hash     `json:"structHash"`
	DomainSeparator common.Hash     `json:"domainSeparator"`
	Digest          common.Hash     `json:"digest"`
	Signature       hexutil.Bytes   `json:"signature"`
	SignatureV01    hexutil.Bytes   `json:"signatureV01"`
	HighSTwin       hexutil.Bytes   `json:"highSTwin"`
	Signer          common.Address  `json:"signer"`
	WrongChain5     common.Address  `json:"wrongChainId5RecoversTo"`
	DisclosedScope  []string        `json:"disclosedScope"`
	EmptyScopeHash  common.Hash     `json:"emptyScopeHash"`
	Claims          json.RawMessage `json:"claims"`
	ClaimsJCS       string          `json:"claimsJCS"`
}

// Load reads the vectors of primaryType from path.
func Load(t testing.TB, path, primaryType string) []Vector {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var out []Vector
	for _, v := range f.Vectors {
		if v.PrimaryType == primaryType {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s vectors in %s", primaryType, path)
	}
	return out
}

// ChainID returns the vector's domain chainId.
func (v *Vector) ChainID() uint64 { return (*hexutil.Big)(v.Domain.ChainId).ToInt().Uint64() }

// Check compares a hand-written encoder's values with the vector and with apitypes:
// ours is the apitypes object the encoder produced, domainSeparator, structHash and
// digest its hand-written hashes, and digestChain5 its digest of the same message under
// chainId 5. It then checks the vector's signatures against digest.
func Check(t *testing.T, v Vector, ours apitypes.TypedData, domainSeparator, structHash, digest, digestChain5 [32]byte) {
	t.Helper()
	if domainSeparator != v.DomainSeparator {
		t.Errorf("domainSeparator = %x, want %s", domainSeparator, v.DomainSeparator)
	}
	if structHash != v.StructHash {
		t.Errorf("structHash = %x, want %s", structHash, v.StructHash)
	}
	if digest != v.Digest {
		t.Errorf("digest = %x, want %s", digest, v.Digest)
	}
	// The vector's own object, hashed by apitypes, agrees with ethers…
	theirs := v.TypedData
	theirs.Types["EIP712Domain"] = ethsig.DomainFields()
	if d, _, _, err := ethsig.APIDigest(theirs); err != nil || d != v.Digest {
		t.Errorf("apitypes on the vector's object = %x, %v; want %s", d, err, v.Digest)
	}
	// …and so does the object our encoder hands to clients, before and after JSON.
	if d, ds, sh, err := ethsig.APIDigest(ours); err != nil || d != digest || ds != domainSeparator || sh != structHash {
		t.Errorf("apitypes on our object = %x, %v; want %x", d, err, digest)
	}
	b, err := json.Marshal(ours)
	if err != nil {
		t.Fatal(err)
	}
	var decoded apitypes.TypedData
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	if d, _, _, err := ethsig.APIDigest(decoded); err != nil || d != digest {
		t.Errorf("apitypes on our object after JSON = %x, %v; want %x (%s)", d, err, digest, b)
	}

	CheckSignatures(t, v, digest, digestChain5)
}

// CheckSignatures checks that the vector's signature verifies with v 27/28 and v 0/1,
// that its high-s twin is refused, and that under chainId 5 it recovers another
// address.
func CheckSignatures(t *testing.T, v Vector, digest, digestChain5 [32]byte) {
	t.Helper()
	for name, sig := range map[string][]byte{"v 27/28": v.Signature, "v 0/1": v.SignatureV01} {
		if got, err := ethsig.Recover(digest, sig); err != nil || got != v.Signer {
			t.Errorf("%s: Recover = %s, %v; want %s", name, got.Hex(), err, v.Signer.Hex())
		}
	}
	if _, err := ethsig.Recover(digest, v.HighSTwin); !errors.Is(err, ethsig.ErrHighS) {
		t.Errorf("high-s twin: err = %v, want ErrHighS", err)
	}
	got, err := ethsig.Recover(digestChain5, v.Signature)
	if err != nil || got != v.WrongChain5 || got == v.Signer {
		t.Errorf("chainId 5: Recover = %s, %v; want %s", got.Hex(), err, v.WrongChain5.Hex())
	}
	if ethsig.Verify(digestChain5, v.Signature, v.Signer) == nil {
		t.Errorf("chainId 5: the signature verifies")
	}
}
