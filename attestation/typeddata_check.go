package attestation

import (
	"encoding/hex"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
)

// checkTypedData checks that att.TypedData, when present, is exactly the message m
// under the attestation domain of chainID. It accepts the value forms apitypes and
// JSON produce (float64, json.Number, decimal or hex strings, *big.Int for integers;
// []string or []any for the scope) and nothing looser.
func checkTypedData(att *Attestation, m *Message, chainID uint64) error {
	td := &att.TypedData
	if td.PrimaryType == "" && td.Message == nil && td.Types == nil {
		return nil // absent: the fields alone are what is signed
	}
	if v, ok := td.Message["claimsHash"]; ok && !bytes32Equal(v, m.ClaimsHash) {
		return fail(veriland.CodeInvalidSignature, ErrClaimsMismatch, "claims do not hash to typedData.message.claimsHash")
	}
	mismatch := func(what string) error {
		return fail(veriland.CodeInvalidSignature, ErrTypedDataMismatch, "typedData %s does not match the attestation", what)
	}
	d := Domain(chainID)
	// Objects made by ethers leave the EIP712Domain type out (it follows from the
	// domain); when present it must be the one the domain is hashed with.
	domainType, hasDomainType := td.Types["EIP712Domain"]
	wantTypes := 1
	if hasDomainType {
		wantTypes = 2
	}
	if td.PrimaryType != PrimaryType || len(td.Types) != wantTypes ||
		(hasDomainType && !fieldsEqual(domainType, domainFields)) || !fieldsEqual(td.Types[PrimaryType], attestationFields) {
		return mismatch("types")
	}
	if td.Domain.Name != d.Name || td.Domain.Version != d.Version || td.Domain.VerifyingContract != "" ||
		td.Domain.Salt != "" || !uintEqual(td.Domain.ChainId, chainID) {
		return mismatch("domain")
	}
	msg := td.Message
	switch {
	case len(msg) != 9:
		return mismatch("message")
	case !stringEqual(msg["id"], m.ID), !stringEqual(msg["kind"], m.Kind),
		!stringEqual(msg["subject"], m.Subject), !stringEqual(msg["verifier"], m.Verifier):
		return mismatch("message")
	case !stringsEqual(msg["scope"], m.Scope):
		return mismatch("message.scope")
	case !bytes32Equal(msg["evidenceHash"], m.EvidenceHash):
		return mismatch("message.evidenceHash")
	case !uintEqual(msg["issuedAt"], m.IssuedAt), !uintEqual(msg["expiresAt"], m.ExpiresAt):
		return mismatch("message times")
	}
	return nil
}

// The member lists checkTypedData compares with, built once: Fields and
// ethsig.DomainFields return fresh slices for callers that may modify them.
var (
	attestationFields = Fields()
	domainFields      = ethsig.DomainFields()
)

func fieldsEqual(a, b []apitypes.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func stringEqual(v any, want string) bool {
	s, ok := v.(string)
	return ok && s == want
}

func stringsEqual(v any, want []string) bool {
	switch l := v.(type) {
	case []string:
		if len(l) != len(want) {
			return false
		}
		for i := range l {
			if l[i] != want[i] {
				return false
			}
		}
		return true
	case []any:
		if len(l) != len(want) {
			return false
		}
		for i := range l {
			if !stringEqual(l[i], want[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func bytes32Equal(v any, want [32]byte) bool {
	switch x := v.(type) {
	case string:
		var b [32]byte
		if len(x) != 66 || (x[:2] != "0x" && x[:2] != "0X") {
			return false
		}
		_, err := hex.Decode(b[:], []byte(x[2:]))
		return err == nil && b == want
	case [32]byte:
		return x == want
	case hexutil.Bytes:
		return len(x) == 32 && [32]byte(x) == want
	case []byte:
		return len(x) == 32 && [32]byte(x) == want
	}
	return false
}

func uintEqual(v any, want uint64) bool {
	switch x := v.(type) {
	case float64:
		// JSON numbers above 2^53 are not exact as float64: refuse them.
		return x >= 0 && x <= 1<<53 && uint64(x) == want && float64(want) == x
	case json.Number:
		return parseUintEqual(string(x), want)
	case string:
		return parseUintEqual(x, want)
	case *big.Int:
		return x != nil && x.IsUint64() && x.Uint64() == want
	case *math.HexOrDecimal256:
		return x != nil && (*big.Int)(x).IsUint64() && (*big.Int)(x).Uint64() == want
	case uint64:
		return x == want
	}
	return false
}

func parseUintEqual(s string, want uint64) bool {
	var n uint64
	var err error
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		n, err = strconv.ParseUint(h, 16, 64)
	} else {
		n, err = strconv.ParseUint(s, 10, 64)
	}
	return err == nil && n == want
}
