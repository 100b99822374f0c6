package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/veriland/veriland/httpserver/webhook"
)

// checker reads from one survivor only, with the admin token.
type checker struct {
	*client
	admin string
}

// get reads path from the checker's replica.
func (c *checker) get(ctx context.Context, path string) (answer, error) {
	return c.read(ctx, call{method: "GET", path: path, token: c.admin, first: 0})
}

// findings are the results of the checks after the load.
type findings struct {
	acked, unknown                  map[string]int // writes by kind
	unknownCommitted, unknownAbsent int            // unknown writes found committed, or not, by reading
	lost, duplicates, problems      []string
	chains                          []chainReport
	hooks                           hookFindings
}

func newFindings() *findings {
	return &findings{acked: map[string]int{}, unknown: map[string]int{}}
}

func (f *findings) addf(list *[]string, format string, args ...any) {
	if len(*list) < 50 {
		*list = append(*list, fmt.Sprintf(format, args...))
	}
}

// chainReport is GET /v1/audit/verify as one survivor answered it.
type chainReport struct {
	replica  string
	valid    bool
	entries  int
	headHash string
	reason   string
}

// checkReadable reads every acknowledged write back from survivor c: each verification
// request, each approval (APPROVED, with its attestation) and each parcel. A write
// that cannot be read is lost.
func checkReadable(ctx context.Context, c *checker, records []record, f *findings, mu *sync.Mutex) {
	approved := map[string]bool{}
	for _, r := range records {
		if r.kind == kindApproval && r.acked {
			approved[r.id] = true
		}
	}
	work := make(chan record)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for r := range work {
				if problem := readBack(ctx, c, r); problem != "" {
					mu.Lock()
					f.addf(&f.lost, "%s: %s %s (acknowledged by %s): %s", c.names[0], r.kind, r.id, r.replica, problem)
					mu.Unlock()
				}
			}
		})
	}
	for _, r := range records {
		if r.acked && !(r.kind == kindRequest && approved[r.id]) { // an approval's reads cover its request
			work <- r
		}
	}
	close(work)
	wg.Wait()
}

// readBack returns what is wrong with acknowledged write r as c's replica shows it,
// or "".
func readBack(ctx context.Context, c *checker, r record) string {
	switch r.kind {
	case kindRequest, kindApproval:
		a, err := c.get(ctx, "/verify/request/"+url.PathEscape(r.id))
		if err != nil || a.status != http.StatusOK {
			return fmt.Sprintf("GET /verify/request: %s %v", a, err)
		}
		if r.kind == kindRequest {
			return ""
		}
		var st struct{ Status, AttestationID string }
		if err := decode(a, &st); err != nil || st.Status != "APPROVED" || st.AttestationID != r.attestation {
			return fmt.Sprintf("GET /verify/request: want APPROVED with attestation %s, got %s", r.attestation, a)
		}
		a, err = c.get(ctx, "/attestation/"+url.PathEscape(r.attestation))
		var att struct{ ID string }
		if err != nil || a.status != http.StatusOK || decode(a, &att) != nil || att.ID != r.attestation {
			return fmt.Sprintf("GET /attestation/%s: %s %v", r.attestation, a, err)
		}
		a, err = c.get(ctx, "/attestation/"+url.PathEscape(r.attestation)+"/status")
		var st2 struct{ Status string }
		if err != nil || a.status != http.StatusOK || decode(a, &st2) != nil || st2.Status != "VALID" {
			return fmt.Sprintf("GET /attestation/%s/status: %s %v", r.attestation, a, err)
		}
	case kindParcel, kindReplay:
		a, err := c.get(ctx, "/v1/parcels/"+url.PathEscape(r.id))
		if err != nil || a.status != http.StatusOK {
			return fmt.Sprintf("GET /v1/parcels: %s %v", a, err)
		}
		attrs, err := attributes(a)
		if err != nil {
			return err.Error()
		}
		owner, _ := attrs["owner"].(map[string]any)
		if owner["fullName"] != r.name {
			return fmt.Sprintf("GET /v1/parcels: owner %v, want %q", owner["fullName"], r.name)
		}
	}
	return ""
}

// resolveUnknown reads the approvals whose answer was lost: APPROVED means the write
// committed, PENDING that it did not; anything else is a problem.
func resolveUnknown(ctx context.Context, c *checker, records []record, f *findings) map[string]bool {
	approved := map[string]bool{}
	for _, r := range records {
		if !r.unknown || r.kind != kindApproval {
			continue
		}
		a, err := c.get(ctx, "/verify/request/"+url.PathEscape(r.id))
		var st struct{ Status string }
		if err != nil || a.status != http.StatusOK || decode(a, &st) != nil {
			f.addf(&f.problems, "unknown approval %s: GET /verify/request: %s %v", r.id, a, err)
			continue
		}
		switch st.Status {
		case "APPROVED":
			f.unknownCommitted++
			approved[r.id] = true
		case "PENDING":
			f.unknownAbsent++
		default:
			f.addf(&f.problems, "unknown approval %s: the request is %s", r.id, st.Status)
		}
	}
	return approved
}

