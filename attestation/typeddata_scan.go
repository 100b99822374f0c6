package attestation

import (
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/jsonscan"
)

// typedData reads an EIP-712 object into the zero td, as encoding/json fills an
// apitypes.TypedData.
func (s *wireScanner) typedData(td *TypedData) bool {
	s.Scanner = jsonscan.New(s.b)
	var seen [4]bool
	return s.Object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "types":
			if seen[0] {
				return false
			}
			seen[0] = true
			td.Types, ok = s.types()
		case "primaryType":
			if seen[1] {
				return false
			}
			seen[1] = true
			td.PrimaryType, ok = s.word()
		case "domain":
			if seen[2] {
				return false
			}
			seen[2] = true
			ok = s.domain(&td.Domain)
		case "message":
			if seen[3] {
				return false
			}
			seen[3] = true
			m := make(apitypes.TypedDataMessage, 9)
			ok = s.Object(func(key []byte) bool {
				v, ok := s.any(1)
				m[vocabulary(key)] = v
				return ok
			})
			td.Message = m
		}
		return ok
	})
}

func (s *wireScanner) types() (apitypes.Types, bool) {
	types := make(apitypes.Types, 2)
	ok := s.Object(func(key []byte) bool {
		fields := make([]apitypes.Type, 0, 9)
		ok := s.Array(func() bool {
			var f apitypes.Type
			var seenName, seenType bool
			ok := s.Object(func(key []byte) bool {
				var ok bool
				switch string(key) {
				case "name":
					if seenName {
						return false
					}
					seenName = true
					f.Name, ok = s.word()
				case "type":
					if seenType {
						return false
					}
					seenType = true
					f.Type, ok = s.word()
				}
				return ok
			})
			fields = append(fields, f)
			return ok
		})
		types[vocabulary(key)] = fields
		return ok
	})
	return types, ok
}

func (s *wireScanner) domain(d *apitypes.TypedDataDomain) bool {
	var seen [5]bool
	return s.Object(func(key []byte) bool {
		var ok bool
		var n int
		switch string(key) {
		case "name":
			d.Name, ok = s.word()
		case "version":
			n = 1
			d.Version, ok = s.word()
		case "chainId":
			n = 2
			var raw []byte
			if raw, ok = s.RawValue(maxWireDepth); ok && string(raw) != "null" {
				d.ChainId = new(math.HexOrDecimal256)
				ok = d.ChainId.UnmarshalJSON(raw) == nil
			}
		case "verifyingContract":
			n = 3
			d.VerifyingContract, ok = s.str()
		case "salt":
			n = 4
			d.Salt, ok = s.str()
		}
		if !ok || seen[n] {
			return false
		}
		seen[n] = true
		return true
	})
}
