package webhook

import (
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/veriland/veriland"
)

// FuzzVerify feeds arbitrary header values and bodies to Verify: it must never panic,
// must fail only with its named reasons, and must accept only what Sign would produce.
func FuzzVerify(f *testing.F) {
	v, s, ts := loadVector(f)
	f.Add(v.ID, v.Timestamp, v.ExpectedSignature, []byte(v.Payload))
	f.Add(v.ID, v.Timestamp, v.ExpectedSignature+" v1,"+v.ExpectedSignature, []byte(v.Payload))
	f.Add("", "", "", []byte(nil))
	f.Add("msg", "-1", "v1,", []byte("{}"))
	f.Add("msg", "1614265330", "v1,,,, v2 v1,!!!!", []byte("{}"))
	f.Add("msg", "00000000001614265330", "v1a,abc", []byte("\x00\xff"))
	secrets := []Secret{s}
	f.Fuzz(func(t *testing.T, id, timestamp, signature string, body []byte) {
		h := http.Header{}
		h.Set(HeaderID, id)
		h.Set(HeaderTimestamp, timestamp)
		h.Set(HeaderSignature, signature)
		err := Verify(h, body, secrets, ts)
		if err == nil {
			// Only a correct signature of exactly these bytes may pass.
			want := "v1," + base64.StdEncoding.EncodeToString(mac(s, id, timestamp, body))
			if !slices.Contains(strings.Fields(signature), want) {
				t.Fatalf("accepted id=%q ts=%q sig=%q body=%q", id, timestamp, signature, body)
			}
			return
		}
		if !veriland.IsCode(err, veriland.CodeInvalidWebhookSig) {
			t.Fatalf("error %v lacks code %s", err, veriland.CodeInvalidWebhookSig)
		}
		for _, reason := range []error{ErrMissingHeaders, ErrInvalidHeader, ErrStaleTimestamp, ErrFutureTimestamp, ErrNoMatchingSignature} {
			if errors.Is(err, reason) {
				return
			}
		}
		t.Fatalf("error %v has no named reason", err)
	})
}
