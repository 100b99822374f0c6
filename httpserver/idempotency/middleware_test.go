package idempotency

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage/bolt"
)

// statusOf stands in for httpserver's status table.
func statusOf(err error) int {
	switch veriland.CodeOf(err) {
	case veriland.CodeInvalidIdempotencyKey, veriland.CodeInvalidJSON:
		return 400
	case veriland.CodeIdempotencyInFlight:
		return 409
	case veriland.CodePayloadTooLarge:
		return 413
	case veriland.CodeIdempotencyKeyReused:
		return 422
	case veriland.CodeUnavailable:
		return 503
	}
	return 500
}

func writeError(w http.ResponseWriter, _ *http.Request, err error) {
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(statusOf(err))
	fmt.Fprintf(w, `{"errors":[{"code":%q}]}`, veriland.CodeOf(err))
}

// scopeBySubject stands in for authentication: the subject comes from X-Sub, and
// requests without one are public, scoped by client IP.
func scopeBySubject(r *http.Request) (Scope, bool) {
	sc := Scope{Env: veriland.Sandbox, Method: r.Method, Path: r.URL.Path, Subject: r.Header.Get("X-Sub")}
	if sc.Subject == "" {
		sc.ClientIP = "192.0.2.1"
	}
	return sc, r.URL.Path != "/exempt"
}

// creator is a handler that creates one resource per run.
type creator struct {
	runs   atomic.Int64
	delay  time.Duration
	status int
}

