package idempotency

import (
	"bytes"
	"net/http"
)

// recorder passes a response through to the client as it is written and keeps a copy
// of its status, headers and body for Complete.
type recorder struct {
	w        http.ResponseWriter
	status   int         // 0 until the header is written
	header   http.Header // snapshot taken when the header is written
	body     bytes.Buffer
	max      int
	overflow bool // the body outgrew max and is not kept
}

func (c *recorder) Header() http.Header { return c.w.Header() }

func (c *recorder) WriteHeader(code int) {
	if c.status == 0 && code >= 200 { // 1xx responses are informational, not the outcome
		c.status = code
		c.header = c.w.Header().Clone()
	}
	c.w.WriteHeader(code)
}

func (c *recorder) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	n, err := c.w.Write(p)
	if !c.overflow {
		if c.body.Len()+n > c.max {
			c.overflow = true
			c.body = bytes.Buffer{}
		} else {
			c.body.Write(p[:n])
		}
	}
	return n, err
}

// Flush streams what was written so far, when the client's writer can.
func (c *recorder) Flush() {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if f, ok := c.w.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the client's writer.
func (c *recorder) Unwrap() http.ResponseWriter { return c.w }

// response returns what was written, as a handler that wrote nothing answers 200.
func (c *recorder) response() Response {
	if c.status == 0 {
		return Response{Status: http.StatusOK, Header: c.w.Header().Clone()}
	}
	return Response{Status: c.status, Header: c.header, Body: bytes.Clone(c.body.Bytes())}
}
