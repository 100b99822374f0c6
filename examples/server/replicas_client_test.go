package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// attemptTimeout bounds one HTTP attempt: generous, so that on a loaded machine only
// the killed replica ever produces a transport error.
const attemptTimeout = 60 * time.Second

// writeBudget bounds one write with all its retries.
const writeBudget = 60 * time.Second

// call is one HTTP request of the test.
type call struct {
	method, path, token string
	body                []byte
	key                 string            // Idempotency-Key; every write carries one
	header              map[string]string // more request headers
	first               int               // the replica to try first; -1: the next in turn
	// siblings, shared by writes that send one key at once, counts their attempts that
	// were cut off: the key may then be held by a dead replica for any of them.
	siblings *atomic.Int32
}

// answer is one HTTP response.
type answer struct {
	status  int
	body    []byte
	header  http.Header
	replica string // which replica answered
}

func (a answer) String() string {
	body := a.body
	if len(body) > 400 {
		body = body[:400]
	}
	return fmt.Sprintf("%d from %s: %s", a.status, a.replica, body)
}

// writeResult is what a write with retries came to.
type writeResult struct {
	answer
	// acked: a 2xx was received, from the first attempt or a retry.
	acked bool
	// unknown: no definitive answer: an attempt was cut off (its replica was killed)
	// and its Idempotency-Key stays reserved by that attempt, so a retry is answered
	// idempotency_key_in_flight until the reservation's lease ends. The write may or
	// may not have committed; the checks find out by reading.
	unknown bool
	// cut counts attempts that were sent but ended in a transport error (not those
	// refused before anything was sent).
	cut int
}

// traffic counts what the clients saw, across all of them.
type traffic struct {
	requests, transportErrors, inFlight409, throttled atomic.Int64
	mu                                                sync.Mutex
	serverErrors                                      []string // 5xx answers, verbatim
	unexpected                                        []string // other answers no flow expects
}

func (tr *traffic) note(list *[]string, format string, args ...any) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if len(*list) < 50 {
		*list = append(*list, fmt.Sprintf(format, args...))
	}
}

// client is one load client. It has a loopback source address of its own, so that the
// per-IP rate limit and the idempotency scope of public routes are its own, and it
// spreads its requests over the replicas in turn, as a round-robin load balancer does,
// moving on to the next replica when one does not answer.
type client struct {
	id      int
	bases   []string
	names   []string
	http    *http.Client
	next    atomic.Uint64
	traffic *traffic
}

// newClient returns a client whose connections come from source (nil: any address).
func newClient(id int, source net.IP, bases, names []string, tr *traffic) *client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	if source != nil {
		dialer.LocalAddr = &net.TCPAddr{IP: source}
	}
	transport := &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 4, IdleConnTimeout: time.Minute}
	return &client{id: id, bases: bases, names: names, traffic: tr,
		http: &http.Client{Transport: transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *client) close() { c.http.CloseIdleConnections() }

// pick returns the replica for the next attempt.
func (c *client) pick(cl call, attempt int) int {
	if cl.first >= 0 {
		return (cl.first + attempt) % len(c.bases)
	}
	return int(c.next.Add(1) % uint64(len(c.bases)))
}

// send makes one attempt on replica i.
func (c *client) send(ctx context.Context, i int, cl call) (answer, error) {
	ctx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	var body io.Reader
	if cl.body != nil {
		body = bytes.NewReader(cl.body)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, c.bases[i]+cl.path, body)
	if err != nil {
		return answer{}, err
	}
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
		// net/http replays a request that carries an Idempotency-Key on a new
		// connection when a reused one breaks, even after sending it; the error then
		// reported is the new connection's (refused, when the replica is dead), which
		// would hide that the request was sent. Without GetBody it cannot replay a
		// body it has sent, and reports the break.
		req.GetBody = nil
	}
	req.Header.Set("Accept", "application/json")
	if cl.token != "" {
		req.Header.Set("Authorization", "Bearer "+cl.token)
	}
	if cl.key != "" {
		req.Header.Set("Idempotency-Key", cl.key)
	}
	for k, v := range cl.header {
		req.Header.Set(k, v)
	}
	c.traffic.requests.Add(1)
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	return answer{status: resp.StatusCode, body: b, header: resp.Header, replica: c.names[i]}, nil
}

