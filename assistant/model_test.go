package assistant_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/openai"
)

// chatServer is an OpenAI-compatible chat-completions endpoint that answers from a
// script: reply(n, request) is the n-th response body (n from 0). It records every
// request it gets, as the wire's JSON.
type chatServer struct {
	t     *testing.T
	srv   *httptest.Server
	mu    sync.Mutex
	reqs  []map[string]any
	raw   []string
	reply func(n int, req map[string]any) (int, string)
}

func newChatServer(t *testing.T, reply func(n int, req map[string]any) (int, string)) *chatServer {
	c := &chatServer{t: t, reply: reply}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		var body map[string]any
		raw, _ := readAll(r)
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, "bad json", 400)
			return
		}
		c.mu.Lock()
		n := len(c.reqs)
		c.reqs = append(c.reqs, body)
		c.raw = append(c.raw, string(raw))
		c.mu.Unlock()
		status, out := c.reply(n, body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(out))
	}))
	t.Cleanup(c.srv.Close)
	return c
}

func readAll(r *http.Request) ([]byte, error) {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return []byte(b.String()), nil
		}
	}
}

func (c *chatServer) model() *openai.ChatModel {
	return &openai.ChatModel{BaseURL: c.srv.URL + "/v1", Model: "test-model"}
}

// completion is a chat.completion body as OpenAI-compatible servers send it.
func completion(content *string, calls ...[3]string) string {
	msg := map[string]any{"role": "assistant", "content": nil}
	if content != nil {
		msg["content"] = *content
	}
	finish := "stop"
	if len(calls) > 0 {
		var tc []map[string]any
		for _, c := range calls {
			tc = append(tc, map[string]any{"id": c[0], "type": "function", "function": map[string]any{"name": c[1], "arguments": c[2]}})
		}
		msg["tool_calls"] = tc
		finish = "tool_calls"
	}
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1763900000, "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	return string(b)
}

func text(s string) *string { return &s }

// toolResults returns the tool messages of a request, by tool_call_id.
func toolResults(req map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, m := range req["messages"].([]any) {
		msg := m.(map[string]any)
		if msg["role"] != "tool" {
			continue
		}
		var v map[string]any
		_ = json.Unmarshal([]byte(msg["content"].(string)), &v)
		out[msg["tool_call_id"].(string)] = v
	}
	return out
}

// A question the router cannot place goes to the model, which calls a tool with the
// caller's permissions and answers from its result.
func TestModelAnswersWithTools(t *testing.T) {
	w := newWorld(t)
	// A question the router cannot place (no id, no keyword).
	question := "Tell me a story about the registry, and what matters in it today."
	cs := newChatServer(t, func(n int, req map[string]any) (int, string) {
		switch n {
		case 0:
			return 200, completion(nil,
				[3]string{"call_1", "parcel_status", `{"parcelId":"` + w.certified.ID + `"}`},
				[3]string{"call_2", "parcel_status", `{"parcelId":"` + w.pending.ID + `"}`})
		default:
			return 200, completion(text("Parcel " + w.certified.ID + " is certified."))
		}
	})
	w.svc.Model = cs.model()
	reply, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: question})
	require.NoError(t, err)
	require.Equal(t, assistant.IntentModel, reply.Intent)
	require.Equal(t, "Parcel "+w.certified.ID+" is certified.", reply.Text)
	require.Len(t, cs.reqs, 2)

	// The first request: the system prompt, the user's message, the six tools.
	first := cs.reqs[0]
	require.Equal(t, false, first["stream"])
	require.Equal(t, "test-model", first["model"])
	msgs := first["messages"].([]any)
	require.Len(t, msgs, 2)
	require.Equal(t, "system", msgs[0].(map[string]any)["role"])
	require.Equal(t, question, msgs[1].(map[string]any)["content"])
	var names []string
	for _, tl := range first["tools"].([]any) {
		fn := tl.(map[string]any)["function"].(map[string]any)
		names = append(names, fn["name"].(string))
		require.Equal(t, "object", fn["parameters"].(map[string]any)["type"])
	}
	require.ElementsMatch(t, []string{"parcel_status", "my_parcels", "certificate_check", "transfer_howto", "verification_request_status", "attestation_status"}, names)

	// The second carries both results, grounded in the records.
	res := toolResults(cs.reqs[1])
	require.Equal(t, true, res["call_1"]["data"].(map[string]any)["found"])
	require.Equal(t, "CERTIFIED", res["call_1"]["data"].(map[string]any)["status"])
	require.Equal(t, w.certified.CertificateHash, res["call_1"]["data"].(map[string]any)["certificateHash"])
	require.Contains(t, res["call_1"]["answer"], w.certified.CertificateHash)
	require.Equal(t, "PENDING_NOTARY", res["call_2"]["data"].(map[string]any)["status"])

	// No personal data in any prompt: never the owner's name or identity document.
	for _, raw := range cs.raw {
		require.NotContains(t, raw, testOwner)
		require.NotContains(t, raw, testIDDoc)
	}
	// The reply cites what the tools read and links to it.
	var refs []string
	for _, r := range reply.References {
		refs = append(refs, r.ID)
	}
	require.Contains(t, refs, w.certified.ID)
	require.Contains(t, refs, w.certified.CertificateHash)
	require.NotEmpty(t, reply.Actions)
}