// parcelCensus lists every parcel (as the admin sees them) and checks, by the owner
// names that are unique to each creation, that every acknowledged creation made
// exactly the parcel it was answered with and that no creation, acknowledged or
// unknown, made two.
func parcelCensus(ctx context.Context, c *checker, records []record, f *findings) error {
	byName := map[string][]string{}
	path := "/v1/parcels?limit=100"
	for pages := 0; path != ""; pages++ {
		if pages > 10000 {
			return fmt.Errorf("listing parcels: no end")
		}
		a, err := c.get(ctx, path)
		if err != nil || a.status != http.StatusOK {
			return fmt.Errorf("GET %s: %s %v", path, a, err)
		}
		var doc struct {
			Data []struct {
				ID         string `json:"id"`
				Attributes struct {
					Owner struct {
						FullName string `json:"fullName"`
					} `json:"owner"`
				} `json:"attributes"`
			} `json:"data"`
			Links struct {
				Next string `json:"next"`
			} `json:"links"`
		}
		if err := decode(a, &doc); err != nil {
			return err
		}
		for _, p := range doc.Data {
			byName[p.Attributes.Owner.FullName] = append(byName[p.Attributes.Owner.FullName], p.ID)
		}
		path = doc.Links.Next
	}
	ackedID := map[string]string{}
	unknownNames := map[string]bool{}
	for _, r := range records {
		switch {
		case r.kind != kindParcel && r.kind != kindReplay:
		case r.acked:
			if prev, ok := ackedID[r.name]; ok && prev != r.id {
				f.addf(&f.duplicates, "one creation of %q acknowledged as %s and as %s", r.name, prev, r.id)
			}
			ackedID[r.name] = r.id
		case r.unknown:
			unknownNames[r.name] = true
		}
	}
	for name, ids := range byName {
		if strings.HasPrefix(name, "Replica Owner ") && len(ids) > 1 {
			f.addf(&f.duplicates, "%d parcels for one creation (%q): %v", len(ids), name, ids)
		}
	}
	for name, id := range ackedID {
		if ids := byName[name]; !slices.Contains(ids, id) {
			f.addf(&f.lost, "parcel %s (%q) is not in the list (found %v)", id, name, ids)
		}
	}
	for name := range unknownNames {
		if _, ok := ackedID[name]; ok {
			continue // a later attempt of the same creation was acknowledged
		}
		if len(byName[name]) == 1 {
			f.unknownCommitted++
		} else if len(byName[name]) == 0 {
			f.unknownAbsent++
		}
	}
	return nil
}

// auditChain asks the survivor to verify the SANDBOX audit chain.
func auditChain(ctx context.Context, c *checker) (chainReport, error) {
	a, err := c.get(ctx, "/v1/audit/verify")
	if err != nil || a.status != http.StatusOK {
		return chainReport{}, fmt.Errorf("GET /v1/audit/verify on %s: %s %v", c.names[0], a, err)
	}
	attrs, err := attributes(a)
	if err != nil {
		return chainReport{}, err
	}
	rep := chainReport{replica: c.names[0]}
	rep.valid, _ = attrs["valid"].(bool)
	entries, _ := attrs["entries"].(float64)
	rep.entries = int(entries)
	rep.headHash, _ = attrs["headHash"].(string)
	rep.reason, _ = attrs["reason"].(string)
	return rep, nil
}

// hookFindings is what the webhook receiver got, set against the outbox.
type hookFindings struct {
	expected    int // committed approvals, each with one delivery
	received    int // webhooks received, repeats included
	delivered   int // distinct deliveries received
	duplicates  int // receptions beyond the first of a delivery
	retries     int // deliveries with more than one recorded attempt
	held        int // committed, not received: claimed by the killed replica, lease not over
	unrecorded  int // received once, no attempt recorded: the killed replica's claim
	unexplained []string
}

// deliveryView is what the deliveries API shows of one delivery.
type deliveryView struct {
	ID        string                    `json:"id"`
	EventType string                    `json:"eventType"`
	Status    string                    `json:"status"`
	Attempts  []webhook.DeliveryAttempt `json:"attempts"`
	Payload   json.RawMessage           `json:"payload"`
}

// deliveries lists every SANDBOX delivery of the account (admin).
func deliveries(ctx context.Context, c *checker) (map[string]deliveryView, error) {
	out := map[string]deliveryView{}
	path := "/v1/webhooks/deliveries?limit=100"
	for path != "" {
		a, err := c.get(ctx, path)
		if err != nil || a.status != http.StatusOK {
			return nil, fmt.Errorf("GET %s: %s %v", path, a, err)
		}
		var doc struct {
			Data []struct {
				Attributes deliveryView `json:"attributes"`
			} `json:"data"`
			Links struct {
				Next string `json:"next"`
			} `json:"links"`
		}
		if err := decode(a, &doc); err != nil {
			return nil, err
		}
		for _, d := range doc.Data {
			out[d.Attributes.ID] = d.Attributes
		}
		path = doc.Links.Next
	}
	return out, nil
}

