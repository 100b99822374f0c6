package audit

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

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
	// Walk the decoded form so that structs and typed maps are checked like maps.
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return veriland.Invalid("/detail", "detail is not JSON-encodable").WithCause(err)
	}
	return checkValue("/detail", v)
}

func checkValue(pointer string, v any) error {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			p := pointer + "/" + escapePointer(k)
			if forbiddenDetailKeys[normalizeKey(k)] {
				return veriland.Invalid(p, "detail member %q may hold a secret or personal data", k)
			}
			if err := checkValue(p, child); err != nil {
				return err
			}
		}
	case []any:
		for i, child := range v {
			if err := checkValue(fmt.Sprintf("%s/%d", pointer, i), child); err != nil {
				return err
			}
		}
	case string:
		if jwtPattern.MatchString(v) || strings.Contains(v, "-----BEGIN") {
			return veriland.Invalid(pointer, "detail value looks like a credential")
		}
	}
	return nil
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
