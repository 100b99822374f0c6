package httpserver_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "veriland-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	issuerKey, _ := crypto.GenerateKey()
	cfg, err := httpserver.WithDefaultServices(httpserver.Config{
		Store: store,
		Tokens: &auth.Tokens{Rand: rand.Reader, Secrets: auth.Secrets{
			Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}},
		PublicOrigin: "https://veriland.example",
	}, httpserver.Keys{Pepper: bytes.Repeat([]byte("k"), 32), IssuerKey: issuerKey})
	if err != nil {
		panic(err)
	}
	srv, err := httpserver.New(cfg)
	if err != nil {
		panic(err)
	}

	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/v1/health")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(bytes.TrimSpace(body)))
	// Output: 200 {"status":"ok","version":"dev","checks":{"anchor":"disabled","storage":"ok","webhooks":"ok"}}
}
