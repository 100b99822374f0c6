package httpserver

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/testenv"
)

// TestConsentPageInChromium drives the real consent page in headless Chromium
// against the real test server, over the Chrome DevTools Protocol (a minimal
// WebSocket client below; no dependency). The holder's wallet is a test EIP-1193
// provider injected before the page's own script runs; it hands each request to Go
// through a CDP binding, and Go answers it: eth_requestAccounts with the holder's
// address, eth_signTypedData_v4 by checking the typed data the page built and
// signing it with go-ethereum. The page itself has no test hooks.
//
// Without Chromium (see findChromium) it fails under CI=true and skips elsewhere.
// It also checks that the browser reports no script error and no
// Content-Security-Policy violation, so an inline event handler, a second script or
// an HTML sink that Trusted Types blocks would fail here.
func TestConsentPageInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the consent page)", "set VERILAND_CHROMIUM, or put chromium, chromium-browser or google-chrome on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	f := newConsentFlow(t, h)
	b := launchBrowser(t, bin)

	t.Run("approve", func(t *testing.T) {
		id := f.request(t, nil)
		ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
		approve := ctx["presets"].([]any)[0].(map[string]any)
		w := &testWallet{t: t, key: f.wallet, wantDecision: "APPROVED", wantHash: approve["disclosedScopeHash"].(string), wantRequestID: id}
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('decide').hidden && !document.getElementById('approve').disabled`)

		// What the holder is shown.
		require.Equal(t, "Acme Bank", p.text("#verifier-name"))
		require.Equal(t, "verifier-acme-bank", p.text("#verifier-id"))
		require.Equal(t, f.did, p.text("#subject"))
		require.Equal(t, "account opening", p.text("#reason"))
		require.Equal(t, id, p.text("#request-id"))
		require.Equal(t, ctx["expiresAt"], p.eval(`document.getElementById('deadline').dateTime`))
		// Scope items in words, with their codes as a detail.
		require.Equal(t, []any{"That you are an adult", "Your nationality"}, p.eval(`Array.from(document.querySelectorAll('#scope li .label'), e => e.textContent)`))
		require.Equal(t, []any{"is_adult", "nationality"}, p.eval(`Array.from(document.querySelectorAll('#scope li code'), e => e.textContent)`))
		require.Equal(t, "Your verified identity", p.text("#subject-label"), "the DID is a detail, not the main text")
		require.Equal(t, "Waiting for your answer", p.text("#request-status"))
		require.Contains(t, p.text("#status"), "Request loaded")
		require.Contains(t, p.text("#mode"), "never its value", "PROOF_ONLY, the default")
		require.True(t, p.eval(`document.getElementById('liveness').hidden`).(bool))

		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Approved'`)
		require.Equal(t, "result-title", p.eval(`document.activeElement.id`), "focus moves to the result")
		require.True(t, p.eval(`document.getElementById('decide').hidden`).(bool), "nothing more to sign")
		require.Equal(t, 2, w.calls(), "eth_requestAccounts, then eth_signTypedData_v4")

		st := h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)
		require.Equal(t, "APPROVED", st["status"])
		require.Equal(t, "Consent attestation ID: "+st["attestationId"].(string), p.text("#result-detail"))
		require.Equal(t, "Approved", p.text("#request-status"))
		require.False(t, p.eval(`document.getElementById('withdraw').hidden`).(bool), "the holder may withdraw now")
		p.noProblems()
	})

	t.Run("reject, with markup in what the verifier wrote", func(t *testing.T) {
		evil := `<img src=x onerror="document.title='pwned'"><script>document.title='pwned'</script>`
		// The display name is the API key's: an admin may name a key anything.
		_, tok := createNamedKey(t, h, f.adminTok, "verifier", "verifier-markup", `<b>Acme</b> & "Co"`)
		id := f.requestAs(t, tok, map[string]any{"reason": "because " + evil})
		ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
		reject := ctx["presets"].([]any)[1].(map[string]any)
		w := &testWallet{t: t, key: f.wallet, wantDecision: "REJECTED", wantHash: reject["disclosedScopeHash"].(string), wantRequestID: id}
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('decide').hidden && !document.getElementById('reject').disabled`)

		require.Equal(t, "because "+evil, p.text("#reason"), "shown as text")
		require.Equal(t, `<b>Acme</b> & "Co"`, p.text("#verifier-name"))
		require.EqualValues(t, 0, p.eval(`document.querySelectorAll('img, b, main script').length`), "no markup was made")
		require.Equal(t, "Consent request", p.eval(`document.title`))

		// Keyboard: focus the button and press Enter.
		p.eval(`document.getElementById('reject').focus()`)
		p.key("Enter")
		p.waitFor(`document.getElementById('result-title').textContent === 'Rejected'`)
		require.Equal(t, "result-title", p.eval(`document.activeElement.id`))
		require.Equal(t, "REJECTED", h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)["status"])

		// Reloaded, a decided request offers nothing to sign.
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('details').hidden`)
		require.True(t, p.eval(`document.getElementById('decide').hidden`).(bool))
		require.Contains(t, p.text("#status"), "There is nothing to sign")
		require.Equal(t, "Rejected", p.text("#request-status"))
		p.noProblems()
	})

	t.Run("SELECTIVE with a liveness requirement", func(t *testing.T) {
		id := f.request(t, map[string]any{"mode": "SELECTIVE", "requireLiveness": map[string]any{"minLevel": "L3", "maxAgeDays": 7}})
		p := b.newPage(t, &testWallet{t: t, key: f.wallet})
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('decide').hidden && !document.getElementById('approve').disabled`)
		require.Contains(t, p.text("#mode"), "receives the values")
		require.Equal(t, "Approving also needs a recent liveness check of yours (level L3 or higher, at most 7 days old).", p.text("#liveness"))
		p.noProblems()
	})

	t.Run("a fact that does not hold is refused, and shown", func(t *testing.T) {
		minor, _ := crypto.GenerateKey()
		did := h.issueIdentityWith(t, "minor-"+t.Name(), minor, map[string]any{"scenario": "success", "is_adult": false})
		id := f.request(t, map[string]any{"subjectRef": did, "scope": []string{"is_adult"}})
		ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
		approve := ctx["presets"].([]any)[0].(map[string]any)
		w := &testWallet{t: t, key: minor, wantDecision: "APPROVED", wantHash: approve["disclosedScopeHash"].(string), wantRequestID: id}
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('approve').disabled && !document.getElementById('decide').hidden`)
		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Error'`)
		require.Contains(t, p.text("#result-detail"), "Claim unavailable")
		require.Contains(t, p.text("#result-detail"), "is_adult")
		require.False(t, p.eval(`document.getElementById('reject').disabled`).(bool), "the holder can still reject")
		require.Equal(t, "PENDING", h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)["status"])
		p.noProblems()
	})

	t.Run("the server's refusal is shown", func(t *testing.T) {
		id := f.request(t, nil)
		other, _ := crypto.GenerateKey() // not the subject's wallet
		w := &testWallet{t: t, key: other, wantDecision: "APPROVED", wantRequestID: id}
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('approve').disabled && !document.getElementById('decide').hidden`)
		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Error'`)
		require.Contains(t, p.text("#result-detail"), "not the wallet bound to the subject")
		require.Equal(t, "result-title", p.eval(`document.activeElement.id`))
		require.False(t, p.eval(`document.getElementById('approve').disabled`).(bool), "the holder may try again")
		require.Equal(t, "PENDING", h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)["status"])
	})

	t.Run("declined in the wallet", func(t *testing.T) {
		id := f.request(t, nil)
		w := &testWallet{t: t, key: f.wallet, decline: true}
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('approve').disabled && !document.getElementById('decide').hidden`)
		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Cancelled'`)
		require.Equal(t, "PENDING", h.do(request{method: "GET", path: "/verify/request/" + id}).json(t)["status"])
	})

	t.Run("no wallet", func(t *testing.T) {
		id := f.request(t, nil)
		p := b.newPage(t, nil)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('wallet-missing').hidden`)
		require.True(t, p.eval(`document.getElementById('approve').disabled && document.getElementById('reject').disabled`).(bool))
		require.Contains(t, p.text("#status"), "No Ethereum wallet was found")
		p.noProblems()
	})

	t.Run("unknown request", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.navigate(h.ts.URL + "/consent/vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa")
		require.Equal(t, "Consent request not found", p.text("h1"))
		require.Nil(t, p.eval(`document.getElementById('details')`), "nothing of a request")
		p.noProblems()
	})
}

// findChromium returns the browser to drive: $VERILAND_CHROMIUM (an error when it
// is set but names no executable: a misconfigured CI must not skip silently), else
// the first of chromium, chromium-browser, google-chrome on PATH, else "".
func findChromium() (string, error) {
	if p := os.Getenv("VERILAND_CHROMIUM"); p != "" {
		abs, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("VERILAND_CHROMIUM=%s: %w", p, err)
		}
		return abs, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", nil
}

// testWallet answers the page's EIP-1193 requests.
type testWallet struct {
	t             *testing.T
	key           *ecdsa.PrivateKey
	decline       bool   // answer every request with the user's refusal (4001)
	wantDecision  string // what the typed data must say
	wantHash      string // its disclosedScopeHash; "" to not check
	wantRequestID string
	// checkTyped, when set, checks the typed data to sign instead of the Consent
	// checks above (another page's primary type).
	checkTyped func(td apitypes.TypedData)

	mu   sync.Mutex
	n    int
	siwe []string // the Sign-In with Ethereum messages signed
}

func (w *testWallet) calls() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// handle answers one request: the result, or an EIP-1193 error (code, message).
func (w *testWallet) handle(method string, params []json.RawMessage) (any, *walletError) {
	w.mu.Lock()
	w.n++
	w.mu.Unlock()
	if w.decline {
		return nil, &walletError{Code: 4001, Message: "User rejected the request."}
	}
	addr := crypto.PubkeyToAddress(w.key.PublicKey)
	switch method {
	case "eth_requestAccounts", "eth_accounts":
		return []string{strings.ToLower(addr.Hex())}, nil
	case "personal_sign":
		// Sign-In with Ethereum: the message (hex UTF-8) must be one the server's
		// parser takes, for this wallet's checksummed address.
		require.Len(w.t, params, 2)
		var msgHex, from string
		require.NoError(w.t, json.Unmarshal(params[0], &msgHex))
		require.NoError(w.t, json.Unmarshal(params[1], &from))
		require.Equal(w.t, addr.Hex(), from, "the EIP-55 checksummed address")
		text, err := hexutil.Decode(msgHex)
		require.NoError(w.t, err)
		msg, err := siwe.Parse(string(text))
		require.NoError(w.t, err, "%s", text)
		require.Equal(w.t, addr.Hex(), msg.Address)
		w.mu.Lock()
		w.siwe = append(w.siwe, string(text))
		w.mu.Unlock()
		sig, err := ethsig.Sign(w.key, ethsig.PersonalDigest(text))
		require.NoError(w.t, err)
		return hexutil.Encode(sig), nil
	case "eth_signTypedData_v4":
		require.Len(w.t, params, 2)
		var from, raw string
		require.NoError(w.t, json.Unmarshal(params[0], &from))
		require.NoError(w.t, json.Unmarshal(params[1], &raw), "the typed data is passed as a JSON string")
		require.True(w.t, strings.EqualFold(addr.Hex(), from), "signs with the connected account")
		var td apitypes.TypedData
		require.NoError(w.t, json.Unmarshal([]byte(raw), &td))
		if w.checkTyped != nil {
			w.checkTyped(td)
		} else {
			require.Equal(w.t, "Consent", td.PrimaryType)
			require.Equal(w.t, w.wantRequestID, td.Message["requestId"])
			require.Equal(w.t, w.wantDecision, td.Message["decision"])
			if w.wantHash != "" {
				require.Equal(w.t, w.wantHash, td.Message["disclosedScopeHash"])
			}
		}
		digest, _, err := apitypes.TypedDataAndHash(td)
		require.NoError(w.t, err)
		sig, err := crypto.Sign(digest, w.key)
		require.NoError(w.t, err)
		sig[64] += 27 // as wallets do
		return hexutil.Encode(sig), nil
	}
	return nil, &walletError{Code: 4200, Message: "unsupported method " + method}
}

type walletError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// walletScript defines window.ethereum before any page script runs. Each request
// goes to Go through the veriWallet binding; Go settles it with __veriWalletSettle.
const walletScript = `(function () {
  var pending = {}, next = 0;
  Object.defineProperty(window, '__veriWalletSettle', { value: function (id, error, result) {
    var p = pending[id]; delete pending[id];
    if (!p) { return; }
    if (error) { var e = new Error(error.message); e.code = error.code; p.reject(e); } else { p.resolve(result); }
  } });
  window.ethereum = {
    request: function (args) {
      return new Promise(function (resolve, reject) {
        var id = ++next;
        pending[id] = { resolve: resolve, reject: reject };
        veriWallet(JSON.stringify({ id: id, method: args.method, params: args.params || [] }));
      });
    }
  };
}());`

// browser is a headless Chromium driven over CDP.
type browser struct {
	cdp *cdpConn
}

func launchBrowser(t *testing.T, bin string) *browser {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-extensions", "--disable-default-apps", "--no-first-run", "--no-default-browser-check",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--remote-debugging-port=0", "about:blank")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()

	wsURL := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`DevTools listening on (ws://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case wsURL <- m[1]:
				default:
				}
			}
		}
	}()
	var u string
	select {
	case u = <-wsURL:
	case <-done:
		t.Fatalf("%s exited before DevTools listened", bin)
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("%s: no DevTools endpoint after 30s", bin)
	}
	conn, err := dialCDP(u)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, _ = conn.call(context.Background(), "", "Browser.close", nil)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		conn.close()
	})
	return &browser{cdp: conn}
}

