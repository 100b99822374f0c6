package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/httpserver/webhook"
)

// The verdicts of TestReplicas, on made-up outcomes: each check must be able to fail.

func TestRateProbeBounds(t *testing.T) {
	wallet := ratelimit.WalletPolicy() // 120/min (one per 500 ms), burst 30
	probe := func(allowed, throttled int, elapsed time.Duration, other ...string) *rateProbe {
		return &rateProbe{policy: wallet, route: "GET /x", sent: allowed + throttled, allowed: allowed, throttled: throttled,
			elapsed: elapsed, ceiling: wallet.Burst + int(elapsed/(500*time.Millisecond)) + 1, other: other}
	}
	tests := []struct {
		name string
		p    *rateProbe
		ok   bool
	}{
		{"exactly the burst", probe(30, 70, 300*time.Millisecond), true},
		{"burst and what 2 s refill", probe(35, 65, 2*time.Second), true},
		{"three replicas' allowances", probe(90, 10, 300*time.Millisecond), false},
		{"less than the burst", probe(29, 71, 300*time.Millisecond), false},
		{"nothing throttled", probe(30, 0, 300*time.Millisecond), false},
		{"an error answer", probe(30, 69, 300*time.Millisecond, "500 from limited-1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.bounds()
			require.Equal(t, tt.ok, err == nil, "%v", err)
		})
	}
}

func TestCheckWebhooks(t *testing.T) {
	sec := "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	secret, err := webhook.ParseSecret(sec)
	require.NoError(t, err)
	now := time.Now()
	delivery := func(id, request, status string, attempts int) deliveryView {
		payload, _ := json.Marshal(map[string]any{"type": "verification.approved", "data": map[string]any{"requestId": request}})
		return deliveryView{ID: id, EventType: "verification.approved", Status: status, Payload: payload,
			Attempts: make([]webhook.DeliveryAttempt, attempts)}
	}
	received := func(id, request string, signed bool) hook {
		body, _ := json.Marshal(map[string]any{"type": "verification.approved", "data": map[string]any{"requestId": request}})
		h := http.Header{}
		if signed {
			webhook.SetHeaders(h, []webhook.Secret{secret}, id, now, body)
		} else {
			h.Set(webhook.HeaderID, id)
		}
		return hook{client: 0, id: id, header: h, body: body, at: now}
	}
	views := func(ds ...deliveryView) map[string]deliveryView {
		out := map[string]deliveryView{}
		for _, d := range ds {
			out[d.ID] = d
		}
		return out
	}
	tests := []struct {
		name      string
		committed []string
		ds        map[string]deliveryView
		hooks     []hook
		ok        bool
		held      int
		killedAt  time.Time
	}{
		{"each once", []string{"r1", "r2"}, views(delivery("m1", "r1", "SUCCEEDED", 1), delivery("m2", "r2", "SUCCEEDED", 1)),
			[]hook{received("m1", "r1", true), received("m2", "r2", true)}, true, 0, time.Time{}},
		{"a documented retry", []string{"r1"}, views(delivery("m1", "r1", "SUCCEEDED", 2)),
			[]hook{received("m1", "r1", true), received("m1", "r1", true)}, true, 0, time.Time{}},
		{"held by the killed replica", []string{"r1"}, views(delivery("m1", "r1", "PENDING", 0)), nil, true, 1, time.Time{}},
		{"twice with one attempt recorded", []string{"r1"}, views(delivery("m1", "r1", "SUCCEEDED", 1)),
			[]hook{received("m1", "r1", true), received("m1", "r1", true)}, false, 0, time.Time{}},
		{"an approval without a delivery", []string{"r1"}, views(), nil, false, 0, time.Time{}},
		{"succeeded but never received", []string{"r1"}, views(delivery("m1", "r1", "SUCCEEDED", 1)), nil, false, 0, time.Time{}},
		{"a bad signature", []string{"r1"}, views(delivery("m1", "r1", "SUCCEEDED", 1)), []hook{received("m1", "r1", false)}, false, 0, time.Time{}},
		{"more held than a replica's workers", []string{"r1", "r2", "r3", "r4", "r5"}, views(
			delivery("m1", "r1", "PENDING", 0), delivery("m2", "r2", "PENDING", 0), delivery("m3", "r3", "PENDING", 0),
			delivery("m4", "r4", "PENDING", 0), delivery("m5", "r5", "PENDING", 0)), nil, false, 5, time.Time{}},
		{"received before the kill, unrecorded, retried after the lease", []string{"r1"}, views(delivery("m1", "r1", "SUCCEEDED", 1)),
			[]hook{received("m1", "r1", true), received("m1", "r1", true)}, true, 0, now},
		{"received before the kill, unrecorded, lease not over", []string{"r1"}, views(delivery("m1", "r1", "PENDING", 0)),
			[]hook{received("m1", "r1", true)}, true, 0, now},
		{"unrecorded long after the kill", []string{"r1"}, views(delivery("m1", "r1", "PENDING", 0)),
			[]hook{received("m1", "r1", true)}, false, 0, now.Add(-time.Minute)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			committed := map[string]int{}
			for _, r := range tt.committed {
				committed[r] = 0
			}
			h := checkWebhooks(committed, map[int]string{0: sec}, tt.ds, tt.hooks, tt.killedAt)
			require.Equal(t, tt.ok, len(h.unexplained) == 0, "%v", h.unexplained)
			require.Equal(t, tt.held, h.held)
		})
	}
}

func TestCountOutcomes(t *testing.T) {
	records := []record{
		{kind: kindApproval, id: "r1", acked: true},
		{kind: kindApproval, id: "r2", unknown: true},
		{kind: kindReplay, id: "p1", name: "a", acked: true},
		{kind: kindReplay, id: "p1", name: "a", acked: true},
		{kind: kindReplay, name: "b", unknown: true},
		{kind: kindReplay, id: "p2", name: "b", acked: true},
		{kind: kindReplay, name: "c", unknown: true},
		{kind: kindReplay, name: "c", unknown: true},
	}
	f := newFindings()
	countOutcomes(records, f)
	require.Equal(t, map[string]int{kindApproval: 1, kindReplay: 2}, f.acked, "one replay pair is one creation")
	require.Equal(t, map[string]int{kindApproval: 1, kindReplay: 1}, f.unknown, "a pair acknowledged on either side is not unknown")
}

func TestNeverSent(t *testing.T) {
	_, err := http.Get("http://127.0.0.1:1/") // nothing listens on port 1
	require.True(t, neverSent(err), "%v", err)
	require.False(t, neverSent(fmt.Errorf("read: %w", http.ErrBodyReadAfterClose)))
}
