package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/veriland/veriland/internal/testenv"
)

// postgresURLEnv names the PostgreSQL server the replicas share; CI exports it from
// storage/postgres/testdb.sh.
const postgresURLEnv = "VERILAND_TEST_POSTGRES_URL"

// replicaStartTimeout bounds a replica's start under -race on a loaded machine.
const replicaStartTimeout = 90 * time.Second

// replicaPoolConns is each replica's pgx pool size (pool_max_conns): three or four
// replicas stay well inside PostgreSQL's default max_connections, next to other tests.
const replicaPoolConns = 8

// freshSchema creates a schema of its own for one test run and returns the server's
// URL with search_path set to it, so that the replicas' table (veriland_kv) lives
// there and shares no row with any other test. The schema is dropped, with
// everything in it, at the end of the test (after the replicas have stopped: cleanups
// run last-registered first, so call this before starting them).
func freshSchema(t *testing.T) (dsn, schema string) {
	t.Helper()
	base := os.Getenv(postgresURLEnv)
	if base == "" {
		testenv.Require(t, "a PostgreSQL server", "set "+postgresURLEnv+"; storage/postgres/testdb.sh starts one and prints its URL")
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("%s must be a postgres:// URL", postgresURLEnv)
	}
	suffix := make([]byte, 6)
	if _, err := rand.Read(suffix); err != nil {
		t.Fatal(err)
	}
	schema = fmt.Sprintf("veriland_replicas_%d_%s", os.Getpid(), hex.EncodeToString(suffix))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to %s: %v", postgresURLEnv, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Logf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Logf("dropping schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("pool_max_conns", fmt.Sprint(replicaPoolConns))
	u.RawQuery = q.Encode()
	return u.String(), schema
}

// replica is one reference-server process: this test binary re-executed with
// replicaEnv set (see TestMain).
type replica struct {
	name           string
	base           string // http://127.0.0.1:port, once listening
	cmd            *exec.Cmd
	stdout, stderr lockedBuffer
	exited         chan struct{} // closed once the process has been waited for
	waitErr        error         // set before exited is closed
	mu             sync.Mutex
	killed         bool
}

var listeningLine = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// startReplica starts a server process on dsn with the shared keys directory and a
// data directory of its own, listening on a free loopback port. It does not wait for
// it to listen (see waitListening), so several replicas start at once.
func startReplica(t *testing.T, name, dsn, keysDir, rateLimit string) *replica {
	t.Helper()
	r := &replica{name: name, exited: make(chan struct{})}
	args := []string{
		"-database", dsn, "-keys-dir", keysDir, "-data", filepath.Join(t.TempDir(), name),
		"-addr", "127.0.0.1:0", "-rate-limit", rateLimit, "-log-level", "warn",
	}
	r.cmd = exec.Command(os.Args[0], args...)
	r.cmd.Env = append(os.Environ(), replicaEnv+"=1")
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	dieWithParent(r.cmd)
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("starting replica %s: %v", name, err)
	}
	go func() {
		r.waitErr = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		if r.alive() {
			_ = r.cmd.Process.Kill()
			<-r.exited
		}
	})
	return r
}

// waitListening waits for the replica's "listening on" line and records its URL.
func (r *replica) waitListening(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if m := listeningLine.FindStringSubmatch(r.stderr.String()); m != nil {
			r.base = m[1]
			return nil
		}
		select {
		case <-r.exited:
			return fmt.Errorf("replica %s exited before listening (%v): %s", r.name, r.waitErr, tail(r.stderr.String()))
		case <-time.After(25 * time.Millisecond):
		}
	}
	return fmt.Errorf("replica %s not listening after %s: %s", r.name, timeout, tail(r.stderr.String()))
}

// alive reports whether the process has not exited yet.
func (r *replica) alive() bool {
	select {
	case <-r.exited:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL: no shutdown, no deferred work, connections cut mid-request.
func (r *replica) kill() error {
	r.mu.Lock()
	r.killed = true
	r.mu.Unlock()
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	select {
	case <-r.exited:
		return nil
	case <-time.After(30 * time.Second):
		return fmt.Errorf("replica %s still running 30 s after SIGKILL", r.name)
	}
}

// stop asks for a graceful shutdown (SIGTERM) and checks that the process exits with
// status 0: a data race found by the race detector makes it exit 66.
func (r *replica) stop() error {
	if !r.alive() {
		return fmt.Errorf("replica %s had already exited (%v): %s", r.name, r.waitErr, tail(r.stderr.String()))
	}
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-r.exited:
	case <-time.After(60 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.exited
		return fmt.Errorf("replica %s did not shut down within 60 s of SIGTERM", r.name)
	}
	if r.waitErr != nil {
		return fmt.Errorf("replica %s: %v: %s", r.name, r.waitErr, tail(r.stderr.String()))
	}
	return nil
}

// problems lists what the replica's stderr says went wrong inside it: data races and
// panics.
func (r *replica) problems() error {
	out := r.stderr.String()
	var errs []error
	for _, marker := range []string{"WARNING: DATA RACE", "panic:", "fatal error:"} {
		if i := strings.Index(out, marker); i >= 0 {
			end := min(len(out), i+4000)
			errs = append(errs, fmt.Errorf("replica %s: %s", r.name, out[i:end]))
		}
	}
	return errors.Join(errs...)
}

// tail is the end of a process's output, for failure messages.
func tail(s string) string {
	const n = 3000
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
