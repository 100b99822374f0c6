package htmlpage

import (
	"net/http"
	"strconv"
)

// MediaType is the content type of every page.
const MediaType = "text/html; charset=utf-8"

// Write answers body as an HTML page with status and the headers every page carries:
// its Content-Security-Policy csp, nosniff, no referrer, no caching, no framing, and
// its length. Headers the caller set before (Content-Language, Vary, …) are kept.
func Write(w http.ResponseWriter, status int, csp string, body []byte) error {
	h := w.Header()
	h.Set("Content-Type", MediaType)
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, err := w.Write(body)
	return err
}