// settleWebhooks waits until the survivors' outbox workers have nothing left to do:
// the number of PENDING deliveries and of webhooks received have not changed for
// three seconds. Deliveries the killed replica had claimed stay PENDING until their
// claim lease (webhook.ClaimLease) ends, which the test does not wait for.
func settleWebhooks(ctx context.Context, c *checker, rc *receiver) (map[string]deliveryView, error) {
	deadline := time.Now().Add(90 * time.Second)
	lastPending, lastReceived, stable := -1, -1, 0
	for {
		ds, err := deliveries(ctx, c)
		if err != nil {
			return nil, err
		}
		pending := 0
		for _, d := range ds {
			if d.Status == string(webhook.StatusPending) {
				pending++
			}
		}
		received := len(rc.hooks())
		if pending == lastPending && received == lastReceived {
			stable++
		} else {
			stable = 0
		}
		if stable >= 3 || time.Now().After(deadline) {
			return ds, nil
		}
		lastPending, lastReceived = pending, received
		pause(ctx, time.Second)
	}
}

// checkWebhooks sets what the receiver got against the deliveries: every committed
// approval has exactly one delivery; a delivery received more than once is explained
// by its recorded attempts (documented at-least-once retries), or by one attempt of
// the killed replica that reached the receiver before the kill and was never
// recorded (retried by a survivor once its claim lease ended); every signature
// verifies with the verifier's secret; what was not received is held by a claim of
// the killed replica; there are at most webhook.DefaultWorkers such claims.
func checkWebhooks(committed map[string]int, secrets map[int]string, ds map[string]deliveryView, hooks []hook, killedAt time.Time) hookFindings {
	h := hookFindings{expected: len(committed), received: len(hooks)}
	byRequest := map[string]deliveryView{}
	for _, d := range ds {
		if d.EventType != "verification.approved" {
			continue
		}
		var p struct {
			Data struct {
				RequestID string `json:"requestId"`
			} `json:"data"`
		}
		if json.Unmarshal(d.Payload, &p) != nil || p.Data.RequestID == "" {
			h.unexplained = append(h.unexplained, fmt.Sprintf("delivery %s has no requestId: %s", d.ID, d.Payload))
			continue
		}
		if prev, ok := byRequest[p.Data.RequestID]; ok {
			h.unexplained = append(h.unexplained, fmt.Sprintf("request %s has two deliveries: %s and %s", p.Data.RequestID, prev.ID, d.ID))
		}
		byRequest[p.Data.RequestID] = d
	}
	count := map[string]int{}
	first := map[string]time.Time{}
	for _, hk := range hooks {
		count[hk.id]++
		if t, ok := first[hk.id]; !ok || hk.at.Before(t) {
			first[hk.id] = hk.at
		}
		sec, err := webhook.ParseSecret(secrets[hk.client])
		if err == nil {
			err = webhook.Verify(hk.header, hk.body, []webhook.Secret{sec}, hk.at)
		}
		if err != nil {
			h.unexplained = append(h.unexplained, fmt.Sprintf("webhook %s to client %d: signature: %v", hk.id, hk.client, err))
		}
		if _, ok := ds[hk.id]; !ok {
			h.unexplained = append(h.unexplained, fmt.Sprintf("webhook %s is no delivery of the outbox", hk.id))
		}
	}
	h.delivered = len(count)
	for id, n := range count {
		h.duplicates += n - 1
		d := ds[id]
		attempts := len(d.Attempts)
		// An unrecorded reception can only be an attempt the killed replica made just
		// before it died (the receiver stamps it once it has read the body: allow 2 s).
		beforeKill := !killedAt.IsZero() && first[id].Before(killedAt.Add(2*time.Second))
		switch {
		case attempts >= n:
			// every reception is a recorded attempt: documented retries when n > 1
		case attempts == n-1 && beforeKill:
			h.unrecorded++
		default:
			h.unexplained = append(h.unexplained, fmt.Sprintf("webhook %s received %d times (first at %s), %d attempts recorded, %s",
				id, n, first[id].Format("15:04:05.000"), attempts, d.Status))
		}
	}
	for _, d := range ds {
		if len(d.Attempts) > 1 {
			h.retries++
		}
	}
	for requestID := range committed {
		d, ok := byRequest[requestID]
		switch {
		case !ok:
			h.unexplained = append(h.unexplained, fmt.Sprintf("approved request %s has no delivery", requestID))
		case count[d.ID] > 0:
		case d.Status == string(webhook.StatusPending) && len(d.Attempts) == 0:
			h.held++
		default:
			h.unexplained = append(h.unexplained, fmt.Sprintf("delivery %s (request %s) is %s with %d attempts but never reached the receiver", d.ID, requestID, d.Status, len(d.Attempts)))
		}
	}
	if h.held+h.unrecorded > webhook.DefaultWorkers {
		h.unexplained = append(h.unexplained, fmt.Sprintf("%d deliveries held or unrecorded, more than the %d a killed replica can have claimed", h.held+h.unrecorded, webhook.DefaultWorkers))
	}
	return h
}
