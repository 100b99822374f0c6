package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// UserAgent is sent with every delivery.
const UserAgent = "veriland-webhooks/1"

// Attempt records one delivery attempt, for the deliveries API and for the outbox to
// decide what happens next.
type Attempt struct {
	At         time.Time     // when the attempt started; also its webhook-timestamp
	StatusCode int           // the receiver's HTTP status, 0 if none was received
	Latency    time.Duration // from sending the request to reading the response (or failing)
	Err        string        // why the attempt failed, "" on success; safe to show the verifier
}

// Succeeded reports whether the receiver acknowledged the event: a 2xx status within
// DeliveryTimeout.
func (a Attempt) Succeeded() bool { return a.Err == "" && a.StatusCode >= 200 && a.StatusCode < 300 }

// Deliver POSTs one signed event to url and records the attempt. It signs with every
// secret (old and new during a rotation), sets Content-Type application/json and
// User-Agent, and reads at most MaxResponseBody bytes of the answer. The attempt
// succeeds only for a 2xx received within DeliveryTimeout; a redirect, any other
// status, a refused address or a timeout fails it.
//
// client should come from NewClient: Deliver relies on it for the SSRF rules, the
// refusal of redirects and the body cap, and adds only its own DeliveryTimeout. now is
// the attempt's time (the outbox's clock); latency is measured on the monotonic clock.
// Deliver never returns an error: every failure is in the Attempt.
func Deliver(ctx context.Context, client *http.Client, url string, secrets []Secret, msgID string, eventBody []byte, now time.Time) Attempt {
	a := Attempt{At: now}
	sig := Sign(secrets, msgID, now, eventBody)
	if sig == "" {
		a.Err = "no webhook secret to sign with"
		return a
	}
	ctx, cancel := context.WithTimeout(ctx, DeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(eventBody))
	if err != nil {
		a.Err = "invalid callback URL"
		return a
	}
	req.Header.Set(HeaderID, msgID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(HeaderSignature, sig)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)

	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		a.Latency = time.Since(start)
		a.Err = describe(err)
		return a
	}
	a.StatusCode = resp.StatusCode
	// Drain (up to the cap) so the connection can be reused, and so that a receiver that
	// stalls mid-body is caught by the timeout rather than acknowledged.
	_, err = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxResponseBody))
	resp.Body.Close()
	a.Latency = time.Since(start)
	switch {
	case err != nil:
		a.Err = describe(err)
	case a.Latency > DeliveryTimeout:
		a.Err = "receiver answered after the delivery timeout"
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		a.Err = fmt.Sprintf("receiver answered HTTP %d", resp.StatusCode)
	}
	return a
}

// describe turns a client error into a short reason for the attempt log.
func describe(err error) string {
	switch {
	case errors.Is(err, ErrDisallowedAddress):
		return "callback address not allowed: " + err.Error()
	case errors.Is(err, ErrDisallowedURL):
		return "callback URL not allowed: " + err.Error()
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return "no answer within the delivery timeout"
	}
	return err.Error()
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
