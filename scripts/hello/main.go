// Command hello is the anchor of scripts/bench.sh's HTTP rows: a bare net/http
// server that answers every GET with a short JSON body, with no middleware, no
// routing and no storage. It listens on -addr (loopback by default; port 0 picks a
// free port) and prints "listening on http://ADDR" on stderr once it accepts
// connections, as the reference server does.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// body is about the size of GET /v1/health's answer.
var body = []byte(`{"status":"ok","version":"dev","checks":{"storage":"ok"}}` + "\n")

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "listening on http://%s\n", ln.Addr())
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(body)
		}),
		ReadHeaderTimeout: 5 * time.Second,
		IdleTimeout:       time.Minute,
	}
	if err := srv.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
}