// tab is one browser tab, attached with its own CDP session.
type tab struct {
	t       *testing.T
	b       *browser
	session string
	wallet  *testWallet
	events  chan cdpMessage

	mu       sync.Mutex
	problems []string // exceptions, console errors and CSP violations
}

func (b *browser) newPage(t *testing.T, w *testWallet) *tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var created struct {
		TargetID string `json:"targetId"`
	}
	b.mustCall(t, ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &created)
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	b.mustCall(t, ctx, "", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached)
	p := &tab{t: t, b: b, session: attached.SessionID, wallet: w, events: b.cdp.subscribe(attached.SessionID)}
	t.Cleanup(func() {
		_, _ = b.cdp.call(context.Background(), "", "Target.closeTarget", map[string]any{"targetId": created.TargetID})
	})
	for _, m := range []string{"Runtime.enable", "Page.enable", "Log.enable"} {
		b.mustCall(t, ctx, p.session, m, nil, nil)
	}
	if w != nil {
		b.mustCall(t, ctx, p.session, "Runtime.addBinding", map[string]any{"name": "veriWallet"}, nil)
		b.mustCall(t, ctx, p.session, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": walletScript}, nil)
	}
	return p
}

func (b *browser) mustCall(t *testing.T, ctx context.Context, session, method string, params any, out any) {
	t.Helper()
	res, err := b.cdp.call(ctx, session, method, params)
	require.NoError(t, err, method)
	if out != nil {
		require.NoError(t, json.Unmarshal(res, out), method)
	}
}