func (c *creator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := c.runs.Add(1)
	body, _ := io.ReadAll(r.Body)
	time.Sleep(c.delay)
	status := c.status
	if status == 0 {
		status = http.StatusCreated
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Location", fmt.Sprintf("/v1/parcels/prc_%d", n))
	w.Header().Set("X-Request-Id", fmt.Sprint("req_", n))
	w.Header().Set("Set-Cookie", "s=1")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"id":"prc_%d","echo":%q}`, n, body)
}

func newServer(t *testing.T, h http.Handler) (*Store, *fakeClock, http.Handler) {
	t.Helper()
	s, clock := newStore(t, bolt.Options{NoSync: true})
	return s, clock, Middleware(s, scopeBySubject, writeError)(h)
}

func post(h http.Handler, path, key, body string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	if key != "" {
		r.Header.Set(HeaderKey, key)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestConcurrentIdenticalRequestsRunOnce(t *testing.T) {
	s, err := bolt.Open(t.TempDir()+"/idem.db", bolt.Options{}) // fsync on: the real thing
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	handler := &creator{delay: 20 * time.Millisecond}
	srv := httptest.NewServer(Middleware(&Store{Store: s}, scopeBySubject, writeError)(handler))
	t.Cleanup(srv.Close)

	const n = 100
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		statuses = map[int]int{}
		bodies   = map[string]int{}
		start    = make(chan struct{})
	)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	for range n {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/parcels", strings.NewReader(`{"parcel":"A-1"}`))
			req.Header.Set(HeaderKey, `"one-key"`)
			req.Header.Set("X-Sub", "NOT-ABJ-0042")
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			mu.Lock()
			defer mu.Unlock()
			statuses[resp.StatusCode]++
			if resp.StatusCode == http.StatusCreated {
				bodies[string(b)]++
			}
		})
	}
	close(start)
	wg.Wait()

	t.Logf("statuses: %v", statuses)
	require.EqualValues(t, 1, handler.runs.Load(), "statuses %v", statuses)
	require.Equal(t, n, statuses[http.StatusCreated]+statuses[http.StatusConflict], "statuses %v", statuses)
	require.Len(t, bodies, 1, "every 201 is the one resource")
}

func TestReplayIsByteForByte(t *testing.T) {
	handler := &creator{}
	_, _, h := newServer(t, handler)

	first := post(h, "/v1/parcels", "k-1", `{"parcel":"A-1"}`, "X-Sub", "s1")
	require.Equal(t, http.StatusCreated, first.Code)
	require.Empty(t, first.Header().Get(HeaderReplayed))

	for range 3 {
		again := post(h, "/v1/parcels", `"k-1"`, `{"parcel":"A-1"}`, "X-Sub", "s1")
		require.Equal(t, first.Code, again.Code)
		require.Equal(t, first.Body.Bytes(), again.Body.Bytes())
		require.Equal(t, "true", again.Header().Get(HeaderReplayed))
		require.Equal(t, first.Header().Get("Content-Type"), again.Header().Get("Content-Type"))
		require.Equal(t, first.Header().Get("Location"), again.Header().Get("Location"))
		require.Empty(t, again.Header().Get("Set-Cookie"))
		require.Empty(t, again.Header().Get("X-Request-Id"), "the request id is the replay's own, set outside")
	}
	require.EqualValues(t, 1, handler.runs.Load())

	// Another caller, or the same key on another route, is another request.
	require.Empty(t, post(h, "/v1/parcels", "k-1", `{"parcel":"A-1"}`, "X-Sub", "s2").Header().Get(HeaderReplayed))
	require.Empty(t, post(h, "/v1/parcels", "k-1", `{"parcel":"A-1"}`).Header().Get(HeaderReplayed))
	require.Empty(t, post(h, "/v1/other", "k-1", `{"parcel":"A-1"}`, "X-Sub", "s1").Header().Get(HeaderReplayed))
	require.EqualValues(t, 4, handler.runs.Load())
}

func TestReplayKeepsOuterHeaders(t *testing.T) {
	_, _, inner := newServer(t, &creator{})
	n := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		w.Header().Set("X-Request-Id", fmt.Sprint("outer_", n))
		inner.ServeHTTP(w, r)
	})
	post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	again := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	require.Equal(t, "outer_2", again.Header().Get("X-Request-Id"))
	require.Equal(t, "true", again.Header().Get(HeaderReplayed))
}

func TestDifferentBodyIsReused(t *testing.T) {
	handler := &creator{}
	_, _, h := newServer(t, handler)
	require.Equal(t, http.StatusCreated, post(h, "/v1/parcels", "k", `{"parcel":"A-1"}`, "X-Sub", "s").Code)
	w := post(h, "/v1/parcels", "k", `{"parcel":"A-2"}`, "X-Sub", "s")
	require.Equal(t, http.StatusUnprocessableEntity, w.Code)
	require.Contains(t, w.Body.String(), "idempotency_key_reused")
	require.EqualValues(t, 1, handler.runs.Load())
}

func TestServerErrorIsNotStored(t *testing.T) {
	handler := &creator{status: http.StatusInternalServerError}
	_, _, h := newServer(t, handler)
	require.Equal(t, 500, post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Code)
	handler.status = http.StatusCreated
	retry := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	require.Equal(t, http.StatusCreated, retry.Code)
	require.Empty(t, retry.Header().Get(HeaderReplayed))
	require.EqualValues(t, 2, handler.runs.Load())
	require.Equal(t, "true", post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Header().Get(HeaderReplayed))
}

func TestClientErrorIsStored(t *testing.T) {
	handler := &creator{status: http.StatusUnprocessableEntity}
	_, _, h := newServer(t, handler)
	first := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	again := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	require.Equal(t, 422, again.Code)
	require.Equal(t, first.Body.String(), again.Body.String())
	require.EqualValues(t, 1, handler.runs.Load())
}

func TestExpiryAfter24Hours(t *testing.T) {
	handler := &creator{}
	_, clock, h := newServer(t, handler)
	post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	clock.Advance(24*time.Hour - time.Second)
	require.Equal(t, "true", post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Header().Get(HeaderReplayed))
	clock.Advance(time.Second)
	fresh := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	require.Equal(t, http.StatusCreated, fresh.Code)
	require.Empty(t, fresh.Header().Get(HeaderReplayed))
	require.EqualValues(t, 2, handler.runs.Load())
}

func TestAbandonedReservationIsTakenOver(t *testing.T) {
	handler := &creator{}
	s, clock, h := newServer(t, handler)
	sc := Scope{Env: veriland.Sandbox, Subject: "s", Method: "POST", Path: "/v1/parcels", Key: "k"}
	fp := [32]byte{}
	copy(fp[:], sha256Of("{}"))
	out, err := s.Begin(context.Background(), sc, fp) // a replica that then crashes
	require.NoError(t, err)
	require.Equal(t, Proceed, out.Kind)

	w := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	require.Equal(t, http.StatusConflict, w.Code)
	require.Contains(t, w.Body.String(), "idempotency_key_in_flight")

	clock.Advance(DefaultLease)
	require.Equal(t, http.StatusCreated, post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Code)
	require.EqualValues(t, 1, handler.runs.Load())
	require.Equal(t, "true", post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Header().Get(HeaderReplayed))
}

func TestPanicReleasesAndRepanics(t *testing.T) {
	runs := 0
	_, _, h := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs++
		if runs == 1 {
			panic("boom")
		}
		w.WriteHeader(http.StatusCreated)
	}))
	require.PanicsWithValue(t, "boom", func() { post(h, "/v1/parcels", "k", "{}", "X-Sub", "s") })
	require.Equal(t, http.StatusCreated, post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Code)
	require.Equal(t, 2, runs)
}

func TestResponseStreamsAndFlushes(t *testing.T) {
	proceed := make(chan struct{})
	store, _ := newStore(t, bolt.Options{NoSync: true})
	h := Middleware(store, scopeBySubject, writeError)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "part1\n")
		if err := http.NewResponseController(w).Flush(); err != nil {
			t.Error(err)
		}
		<-proceed
		_, _ = io.WriteString(w, "part2\n")
	}))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)

	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/stream", strings.NewReader("{}"))
	req.Header.Set(HeaderKey, "k")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n') // arrives before the handler ends
	require.NoError(t, err)
	require.Equal(t, "part1\n", line)
	close(proceed)
	_, _ = io.ReadAll(resp.Body)

	require.Eventually(t, func() bool {
		w := post(h, "/stream", "k", "{}")
		return w.Code == 200 && w.Body.String() == "part1\npart2\n"
	}, 5*time.Second, 10*time.Millisecond)
}

func TestOversizedResponseIsNotStored(t *testing.T) {
	handler := &creator{}
	s, _, h := newServer(t, handler)
	s.MaxBody = 10
	var logs bytes.Buffer
	s.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	require.Equal(t, http.StatusCreated, post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Code)
	require.Equal(t, http.StatusCreated, post(h, "/v1/parcels", "k", "{}", "X-Sub", "s").Code)
	require.EqualValues(t, 2, handler.runs.Load())
	require.Contains(t, logs.String(), "response too large to store")
}

func TestMiddlewarePassesThrough(t *testing.T) {
	handler := &creator{}
	_, _, h := newServer(t, handler)
	post(h, "/v1/parcels", "", "{}", "X-Sub", "s") // no key
	post(h, "/v1/parcels", "", "{}", "X-Sub", "s")
	post(h, "/exempt", "k", "{}", "X-Sub", "s") // scopeOf says no
	post(h, "/exempt", "k", "{}", "X-Sub", "s")
	for range 2 { // not a POST
		r := httptest.NewRequest(http.MethodPut, "/v1/parcels", strings.NewReader("{}"))
		r.Header.Set(HeaderKey, "k")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	require.EqualValues(t, 6, handler.runs.Load())
}

func TestMiddlewareErrors(t *testing.T) {
	handler := &creator{}
	s, _, h := newServer(t, handler)
	cases := []struct {
		name   string
		req    func() *http.Request
		status int
		code   veriland.Code
	}{
		{"invalid key", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/v1/parcels", strings.NewReader("{}"))
			r.Header.Set(HeaderKey, strings.Repeat("k", 256))
			return r
		}, 400, veriland.CodeInvalidIdempotencyKey},
		{"empty key", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/v1/parcels", strings.NewReader("{}"))
			r.Header.Set(HeaderKey, "")
			return r
		}, 400, veriland.CodeInvalidIdempotencyKey},
		{"two keys", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/v1/parcels", strings.NewReader("{}"))
			r.Header.Add(HeaderKey, "a")
			r.Header.Add(HeaderKey, "b")
			return r
		}, 400, veriland.CodeInvalidIdempotencyKey},
		{"body too large", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/v1/parcels", strings.NewReader(strings.Repeat("x", 100)))
			r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 10)
			r.Header.Set(HeaderKey, "a")
			return r
		}, 413, veriland.CodePayloadTooLarge},
		{"body unreadable", func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/v1/parcels", io.MultiReader(strings.NewReader("{"), errReader{}))
			r.Header.Set(HeaderKey, "a")
			return r
		}, 400, veriland.CodeInvalidJSON},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, c.req())
			require.Equal(t, c.status, w.Code)
			require.Contains(t, w.Body.String(), string(c.code))
		})
	}
	require.Zero(t, handler.runs.Load())

	require.NoError(t, s.Store.Close())
	w := post(h, "/v1/parcels", "k", "{}", "X-Sub", "s")
	require.Equal(t, http.StatusServiceUnavailable, w.Code)
	require.Zero(t, handler.runs.Load())
}

func TestHandlerSeesTheWholeBody(t *testing.T) {
	var got []byte
	_, _, h := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
	}))
	body := bytes.Repeat([]byte("0123456789"), 10_000)
	post(h, "/v1/parcels", "k", string(body), "X-Sub", "s")
	require.Equal(t, body, got)
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }
