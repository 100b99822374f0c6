package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/httpserver/ratelimit"
)

// Sizes of TestReplicas. VERILAND_REPLICA_LOAD (a duration) lengthens the load for
// runs by hand.
const (
	replicaClients  = 64
	replicaLoadTime = 15 * time.Second
)

// TestReplicas is SPEC S12's scale-out claim run for real: three reference-server
// processes on one PostgreSQL schema and one keys directory, 64 clients spreading
// consent approvals, parcel creations and idempotent replays over them, one replica
// killed with SIGKILL a third of the way through. Then, from each survivor: every
// acknowledged write is readable (lost writes = 0), no creation made two resources
// (duplicates = 0), the audit chain verifies, every webhook received more than once
// is a documented retry; and, on three replicas that enforce the rate limits, one
// client spread over them gets one policy's allowance, not three.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: TestReplicas runs server processes under load for about a minute")
	}
	dsn, schema := freshSchema(t)
	loadTime := replicaLoadTime
	if v := os.Getenv("VERILAND_REPLICA_LOAD"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("VERILAND_REPLICA_LOAD: %v", err)
		}
		loadTime = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), loadTime+8*time.Minute)
	defer cancel()

	// Three replicas start at once on an empty keys directory: one creates the keys
	// (and prints the bootstrap admin token), the others wait for them and read them.
	began := time.Now()
	keysDir := t.TempDir()
	names := []string{"replica-1", "replica-2", "replica-3"}
	reps := make([]*replica, len(names))
	for i, name := range names {
		reps[i] = startReplica(t, name, dsn, keysDir, "off")
	}
	bases := make([]string, len(reps))
	for i, r := range reps {
		if err := r.waitListening(replicaStartTimeout); err != nil {
			t.Fatal(err)
		}
		bases[i] = r.base
	}
	adminTok := bootstrapToken(t, reps)
	tokens := sharedTokens(t, keysDir)
	admin, err := tokens.Verify(adminTok)
	if err != nil {
		t.Fatal(err)
	}

	rc := newReceiver()
	t.Cleanup(rc.srv.Close)
	tr := &traffic{}
	lg := &ledger{}
	ownSources := canBindLoopback()
	loaders := make([]*loader, replicaClients)
	for i := range loaders {
		var source net.IP
		if ownSources {
			source = sourceIP(i)
		}
		tok, _, err := tokens.Mint(veriland.Principal{Subject: fmt.Sprintf("replica-verifier-%d", i), Role: veriland.RoleVerifier,
			Env: veriland.Sandbox, Account: admin.Account}, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		loaders[i] = &loader{client: newClient(i, source, bases, names, tr), verifier: tok, ledger: lg,
			callback: fmt.Sprintf("%s/hooks/%d", rc.srv.URL, i)}
		defer loaders[i].close()
	}
	startedAt := time.Since(began)
	setupStart := time.Now()
	if err := parallelSetup(ctx, loaders); err != nil {
		t.Fatal(err)
	}
	setupTook := time.Since(setupStart)

	// The load, with replica-3 killed a third of the way through.
	loadCtx, stopLoad := context.WithTimeout(ctx, loadTime)
	defer stopLoad()
	victim := reps[2]
	start := time.Now()
	killed := make(chan error, 1)
	var killTime time.Time // written before killed is sent on, read after
	go func() {
		select {
		case <-time.After(loadTime / 3):
			killTime = time.Now()
			killed <- victim.kill()
		case <-loadCtx.Done():
			killed <- errors.New("the load ended before the kill")
		}
	}()
	var wg sync.WaitGroup
	for _, l := range loaders {
		wg.Go(func() { l.run(loadCtx, ctx) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := <-killed; err != nil {
		t.Fatal(err)
	}
	killedAt := loadTime / 3

	survivors := reps[:2]
	fig := &loadFigures{clients: replicaClients, duration: elapsed, killedAt: killedAt, killed: victim.name, schema: schema,
		requests: tr.requests.Load(), transport: tr.transportErrors.Load(), inFlight409: tr.inFlight409.Load(), throttled: tr.throttled.Load(),
		survivorNames: names[:2], pairs: lg.pairs, f: newFindings()}
	f := fig.f
	fig.phases = []string{fmt.Sprintf("start %s", startedAt.Round(100*time.Millisecond)), fmt.Sprintf("setup %s", setupTook.Round(100*time.Millisecond)),
		fmt.Sprintf("load %s", elapsed.Round(100*time.Millisecond))}
	mark := time.Now()
	countOutcomes(lg.records, f)
	for _, pr := range lg.pairs {
		if pr.both && !pr.same {
			f.addf(&f.duplicates, "replay answered with two parcels: %s", pr.detail)
		}
	}

	// Every acknowledged write, read back from each survivor.
	checkers := make([]*checker, len(survivors))
	for i, s := range survivors {
		checkers[i] = &checker{client: newClient(-1, nil, []string{s.base}, []string{s.name}, &traffic{}), admin: adminTok}
		defer checkers[i].close()
	}
	var mu sync.Mutex
	var checks sync.WaitGroup
	for _, c := range checkers {
		checks.Go(func() { checkReadable(ctx, c, lg.records, f, &mu) })
	}
	checks.Wait()
	approvedUnknown := resolveUnknown(ctx, checkers[0], lg.records, f)
	if err := parcelCensus(ctx, checkers[0], lg.records, f); err != nil {
		t.Fatal(err)
	}
	for _, c := range checkers {
		rep, err := auditChain(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		f.chains = append(f.chains, rep)
	}

	// Webhooks: once the survivors' outbox workers have settled.
	mark = fig.phase("read-back", mark)
	ds, err := settleWebhooks(ctx, checkers[0], rc)
	if err != nil {
		t.Fatal(err)
	}
	committed := map[string]int{}
	secrets := map[int]string{}
	for _, l := range loaders {
		secrets[l.id] = l.secret
	}
	for _, r := range lg.records {
		if r.kind == kindApproval && (r.acked || approvedUnknown[r.id]) {
			committed[r.id] = r.client
		}
	}
	f.hooks = checkWebhooks(committed, secrets, ds, rc.hooks(), killTime)
	mark = fig.phase("webhooks", mark)

	// Rate limits, on three more replicas, joining the same database and keys, that
	// enforce them.
	fig.probes, fig.rateReplicas = rateLimitPhase(t, ctx, dsn, keysDir, admin.Account, tokens), 3
	mark = fig.phase("rate limits", mark)

	fig.serverErrors, fig.unexpected = tr.serverErrors, tr.unexpected
	for _, s := range survivors {
		if err := s.stop(); err != nil {
			t.Error(err)
		}
	}
	for _, r := range reps {
		if err := r.problems(); err != nil {
			t.Error(err)
		}
	}
	fig.phase("shutdown", mark)
	if err := fig.publish(t.Logf); err != nil {
		t.Error(err)
	}

	// The verdicts.
	if len(f.lost) > 0 {
		t.Errorf("lost writes: %d", len(f.lost))
	}
	if len(f.duplicates) > 0 {
		t.Errorf("duplicates: %d", len(f.duplicates))
	}
	for _, c := range f.chains {
		if !c.valid {
			t.Errorf("the audit chain does not verify on %s: %s", c.replica, c.reason)
		}
	}
	if len(f.hooks.unexplained) > 0 {
		t.Errorf("webhooks: %s", strings.Join(f.hooks.unexplained, "; "))
	}
	if len(fig.serverErrors) > 0 {
		t.Errorf("5xx answers: %d", len(fig.serverErrors))
	}
	if len(fig.unexpected) > 0 {
		t.Errorf("unexpected answers: %d", len(fig.unexpected))
	}
	if len(f.problems) > 0 {
		t.Errorf("problems: %s", strings.Join(f.problems, "; "))
	}
	if f.acked[kindApproval] == 0 || f.acked[kindParcel] == 0 || f.acked[kindReplay] == 0 {
		t.Errorf("the load acknowledged too little to prove anything: %v", f.acked)
	}
	for _, p := range fig.probes {
		if err := p.bounds(); err != nil {
			t.Error(err)
		}
	}
}

// rateLimitPhase starts three more replicas on the same database and keys, with the
// rate limits on, and probes them with one client: one token (the per-wallet policy)
// and one source address on a public route (the per-IP policy).
func rateLimitPhase(t *testing.T, ctx context.Context, dsn, keysDir, account string, tokens *auth.Tokens) []*rateProbe {
	t.Helper()
	names := []string{"limited-1", "limited-2", "limited-3"}
	reps := make([]*replica, len(names))
	for i, name := range names {
		reps[i] = startReplica(t, name, dsn, keysDir, "on")
	}
	bases := make([]string, len(reps))
	for i, r := range reps {
		if err := r.waitListening(replicaStartTimeout); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.stdout.String(), "admin token") {
			t.Errorf("%s printed a bootstrap admin token: keys made twice", r.name)
		}
		bases[i] = r.base
	}
	defer func() {
		for _, r := range reps {
			if err := r.stop(); err != nil {
				t.Error(err)
			}
			if err := r.problems(); err != nil {
				t.Error(err)
			}
		}
	}()
	// A holder's token with a wallet: the wallet policy (a verifier's key would be
	// counted under the far larger per-key policy, SPEC S15).
	wallet0x := "0x" + randomHex(20)
	tok, _, err := tokens.Mint(veriland.Principal{Subject: "did:pkh:eip155:1:" + wallet0x, Role: veriland.RoleHolder,
		Env: veriland.Sandbox, Account: account, Wallet: wallet0x}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	wallet := ratelimit.WalletPolicy()
	ip := ratelimit.IPPolicy()
	var source net.IP
	if canBindLoopback() {
		source = net.IPv4(127, 0, 0, 250)
	}
	return []*rateProbe{
		probeRate(ctx, wallet, nil, bases, names, call{method: "GET", path: "/v1/parcels?limit=1", token: tok}, 3*wallet.Burst+10),
		probeRate(ctx, ip, source, bases, names, call{method: "GET", path: "/attestation/issuer"}, 2*ip.Burst+20),
	}
}

// bootstrapToken returns the SANDBOX admin token that exactly one of the replicas,
// the one that created the keys, printed.
func bootstrapToken(t *testing.T, reps []*replica) string {
	t.Helper()
	var tokens []string
	for _, r := range reps {
		out := r.stdout.String()
		if !strings.Contains(out, "SANDBOX admin token") {
			continue
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 {
			t.Fatalf("%s: no token after the banner: %q", r.name, out)
		}
		tokens = append(tokens, strings.TrimSpace(lines[1]))
	}
	if len(tokens) != 1 {
		t.Fatalf("%d replicas printed a bootstrap admin token, want exactly one (the one that created the keys)", len(tokens))
	}
	return tokens[0]
}

// sharedTokens reads the keys the replicas share, to mint the clients' tokens.
func sharedTokens(t *testing.T, keysDir string) *auth.Tokens {
	t.Helper()
	sec, created, err := loadOrCreateSecrets(keysDir)
	if err != nil {
		t.Fatal(err)
	}
	if created {
		t.Fatal("the keys directory had no keys after the replicas started")
	}
	return &auth.Tokens{Secrets: auth.Secrets{Sandbox: sec.jwtSandbox, Production: sec.jwtProduction}, Rand: rand.Reader}
}

// parallelSetup runs every loader's setup, 16 at a time.
func parallelSetup(ctx context.Context, loaders []*loader) error {
	sem := make(chan struct{}, 16)
	errs := make([]error, len(loaders))
	var wg sync.WaitGroup
	for i, l := range loaders {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = l.setup(ctx)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// canBindLoopback reports whether connections may come from loopback addresses other
// than 127.0.0.1 (Linux routes all of 127/8 to lo; other systems may not).
func canBindLoopback() bool {
	ln, err := net.Listen("tcp", "127.0.0.10:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// countOutcomes counts the acknowledged and the unknown writes by kind. A parcel
// creation is known by its owner name: the two sends of a replay are one creation,
// acknowledged when either answer was.
func countOutcomes(records []record, f *findings) {
	ackedNames := map[string]bool{}
	for _, r := range records {
		if r.acked && r.name != "" {
			ackedNames[r.name] = true
		}
	}
	counted := map[string]bool{}
	for _, r := range records {
		switch {
		case r.name != "":
			if counted[r.name] || !r.acked && !r.unknown || r.unknown && ackedNames[r.name] {
				continue
			}
			if r.acked {
				f.acked[r.kind]++
			} else {
				f.unknown[r.kind]++
			}
			counted[r.name] = true
		case r.acked:
			f.acked[r.kind]++
		case r.unknown:
			f.unknown[r.kind]++
		}
	}
}