func (p *tab) call(method string, params any, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p.b.mustCall(p.t, ctx, p.session, method, params, out)
}

func (p *tab) navigate(u string) {
	p.t.Helper()
	var res struct {
		ErrorText string `json:"errorText"`
	}
	p.call("Page.navigate", map[string]any{"url": u}, &res)
	require.Empty(p.t, res.ErrorText, "navigating to %s", u)
	p.waitFor(`document.readyState === 'complete' && location.href === ` + jsString(u))
}

// eval evaluates a JavaScript expression in the page and returns its JSON value.
func (p *tab) eval(expr string) any {
	p.t.Helper()
	var res struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	p.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if res.ExceptionDetails != nil {
		p.t.Fatalf("evaluating %s: %s %s", expr, res.ExceptionDetails.Text, res.ExceptionDetails.Exception.Description)
	}
	return res.Result.Value
}

func (p *tab) text(selector string) string {
	p.t.Helper()
	v, _ := p.eval(`(function () { var e = document.querySelector(` + jsString(selector) + `); return e ? e.textContent : null; }())`).(string)
	return v
}

func (p *tab) click(selector string) {
	p.t.Helper()
	p.eval(`document.querySelector(` + jsString(selector) + `).click()`)
}

// key presses and releases a key as the keyboard would, on the focused element.
func (p *tab) key(key string) {
	p.t.Helper()
	params := map[string]any{"key": key, "code": key, "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13}
	if key == "Enter" {
		params["text"] = "\r"
	}
	params["type"] = "keyDown"
	p.call("Input.dispatchKeyEvent", params, nil)
	params["type"] = "keyUp"
	delete(params, "text")
	p.call("Input.dispatchKeyEvent", params, nil)
}

// waitFor polls a JavaScript condition until it holds, answering the wallet's
// requests and recording problems meanwhile.
func (p *tab) waitFor(cond string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		p.drain()
		if ok, _ := p.eval(`(function () { try { return !!(` + cond + `); } catch (e) { return false; } }())`).(bool); ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %s; status %q; result %q %q; problems %q", cond,
				p.text("#status"), p.text("#result-title"), p.text("#result-detail"), p.problemList())
		}
		select {
		case ev := <-p.events:
			p.handle(ev)
		case <-tick.C:
		}
	}
}

