package assistant_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
)

// FuzzMessageBody feeds arbitrary POST /v1/assistant/messages bodies through decoding,
// validation, detection, routing, the tools and storage: a body is either refused
// with a validation error or answered in a supported language, never an internal
// error or a panic.
func FuzzMessageBody(f *testing.F) {
	for _, seed := range []string{
		`{"text":"What is the status of prc_abcdefghijklmnopqrstuvwxyz?"}`,
		`{"text":"Le certificat 0x` + strings.Repeat("ab", 32) + ` est-il authentique ?","language":"fr"}`,
		`{"text":"كيف يمكنني نقل ملكية أرضي؟"}`,
		`{"text":"Wie ist der Status der Verifizierungsanfrage vrq_abcdefghijklmnopqrstuvwxyz?"}`,
		`{"text":"att_abcdefghijklmnopqrstuvwxyz","language":"pt-BR"}`,
		`{"text":"help","language":"ja"}`,
		`{"text":"prc_ vrq_ att_ 0x prc_AAAA prc_` + strings.Repeat("z", 70) + `"}`,
		`{"text":""}`, `{"text":"   "}`, `{"text":"\u0000\uffff"}`, `{"text":"a","sessionId":"ses_x"}`,
		`{"text":"` + strings.Repeat("é", 4001) + `"}`, `{"text":42}`, `[]`, `null`, `{"text":"\ud800"}`,
	} {
		f.Add([]byte(seed))
	}
	w := newWorld(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var req assistant.MessageRequest
		if json.Unmarshal(body, &req) != nil {
			return
		}
		reply, err := w.svc.Send(t.Context(), agency, req)
		if err != nil {
			var ve *veriland.Error
			var list veriland.Errors
			switch {
			case errors.As(err, &list):
			case errors.As(err, &ve) && (ve.Code == veriland.CodeValidationFailed || ve.Code == veriland.CodeNotFound):
			default:
				t.Fatalf("body %q: %v", body, err)
			}
			return
		}
		if !slices.Contains(assistant.Languages, reply.Language) || reply.Text == "" || reply.Intent == "" {
			t.Fatalf("body %q: reply %+v", body, reply)
		}
	})
}

// FuzzRoute checks the router and the detector on any text: entities have the shapes
// they claim, and the same text always routes the same way.
func FuzzRoute(f *testing.F) {
	for _, seed := range []string{"what is the status of my parcel", "PRC_ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0x" + strings.Repeat("F", 64),
		"l'attestation att_abc est-elle valide ?", "ما حالة قطعة الأرض", "Übertragung", "\u0301\u0301", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		i1, e1 := assistant.Route(text)
		i2, e2 := assistant.Route(text)
		if i1 != i2 || !slices.Equal(e1.Parcels, e2.Parcels) || !slices.Equal(e1.Hashes, e2.Hashes) {
			t.Fatalf("%q routes two ways", text)
		}
		for _, h := range e1.Hashes {
			if len(h) != 66 || !strings.HasPrefix(h, "0x") || strings.ToLower(h) != h {
				t.Fatalf("%q: hash %q", text, h)
			}
		}
		for _, id := range append(append(e1.Parcels, e1.Requests...), e1.Attestations...) {
			if strings.ToLower(id) != id || id[3] != '_' {
				t.Fatalf("%q: id %q", text, id)
			}
		}
		if d := assistant.DetectLanguage(text); d.Language == "" {
			t.Fatalf("%q: empty language", text)
		}
	})
}
