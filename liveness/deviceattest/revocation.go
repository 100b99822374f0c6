package deviceattest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
)

// RevocationStatus answers whether a certificate serial number is on a revocation
// status list. Embedders that refresh Google's list periodically implement it over
// whatever they refresh; RevocationList is the static implementation.
type RevocationStatus interface {
	// Lookup returns the listed status (e.g. "REVOKED", "SUSPENDED") and true if
	// serial is listed.
	Lookup(serial *big.Int) (status string, listed bool)
}

// RevocationList maps lowercase hexadecimal serial numbers without leading zeros (as
// big.Int.Text(16) prints them) to their status. Any listed serial is refused.
type RevocationList map[string]string

// Lookup implements RevocationStatus.
func (l RevocationList) Lookup(serial *big.Int) (string, bool) {
	if serial == nil {
		return "", false
	}
	s, ok := l[serial.Text(16)]
	return s, ok
}

// ParseRevocationList reads Google's attestation status format,
// {"entries": {"<hex serial>": {"status": "REVOKED", "reason": ...}, ...}}, as served
// at https://android.googleapis.com/attestation/status. Serials are normalised to
// lowercase without leading zeros.
func ParseRevocationList(data []byte) (RevocationList, error) {
	var doc struct {
		Entries map[string]struct {
			Status string `json:"status"`
		} `json:"entries"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("deviceattest: revocation list: %w", err)
	}
	if doc.Entries == nil {
		return nil, fmt.Errorf("deviceattest: revocation list has no \"entries\" object")
	}
	l := make(RevocationList, len(doc.Entries))
	for k, e := range doc.Entries {
		n, ok := new(big.Int).SetString(strings.TrimSpace(k), 16)
		if !ok || n.Sign() < 0 {
			return nil, fmt.Errorf("deviceattest: revocation list: serial %q is not hexadecimal", k)
		}
		status := e.Status
		if status == "" {
			status = "REVOKED"
		}
		l[n.Text(16)] = status
	}
	return l, nil
}
