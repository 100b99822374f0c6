package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// replicaReportEnv names the file TestReplicas also writes its report to, since
// go test ./... shows nothing of a package that passes.
const replicaReportEnv = "VERILAND_REPLICA_REPORT"

// loadFigures are the measured figures of one run.
type loadFigures struct {
	clients       int
	duration      time.Duration
	killedAt      time.Duration
	killed        string
	requests      int64
	transport     int64
	inFlight409   int64
	throttled     int64
	serverErrors  []string
	unexpected    []string
	pairs         []replayPair
	f             *findings
	probes        []*rateProbe
	rateReplicas  int
	schema        string
	survivorNames []string
	phases        []string // "name duration", in order
}

// phase records how long a phase of the test took.
func (r *loadFigures) phase(name string, since time.Time) time.Time {
	r.phases = append(r.phases, fmt.Sprintf("%s %s", name, time.Since(since).Round(100*time.Millisecond)))
	return time.Now()
}

// String formats the report: every figure the issue asks for, one per line.
func (r *loadFigures) String() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	f := r.f
	p("veriland multi-replica test: 3 server processes on one PostgreSQL (schema %s), %d clients, %s of load,", r.schema, r.clients, r.duration.Round(time.Millisecond))
	p("  replica %s killed with SIGKILL at %s; survivors %s", r.killed, r.killedAt.Round(time.Millisecond), strings.Join(r.survivorNames, ", "))
	var total int
	kinds := []string{kindRequest, kindApproval, kindParcel, kindReplay}
	var parts []string
	for _, k := range kinds {
		total += f.acked[k]
		parts = append(parts, fmt.Sprintf("%s %d", k, f.acked[k]))
	}
	p("acknowledged writes: %d (%s)", total, strings.Join(parts, ", "))
	var unknown int
	for _, k := range kinds {
		unknown += f.unknown[k]
	}
	p("unknown outcomes (answer lost with the killed replica): %d; read back: committed %d, not committed %d, unresolved %d (a verification request whose id was in the lost answer)",
		unknown, f.unknownCommitted, f.unknownAbsent, f.unknown[kindRequest])
	p("lost writes = %d", len(f.lost))
	p("duplicates = %d", len(f.duplicates))
	together, sequential, same, replayed := 0, 0, 0, 0
	for _, pr := range r.pairs {
		if !pr.both {
			continue
		}
		if pr.together {
			together++
		} else {
			sequential++
		}
		if pr.same {
			same++
		}
		if pr.replayed {
			replayed++
		}
	}
	p("idempotent replays to two replicas: %d at once + %d one after the other, %d answered with one parcel, %d marked Idempotent-Replayed", together, sequential, same, replayed)
	for _, c := range f.chains {
		p("audit chain on %s: valid=%t, %d entries, head %s%s", c.replica, c.valid, c.entries, c.headHash, suffix(c.reason))
	}
	h := f.hooks
	p("webhooks: %d approvals to notify, %d received (%d distinct), duplicates %d, deliveries retried %d, held by the killed replica's claim %d, delivered but unrecorded by it %d, unexplained %d",
		h.expected, h.received, h.delivered, h.duplicates, h.retries, h.held, h.unrecorded, len(h.unexplained))
	for _, pr := range r.probes {
		replicas := make([]string, 0, len(pr.perReplica))
		for name, n := range pr.perReplica {
			replicas = append(replicas, fmt.Sprintf("%s %d", name, n))
		}
		slices.Sort(replicas)
		p("rate limit %s over %d replicas: policy %s; %d sent in %s, %d allowed (%s), %d throttled; policy allows at most %d, per-replica limits would allow %d",
			pr.route, r.rateReplicas, describePolicy(pr.policy), pr.sent, pr.elapsed.Round(time.Millisecond), pr.allowed, strings.Join(replicas, ", "), pr.throttled, pr.ceiling, pr.spread)
	}
	secs := r.duration.Seconds()
	p("throughput: %d requests in %s = %.0f requests/s; %.1f acknowledged writes/s (%.1f consent approvals/s); transport errors %d, idempotency_key_in_flight %d, 429 %d",
		r.requests, r.duration.Round(time.Millisecond), float64(r.requests)/secs, float64(total)/secs, float64(f.acked[kindApproval])/secs, r.transport, r.inFlight409, r.throttled)
	p("5xx answers %d, unexpected answers %d, other problems %d", len(r.serverErrors), len(r.unexpected), len(f.problems))
	p("phases: %s", strings.Join(r.phases, ", "))
	for _, list := range []struct {
		name  string
		items []string
	}{{"lost", f.lost}, {"duplicate", f.duplicates}, {"webhook", h.unexplained}, {"5xx", r.serverErrors}, {"unexpected", r.unexpected}, {"problem", f.problems}} {
		for i, s := range list.items {
			if i == 10 {
				p("  %s: … %d more", list.name, len(list.items)-10)
				break
			}
			p("  %s: %s", list.name, s)
		}
	}
	return b.String()
}

func suffix(reason string) string {
	if reason == "" {
		return ""
	}
	return " (" + reason + ")"
}

// publish logs the report and writes it to the file named by replicaReportEnv, if any.
func (r *loadFigures) publish(logf func(string, ...any)) error {
	text := r.String()
	logf("\n%s", text)
	if path := os.Getenv(replicaReportEnv); path != "" {
		return os.WriteFile(path, []byte(text), 0o644)
	}
	return nil
}
