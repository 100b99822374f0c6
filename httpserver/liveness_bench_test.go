package httpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/liveness"
)

// lvSet sets the test clock (the benchmark rewinds it after each verification so
// that every session starts at the same instant and the frames can be reused).
func (c *testClock) lvSet(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// lvCPU returns the user+system CPU time this process has used so far.
func lvCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLivenessVerifyRoute measures POST /liveness/verify with the largest body
// the route accepts (10,000 frame timestamps, 10 ms apart) through the full server:
// authentication, rate-limit bypass, strict decoding, validation, signature recovery,
// every check, the bbolt transaction (with fsync) and the signed LIVENESS
// attestation. Each iteration verifies a fresh session; starting the session and
// signing the proof happen with the timer stopped.
//
//   - http: through the httptest server (loopback TCP, client included);
//   - handler: Server.ServeHTTP directly, no network.
//
// Besides wall time (ns/op), cpu-ns/op is the CPU (user + system) the whole process
// spent in the timed part, per request: the server's work plus, for http, the client's.
func BenchmarkLivenessVerifyRoute(b *testing.B) {
	h := newHarness(b, func(c *Config) { c.RateLimits.Disabled = true })
	hl := newLvHolder(b, h, "liveness-bench")
	dev := newLvDevice(b)
	require.Equal(b, http.StatusCreated, h.lvEnroll(hl.tok, dev).status)
	t0 := h.clock.Now()

	const frames, intervalMs = 10000, 10 // 99.99 s of capture, inside the 120 s session
	// Every session starts at t0, so the frames, their root and their JSON are built once.
	proto := newLvProof(b, h.lvStartSession(b, hl.tok, "L2"), dev, frames, intervalMs)
	tsJSON, err := json.Marshal(proto.body["frameTimestamps"])
	require.NoError(b, err)
	captureEnd := t0.Add(time.Duration(frames*intervalMs+200) * time.Millisecond)

	// next starts a session at t0, signs a proof for it, moves the clock to the end of
	// the capture and returns the body. It is not timed, but a GC cycle its garbage
	// starts marks on the other processor during the timed request, and that counts
	// in cpu-ns/op; so it leaves little garbage. The session starts through
	// ServeHTTP without the OpenAPI check (the exchanges below are checked): the
	// check compiled the document's schemas again on every call, half a megabyte of
	// garbage per iteration, three times the verification's own; and the loopback
	// connection finished its exchange in goroutines of its own after the answer.
	// Together they were about a sixth of cpu-ns/op. The body is written into one
	// buffer (the server copies what it reads), the same bytes as json.Marshal of
	// the proof.
	tsMarker := json.RawMessage(`"the timestamps go here"`)
	var (
		body []byte
		last *lvProof
	)
	next := func() []byte {
		h.clock.lvSet(t0)
		sess := h.lvStartSessionDirect(b, hl.tok, "L2")
		p := &lvProof{sess: sess, dev: dev, body: map[string]any{}}
		for k, v := range proto.body {
			p.body[k] = v
		}
		p.body["sessionId"] = sess.ID
		p.sign(b, dev.key)
		p.body["frameTimestamps"] = tsMarker
		rest, err := json.Marshal(p.body)
		require.NoError(b, err)
		before, after, ok := bytes.Cut(rest, tsMarker)
		require.True(b, ok)
		body = append(append(append(body[:0], before...), tsJSON...), after...)
		h.clock.lvSet(captureEnd)
		last = p
		return body
	}

	// One exchange checked against the OpenAPI document, request and response, and a
	// session started as next starts them checked too.
	h.clock.lvSet(captureEnd)
	r := h.lvVerify(hl.tok, proto)
	require.Equal(b, http.StatusCreated, r.status, string(r.body))
	h.clock.lvSet(t0)
	h.lvStartSession(b, hl.tok, "L2")
	first := next()
	last.body["frameTimestamps"] = json.RawMessage(tsJSON)
	want, err := json.Marshal(last.body)
	require.NoError(b, err)
	require.Equal(b, string(want), string(first))
	b.Logf("request body: %d bytes", len(first))

	run := func(b *testing.B, post func(body []byte) int) {
		b.ReportAllocs()
		var cpu time.Duration
		b.StopTimer()
		for i := 0; i < b.N; i++ {
			body := next()
			// The CPU is read inside the timer's window: StartTimer and StopTimer
			// each read the memory statistics, which stops the world, and that is
			// the benchmark's cost, not the request's (about 0.1 ms a request here).
			b.StartTimer()
			c0 := lvCPU(b)
			status := post(body)
			c1 := lvCPU(b)
			b.StopTimer()
			cpu += c1 - c0
			if status != http.StatusCreated {
				b.Fatalf("status %d", status)
			}
		}
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.Run("http", func(b *testing.B) {
		run(b, func(body []byte) int {
			// Validated once above; the document check would dominate the client's CPU.
			return h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok, body: body, skipSpec: true}).status
		})
	})
	b.Run("handler", func(b *testing.B) {
		run(b, func(body []byte) int {
			req := httptest.NewRequest("POST", "/liveness/verify", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+hl.tok)
			w := httptest.NewRecorder()
			h.srv.ServeHTTP(w, req)
			return w.Code
		})
	})
}

