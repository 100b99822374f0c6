package idempotency_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/idempotency"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "idempotency-example")
	defer os.RemoveAll(dir)
	db, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer db.Close()

	created := 0
	createParcel := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		created++
		w.Header().Set("Content-Type", "application/vnd.api+json")
		w.Header().Set("Location", fmt.Sprintf("/v1/parcels/prc_%d", created))
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"data":{"type":"parcels","id":"prc_%d"}}`, created)
	})
	// After authentication, the scope comes from the principal.
	scopeOf := func(r *http.Request) (idempotency.Scope, bool) {
		p, ok := veriland.PrincipalFrom(r.Context())
		if !ok {
			return idempotency.Scope{}, false
		}
		return idempotency.Scope{Env: p.Env, Subject: p.Subject, Method: r.Method, Path: r.URL.Path}, true
	}
	// httpserver's error writer goes here; this one only reports the code.
	onError := func(w http.ResponseWriter, r *http.Request, err error) {
		fmt.Println("error:", veriland.CodeOf(err))
		w.WriteHeader(http.StatusBadRequest)
	}
	h := idempotency.Middleware(&idempotency.Store{Store: db}, scopeOf, onError)(createParcel)

	send := func(body string) {
		r := httptest.NewRequest(http.MethodPost, "/v1/parcels", strings.NewReader(body))
		r.Header.Set("Idempotency-Key", `"5f1c6c1e-parcel-A-1"`)
		r = r.WithContext(veriland.WithPrincipal(r.Context(), veriland.Principal{
			Subject: "NOT-ABJ-0042", Role: veriland.RoleNotary, Env: veriland.Sandbox,
		}))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code < 400 {
			fmt.Println(w.Code, w.Header().Get("Location"), w.Header().Get("Idempotent-Replayed"), w.Body.String())
		}
	}
	send(`{"lga":"Abuja"}`)
	send(`{"lga":"Abuja"}`) // a retry: replayed, nothing created
	send(`{"lga":"Lagos"}`) // same key, another body
	fmt.Println("created:", created)
	// Output:
	// 201 /v1/parcels/prc_1  {"data":{"type":"parcels","id":"prc_1"}}
	// 201 /v1/parcels/prc_1 true {"data":{"type":"parcels","id":"prc_1"}}
	// error: idempotency_key_reused
	// created: 1
}