// read makes a GET (or any request without side effects) on the replicas in turn until
// one answers; a 5xx is noted and retried elsewhere, a 429 waited out.
func (c *client) read(ctx context.Context, cl call) (answer, error) {
	var last error
	for attempt := 0; attempt < 4*len(c.bases); attempt++ {
		a, err := c.send(ctx, c.pick(cl, attempt), cl)
		switch {
		case ctx.Err() != nil:
			return a, ctx.Err()
		case err != nil:
			c.traffic.transportErrors.Add(1)
			last = err
			pause(ctx, transportPause(err))
			continue
		case a.status == http.StatusTooManyRequests:
			c.traffic.throttled.Add(1)
			pause(ctx, retryAfter(a))
			continue
		case a.status >= 500:
			c.traffic.note(&c.traffic.serverErrors, "%s %s: %s", cl.method, cl.path, a)
			last = fmt.Errorf("%s %s: %s", cl.method, cl.path, a)
			pause(ctx, 200*time.Millisecond)
			continue
		}
		return a, nil
	}
	return answer{}, fmt.Errorf("%s %s: no replica answered: %w", cl.method, cl.path, last)
}

// write makes a POST with its Idempotency-Key, retried on the next replica after a
// transport error, a 5xx or a 429, and after idempotency_key_in_flight while the first
// attempt runs; it stops at the first other answer. A key still in flight after an
// attempt of this write was cut off belongs to that attempt's dead replica: the write is
// then unknown (see writeResult).
func (c *client) write(ctx context.Context, cl call) writeResult {
	ctx, cancel := context.WithTimeout(ctx, writeBudget)
	defer cancel()
	var res writeResult
	wait := 50 * time.Millisecond
	for attempt := 0; ; attempt++ {
		a, err := c.send(ctx, c.pick(cl, attempt), cl)
		switch {
		case ctx.Err() != nil:
			res.unknown = true // whatever was sent may or may not have run
			if res.cut == 0 && (cl.siblings == nil || cl.siblings.Load() == 0) && attempt > 0 {
				// No replica died holding the key, yet it never became free.
				c.traffic.note(&c.traffic.unexpected, "%s %s: key %s still unanswered after %s (last: %s)", cl.method, cl.path, cl.key, writeBudget, res.answer)
			}
			res.answer = answer{status: 0, body: []byte(ctx.Err().Error())}
			return res
		case err != nil:
			c.traffic.transportErrors.Add(1)
			if !neverSent(err) {
				res.cut++
				if cl.siblings != nil {
					cl.siblings.Add(1)
				}
			}
			pause(ctx, transportPause(err))
			continue
		case a.status == http.StatusConflict && bytes.Contains(a.body, []byte(`idempotency_key_in_flight`)):
			c.traffic.inFlight409.Add(1)
			res.answer = a
			if res.cut > 0 || cl.siblings != nil && cl.siblings.Load() > 0 {
				res.answer, res.unknown = a, true
				return res
			}
			pause(ctx, wait)
			wait = min(2*wait, time.Second)
			continue
		case a.status == http.StatusTooManyRequests:
			c.traffic.throttled.Add(1)
			pause(ctx, retryAfter(a))
			continue
		case a.status >= 500:
			c.traffic.note(&c.traffic.serverErrors, "%s %s: %s", cl.method, cl.path, a)
			pause(ctx, 200*time.Millisecond)
			continue
		}
		res.answer = a
		res.acked = a.status >= 200 && a.status < 300
		return res
	}
}

// neverSent reports whether err stopped an attempt before its request left: the
// connection could not be made (the replica is down), so the attempt cannot have
// done anything.
func neverSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// transportPause is how long to wait before the next attempt after a transport
// error: none when the replica refused the connection (it is down; the next one is
// tried at once), a little otherwise.
func transportPause(err error) time.Duration {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return 0
	}
	return 50 * time.Millisecond
}

func retryAfter(a answer) time.Duration {
	if s, err := strconv.Atoi(a.header.Get("Retry-After")); err == nil && s > 0 {
		return min(time.Duration(s)*time.Second, 5*time.Second)
	}
	return time.Second
}

func pause(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// decode reads a JSON answer into v.
func decode(a answer, v any) error {
	if err := json.Unmarshal(a.body, v); err != nil {
		return fmt.Errorf("decoding %s: %w", a, err)
	}
	return nil
}

// attributes returns data.attributes of a JSON:API document.
func attributes(a answer) (map[string]any, error) {
	var doc struct {
		Data struct {
			ID         string         `json:"id"`
			Attributes map[string]any `json:"attributes"`
		} `json:"data"`
	}
	if err := decode(a, &doc); err != nil {
		return nil, err
	}
	if doc.Data.Attributes == nil {
		return nil, fmt.Errorf("no data.attributes in %s", a)
	}
	return doc.Data.Attributes, nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