// lvStartSessionDirect is lvStartSession through Server.ServeHTTP, without the
// network and the OpenAPI check, for a benchmark's untimed part.
func (h *harness) lvStartSessionDirect(b *testing.B, tok, level string) lvSession {
	req := httptest.NewRequest("POST", "/liveness/session", strings.NewReader(`{"requestedLevel":"`+level+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	w := httptest.NewRecorder()
	h.srv.ServeHTTP(w, req)
	require.Equal(b, http.StatusCreated, w.Code, w.Body.String())
	var s struct {
		SessionID string    `json:"sessionId"`
		Nonce     string    `json:"nonce"`
		Level     string    `json:"level"`
		ExpiresAt time.Time `json:"expiresAt"`
	}
	require.NoError(b, json.Unmarshal(w.Body.Bytes(), &s))
	require.Equal(b, level, s.Level)
	return lvSession{ID: s.SessionID, Nonce: s.Nonce, Level: s.Level, Start: h.clock.Now().UnixMilli(), Expires: s.ExpiresAt}
}

// lvDecodeBenchBody is the seed's verification body with 10,000 timestamps in
// fractional milliseconds.
func lvDecodeBenchBody(tb testing.TB) []byte {
	ts := make(liveness.Timestamps, 10000)
	for i := range ts {
		ts[i] = 1795000000000.125 + float64(i)*10.25
	}
	f, x, n, d := false, 0.9, 10000.0, 102474.0
	body, err := json.Marshal(liveness.VerifyRequest{
		SessionID: "lvs_" + strings.Repeat("a", 26), DevicePublicKey: "0x" + strings.Repeat("ab", 20),
		Attestation: &liveness.DeviceAttestation{Type: "MOCK", Token: "mock-attestation-token"},
		MerkleRoot:  "0x" + strings.Repeat("22", 32), FrameTimestamps: ts, DeviceSignature: "0x" + strings.Repeat("11", 65),
		Evidence: &liveness.Evidence{
			Challenge: &liveness.ChallengeEvidence{HueScore: &x, LatencyMs: &x},
			Sensor:    &liveness.SensorEvidence{ParallaxScore: &x, IMUCorrelation: &x},
			Camera:    &liveness.CameraEvidence{PhysicalSensorID: "0", VirtualSourceSuspected: &f},
			Timing:    &liveness.TimingEvidence{FrameJitterMs: &x, SessionDurationMs: &d, FrameCount: &n},
		},
	})
	require.NoError(tb, err)
	require.Contains(tb, string(body), "1795000000000.125,1795000000010.375,")
	return body
}

// BenchmarkLivenessDecode compares, on lvDecodeBenchBody, the route's one-pass
// decoding (decodeVerifyBody) with the server's general strict decoding
// (decodeStrict), the tree-based decoding that one replaced (oracleDecodeStrict) and
// a plain json.Unmarshal (no member check).
func BenchmarkLivenessDecode(b *testing.B) {
	body := lvDecodeBenchBody(b)
	verifyBody := func(body []byte, dst any) error { return decodeVerifyBody(body, dst.(*liveness.VerifyRequest)) }
	for _, c := range []struct {
		name   string
		decode func([]byte, any) error
	}{{"decodeVerifyBody", verifyBody}, {"decodeStrict", decodeStrict}, {"tree-oracle", oracleDecodeStrict}, {"json.Unmarshal", json.Unmarshal}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var req liveness.VerifyRequest
				if err := c.decode(body, &req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