// The model's tool calls run with the caller's permissions: another account's parcel
// is "not found" to the model too.
func TestModelToolsUseCallersPermissions(t *testing.T) {
	w := newWorld(t)
	cs := newChatServer(t, func(n int, req map[string]any) (int, string) {
		if n == 0 {
			return 200, completion(nil, [3]string{"c1", "parcel_status", `{"parcelId":"` + w.certified.ID + `"}`},
				[3]string{"c2", "parcel_status", `{}`})
		}
		return 200, completion(text("I cannot find it."))
	})
	w.svc.Model = cs.model()
	_, err := w.svc.Send(t.Context(), outside, assistant.MessageRequest{Text: "Tell me a story about the registry."})
	require.NoError(t, err)
	res := toolResults(cs.reqs[1])
	require.Equal(t, map[string]any{"parcelId": w.certified.ID, "found": false}, res["c1"]["data"])
	require.Empty(t, res["c2"]["data"].(map[string]any)["parcels"], "the other account has no parcels of its own")
	require.NotContains(t, cs.raw[1], "Kano")
	require.NotContains(t, cs.raw[1], w.certified.CertificateHash)
}

// Arguments that are not JSON, that break the tool's schema, or name no tool never
// reach a tool: the model gets an error result and may try again.
func TestModelToolArgumentsAreChecked(t *testing.T) {
	w := newWorld(t)
	cs := newChatServer(t, func(n int, req map[string]any) (int, string) {
		if n == 0 {
			return 200, completion(nil,
				[3]string{"bad_json", "parcel_status", `{"parcelId": "prc_`},
				[3]string{"bad_pattern", "parcel_status", `{"parcelId":"prc_x' OR 1=1 --"}`},
				[3]string{"extra_member", "certificate_check", `{"hash":"0x` + strings.Repeat("a", 64) + `","owner":"` + testOwner + `"}`},
				[3]string{"missing", "attestation_status", `{}`},
				[3]string{"wrong_type", "verification_request_status", `{"requestId":42}`},
				[3]string{"no_tool", "delete_everything", `{}`},
				[3]string{"good", "certificate_check", `{"hash":"` + w.certified.CertificateHash + `"}`})
		}
		return 200, completion(text("Done."))
	})
	w.svc.Model = cs.model()
	_, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "Tell me a story about the registry."})
	require.NoError(t, err)
	res := toolResults(cs.reqs[1])
	require.Len(t, res, 7)
	require.Equal(t, "arguments are not valid JSON", res["bad_json"]["error"])
	for _, id := range []string{"bad_pattern", "extra_member", "missing", "wrong_type"} {
		require.Contains(t, res[id]["error"], "arguments do not match the tool's schema", id)
		require.Nil(t, res[id]["data"], id)
	}
	require.Equal(t, "unknown tool delete_everything", res["no_tool"]["error"])
	require.Equal(t, true, res["good"]["data"].(map[string]any)["authentic"])
}

// A model that keeps calling tools is stopped after MaxToolRounds rounds; the user
// gets the help text, and the server saw exactly MaxToolRounds+1 requests.
func TestModelThatLoopsIsStopped(t *testing.T) {
	w := newWorld(t)
	cs := newChatServer(t, func(n int, req map[string]any) (int, string) {
		return 200, completion(nil, [3]string{"again", "transfer_howto", `{}`})
	})
	w.svc.Model, w.svc.MaxToolRounds = cs.model(), 3
	reply, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "Tell me a story about the registry."})
	require.NoError(t, err)
	require.Equal(t, assistant.IntentUnknown, reply.Intent)
	require.Contains(t, reply.Text, "I can tell you the status of a parcel")
	require.Len(t, cs.reqs, 4)
}

// A model server that fails (500, 429, garbage, no text) leaves the user with the
// help text in their language, never an error.
func TestModelFailuresFallBackToHelp(t *testing.T) {
	for name, reply := range map[string]func(int, map[string]any) (int, string){
		"500":       func(int, map[string]any) (int, string) { return 500, `{"error":{"message":"boom"}}` },
		"429":       func(int, map[string]any) (int, string) { return 429, `{"error":{"message":"slow down"}}` },
		"garbage":   func(int, map[string]any) (int, string) { return 200, `<html>` },
		"no choice": func(int, map[string]any) (int, string) { return 200, `{"choices":[]}` },
		"no text":   func(int, map[string]any) (int, string) { return 200, completion(text("  ")) },
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.svc.Model = newChatServer(t, reply).model()
			msg, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "Racontez-moi une histoire sur le cadastre de la ville."})
			require.NoError(t, err)
			require.Equal(t, assistant.IntentUnknown, msg.Intent)
			require.Equal(t, "fr", msg.Language)
			require.NotContains(t, msg.Text, "I can tell you")
		})
	}
}

// Without a model, an unplaced question gets the help text in the user's language.
func TestNoModelAnswersHelp(t *testing.T) {
	w := newWorld(t)
	msg, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "Erzählen Sie mir bitte eine Geschichte über das Wetter in Berlin."})
	require.NoError(t, err)
	require.Equal(t, assistant.IntentUnknown, msg.Intent)
	require.Equal(t, "de", msg.Language)
	require.Equal(t, []assistant.Action{}, msg.Actions)
}