func (p *tab) drain() {
	for {
		select {
		case ev := <-p.events:
			p.handle(ev)
		default:
			return
		}
	}
}

func (p *tab) handle(ev cdpMessage) {
	p.t.Helper()
	switch ev.Method {
	case "Runtime.bindingCalled":
		var call struct {
			Name               string `json:"name"`
			Payload            string `json:"payload"`
			ExecutionContextID int    `json:"executionContextId"`
		}
		require.NoError(p.t, json.Unmarshal(ev.Params, &call))
		if call.Name != "veriWallet" || p.wallet == nil {
			return
		}
		var req struct {
			ID     int               `json:"id"`
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		require.NoError(p.t, json.Unmarshal([]byte(call.Payload), &req))
		result, werr := p.wallet.handle(req.Method, req.Params)
		resJSON, err := json.Marshal(result)
		require.NoError(p.t, err)
		errJSON, err := json.Marshal(werr)
		require.NoError(p.t, err)
		p.call("Runtime.evaluate", map[string]any{
			"expression": fmt.Sprintf("window.__veriWalletSettle(%d, %s, %s)", req.ID, errJSON, resJSON),
			"contextId":  call.ExecutionContextID,
		}, nil)
	case "Runtime.exceptionThrown":
		p.problem("exception: " + string(ev.Params))
	case "Log.entryAdded":
		var e struct {
			Entry struct {
				Level  string `json:"level"`
				Source string `json:"source"`
				Text   string `json:"text"`
			} `json:"entry"`
		}
		_ = json.Unmarshal(ev.Params, &e)
		if e.Entry.Level == "error" && !strings.Contains(e.Entry.Text, "status of 4") { // a 4xx the page handles is logged by the browser
			p.problem(e.Entry.Source + ": " + e.Entry.Text)
		}
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(ev.Params, &e)
		if e.Type == "error" {
			p.problem("console.error: " + string(ev.Params))
		}
	}
}

func (p *tab) problem(s string) {
	p.mu.Lock()
	p.problems = append(p.problems, s)
	p.mu.Unlock()
}

func (p *tab) problemList() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// noProblems checks that the page threw nothing and the browser reported no CSP
// violation or other error.
func (p *tab) noProblems() {
	p.t.Helper()
	p.drain()
	require.Empty(p.t, p.problemList())
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// cdpMessage is a CDP command answer or event.
type cdpMessage struct {
	ID        int64           `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *cdpError       `json:"error,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
}

type cdpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *cdpError) Error() string { return fmt.Sprintf("cdp error %d: %s", e.Code, e.Message) }

// cdpConn is one CDP connection over a WebSocket; sessions are multiplexed on it
// ("flatten" mode).
type cdpConn struct {
	ws *wsConn

	mu      sync.Mutex
	nextID  int64
	waiting map[int64]chan cdpMessage
	subs    map[string]chan cdpMessage
	err     error
}

func dialCDP(u string) (*cdpConn, error) {
	ws, err := dialWebSocket(u)
	if err != nil {
		return nil, err
	}
	c := &cdpConn{ws: ws, waiting: map[int64]chan cdpMessage{}, subs: map[string]chan cdpMessage{}}
	go c.read()
	return c, nil
}

func (c *cdpConn) read() {
	for {
		data, err := c.ws.readMessage()
		if err != nil {
			c.mu.Lock()
			c.err = err
			for id, ch := range c.waiting {
				close(ch)
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		var m cdpMessage
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		c.mu.Lock()
		if m.ID != 0 {
			if ch, ok := c.waiting[m.ID]; ok {
				delete(c.waiting, m.ID)
				ch <- m
			}
		} else if ch, ok := c.subs[m.SessionID]; ok {
			select {
			case ch <- m:
			default: // a page that is not listening any more
			}
		}
		c.mu.Unlock()
	}
}

func (c *cdpConn) subscribe(session string) chan cdpMessage {
	ch := make(chan cdpMessage, 1024)
	c.mu.Lock()
	c.subs[session] = ch
	c.mu.Unlock()
	return ch
}

func (c *cdpConn) call(ctx context.Context, session, method string, params any) (json.RawMessage, error) {
	ch := make(chan cdpMessage, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	c.waiting[id] = ch
	c.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if err := c.ws.writeText(data); err != nil {
		return nil, err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, errors.New("cdp connection closed")
		}
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (c *cdpConn) close() { _ = c.ws.conn.Close() }

// wsConn is the client side of a WebSocket (RFC 6455), just enough for CDP: text
// messages out (masked), text messages in (possibly fragmented), pings answered.
type wsConn struct {
	conn net.Conn
	br   *bufio.Reader
	wmu  sync.Mutex
}

func dialWebSocket(rawURL string) (*wsConn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "ws" {
		return nil, fmt.Errorf("websocket: scheme %q not supported", u.Scheme)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, err
	}
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	key := base64.StdEncoding.EncodeToString(nonce[:])
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key +
		"\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, &http.Request{Method: http.MethodGet})
	if err != nil {
		conn.Close()
		return nil, err
	}
	sum := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if res.StatusCode != http.StatusSwitchingProtocols || res.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		return nil, fmt.Errorf("websocket: handshake refused: %s", res.Status)
	}
	return &wsConn{conn: conn, br: br}, nil
}

func (c *wsConn) writeFrame(opcode byte, payload []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	hdr := []byte{0x80 | opcode}
	switch n := len(payload); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n <= 0xffff:
		hdr = append(hdr, 0x80|126)
		hdr = binary.BigEndian.AppendUint16(hdr, uint16(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	if _, err := rand.Read(mask[:]); err != nil {
		return err
	}
	hdr = append(hdr, mask[:]...)
	masked := make([]byte, len(payload))
	for i, b := range payload {
		masked[i] = b ^ mask[i%4]
	}
	_, err := c.conn.Write(append(hdr, masked...))
	return err
}

func (c *wsConn) writeText(payload []byte) error { return c.writeFrame(0x1, payload) }

// readMessage returns the next text or binary message, answering pings.
func (c *wsConn) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			return nil, err
		}
		fin, opcode := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(c.br, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(c.br, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		var mask [4]byte
		masked := h[1]&0x80 != 0
		if masked {
			if _, err := io.ReadFull(c.br, mask[:]); err != nil {
				return nil, err
			}
		}
		if n > 256<<20 {
			return nil, errors.New("websocket: frame too large")
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(c.br, payload); err != nil {
			return nil, err
		}
		if masked {
			for i := range payload {
				payload[i] ^= mask[i%4]
			}
		}
		switch opcode {
		case 0x8: // close
			return nil, io.EOF
		case 0x9: // ping
			if err := c.writeFrame(0xA, payload); err != nil {
				return nil, err
			}
			continue
		case 0xA: // pong
			continue
		}
		msg = append(msg, payload...)
		if fin {
			return msg, nil
		}
	}
}
