package audit

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/veriland/veriland"
)

// MaxDetailBytes bounds the JSON encoding of an entry's Detail: audit detail is a few
// identifiers and counters, never a document.
const MaxDetailBytes = 4096

// forbiddenDetailKeys are member names that announce a secret or personal data. Keys
// are compared lower-cased with '_', '-' and '.' removed, at every depth of Detail.
var forbiddenDetailKeys = map[string]bool{
	// secrets
	"password": true, "passphrase": true, "secret": true, "clientsecret": true,
	"token": true, "accesstoken": true, "refreshtoken": true, "idtoken": true,
	"bearer": true, "jwt": true, "apikey": true, "privatekey": true, "seed": true,
	"mnemonic": true, "authorization": true, "cookie": true, "otp": true, "pin": true,
	"nonce": true, "webhooksecret": true, "signingkey": true,
	// personal data
	"email": true, "phone": true, "phonenumber": true, "firstname": true,
	"lastname": true, "fullname": true, "surname": true, "dob": true,
	"dateofbirth": true, "birthdate": true, "nin": true, "bvn": true, "ssn": true,
	"passportnumber": true, "documentnumber": true, "mrz": true, "face": true,
	"faceimage": true, "selfie": true, "photo": true, "image": true, "biometric": true,
	"biometrics": true, "fingerprint": true, "homeaddress": true, "postaladdress": true,
	"ip": true, "ipaddress": true, "clientip": true, "useragent": true,
}

// jwtPattern matches a JWT or JWS in compact form, the credential most likely to slip
// into detail by accident. (A 0x-prefixed 32-byte hex string is not refused: it is far
// more often an attestation UID, a digest or a transaction hash than a private key.)
var jwtPattern = regexp.MustCompile(`^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$`)

// CheckDetail reports whether detail is fit for the audit log: at most MaxDetailBytes
// of JSON, no member whose name announces a secret or personal data (password, token,
// apiKey, privateKey, email, phone, dateOfBirth, documentNumber, selfie, ip, …), and
// no string value that looks like a credential (a JWT or a PEM block). It is a guard against accidents, not a proof: callers remain
// responsible for writing only identifiers, counts and codes. It returns a
// validation_failed *veriland.Error pointing at the offending member.
func CheckDetail(detail map[string]any) error {
	if len(detail) == 0 {
		return nil
	}
	raw, err := json.Marshal(detail)
	if err != nil {
		return veriland.Invalid("/detail", "detail is not JSON-encodable").WithCause(err)
	}
	if len(raw) > MaxDetailBytes {
		return veriland.Invalid("/detail", "detail is %d bytes; at most %d", len(raw), MaxDetailBytes)
	}
	// A detail of plain values is its own decoded form: walk it as it is.
	if plain, err := checkPlain("/detail", detail); plain {
		return err
	}
	// Otherwise walk the decoded form, so that structs and typed maps are checked
	// like maps. A decoded value is plain (encoding/json writes strings in valid
	// UTF-8, and decodes into maps, lists, strings, float64, booleans and nil).
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return veriland.Invalid("/detail", "detail is not JSON-encodable").WithCause(err)
	}
	_, err = checkPlain("/detail", v)
	return err
}

// checkString refuses a string value that looks like a credential.
func checkString(pointer, s string) error {
	if jwtPattern.MatchString(s) || strings.Contains(s, "-----BEGIN") {
		return veriland.Invalid(pointer, "detail value looks like a credential")
	}
	return nil
}

// checkPlain walks a value that decodes from its JSON encoding as itself: strings
// and member names in valid UTF-8, booleans, nil, numbers (which are not checked),
// and lists and maps of those. It refuses a member name that announces a secret or
// personal data and a string that looks like a credential. plain is false, and
// nothing decided, at any other value.
func checkPlain(pointer string, v any) (plain bool, err error) {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if !utf8.ValidString(k) {
				return false, nil
			}
			p := pointer + "/" + escapePointer(k)
			if forbiddenDetailKeys[normalizeKey(k)] {
				return true, veriland.Invalid(p, "detail member %q may hold a secret or personal data", k)
			}
			if plain, err := checkPlain(p, child); !plain || err != nil {
				return plain, err
			}
		}
	case []any:
		for i, child := range v {
			if plain, err := checkPlain(fmt.Sprintf("%s/%d", pointer, i), child); !plain || err != nil {
				return plain, err
			}
		}
	case []string:
		for i, child := range v {
			if plain, err := checkPlain(fmt.Sprintf("%s/%d", pointer, i), child); !plain || err != nil {
				return plain, err
			}
		}
	case string:
		if !utf8.ValidString(v) {
			return false, nil
		}
		return true, checkString(pointer, v)
	case nil, bool, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
	default:
		return false, nil
	}
	return true, nil
}

// Replacers are safe for concurrent use and never change once built.
var (
	keySeparators  = strings.NewReplacer("_", "", "-", "", ".", "")
	pointerEscapes = strings.NewReplacer("~", "~0", "/", "~1")
)

func normalizeKey(k string) string {
	return keySeparators.Replace(strings.ToLower(k))
}

// escapePointer escapes a member name for a JSON pointer (RFC 6901).
func escapePointer(k string) string {
	return pointerEscapes.Replace(k)
}
