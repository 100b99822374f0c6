package httpserver

import (
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
)

// sameConsentEvent decides whether a prepared audit entry and webhook still stand for
// the event a decision's transaction made: any member they hold that differs sends
// the event through consentEvent instead.
func TestSameConsentEvent(t *testing.T) {
	at := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	block := uint64(7)
	base := func() consent.Event {
		return consent.Event{
			Env: veriland.Sandbox, Type: consent.EventApproved, Actor: "did:veriland:abc", At: at,
			Request: &consent.Request{ID: "vrq_1", Status: consent.StatusApproved, Verifier: "acme",
				Account: "acct_1", CallbackURL: "https://acme.example/hooks", DecidedAt: &at},
			Attestation: &attestation.Attestation{ID: "att_1", Kind: attestation.KindConsent,
				Anchor: attestation.AnchorState{Status: attestation.AnchorDisabled}},
		}
	}
	tests := []struct {
		name   string
		change func(*consent.Event)
		same   bool
	}{
		{"identical", func(*consent.Event) {}, true},
		{"an equal copy of the attestation", func(e *consent.Event) { a := *e.Attestation; e.Attestation = &a }, true},
		{"another time: not in the records", func(e *consent.Event) { e.At = at.Add(time.Second) }, true},
		{"env", func(e *consent.Event) { e.Env = veriland.Production }, false},
		{"type", func(e *consent.Event) { e.Type = consent.EventRejected }, false},
		{"actor", func(e *consent.Event) { e.Actor = "system" }, false},
		{"request id", func(e *consent.Event) { e.Request.ID = "vrq_2" }, false},
		{"status", func(e *consent.Event) { e.Request.Status = consent.StatusExpired }, false},
		{"verifier", func(e *consent.Event) { e.Request.Verifier = "other" }, false},
		{"account", func(e *consent.Event) { e.Request.Account = "acct_2" }, false},
		{"callback", func(e *consent.Event) { e.Request.CallbackURL = "" }, false},
		{"no request", func(e *consent.Event) { e.Request = nil }, false},
		{"no attestation", func(e *consent.Event) { e.Attestation = nil }, false},
		{"attestation id", func(e *consent.Event) { a := *e.Attestation; a.ID = "att_2"; e.Attestation = &a }, false},
		{"anchor status", func(e *consent.Event) {
			a := *e.Attestation
			a.Anchor.Status = attestation.AnchorPending
			e.Attestation = &a
		}, false},
		{"anchor block", func(e *consent.Event) {
			a := *e.Attestation
			a.Anchor.BlockNumber = &block
			e.Attestation = &a
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := base()
			tt.change(&got)
			if same := sameConsentEvent(base(), got); same != tt.same {
				t.Fatalf("sameConsentEvent = %v, want %v", same, tt.same)
			}
		})
	}
	rejected := func() consent.Event { e := base(); e.Type, e.Attestation = consent.EventRejected, nil; return e }
	if !sameConsentEvent(rejected(), rejected()) {
		t.Fatal("two rejections without attestations differ")
	}
}
