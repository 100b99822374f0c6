package httpserver

import (
	"net/http"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

// maxTokenIDLen is the number of decimal digits of the largest uint256.
const maxTokenIDLen = 78

// tokenMetadata answers GET /v1/tokens/{tokenId} (public): the soulbound token's
// ERC-721 metadata JSON as is (not JSON:API: wallets and explorers read it
// unwrapped), without personal data.
func (s *Server) tokenMetadata(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("tokenId")
	if !decimalID(id) {
		return invalidParam("tokenId", "tokenId must be a uint256 as a decimal string")
	}
	t, _, err := findInEnvs(s, r, func(env veriland.Environment) (*parcel.Token, error) {
		return s.cfg.Parcels.Token(r.Context(), env, id)
	})
	if err != nil {
		return err
	}
	s.writeJSONAs(w, http.StatusOK, mediaJSON, t.Metadata())
	return nil
}

func decimalID(s string) bool {
	if s == "" || len(s) > maxTokenIDLen || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
