package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
)

const (
	testKey    = "sk-test-0123456789abcdefSECRET"
	testPrompt = "what is the status of prc_01HZX8Q4M2K7N9P3R5T6V8W0YA, my secret parcel?"
)

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "chat", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recorded is what the fake server saw.
type recorded struct {
	method, path, auth, contentType string
	body                            map[string]any
	raw                             []byte
}

// chatServer answers every request with status and body, and records it.
func chatServer(t *testing.T, status int, body []byte) (*httptest.Server, *recorded) {
	t.Helper()
	rec := &recorded{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.method, rec.path = r.Method, r.URL.Path
		rec.auth, rec.contentType = r.Header.Get("Authorization"), r.Header.Get("Content-Type")
		rec.raw, _ = io.ReadAll(r.Body)
		rec.body = nil
		_ = json.Unmarshal(rec.raw, &rec.body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

var parcelTool = assistant.ToolSpec{
	Name:        "parcel_status",
	Description: "The status of one of the caller's parcels.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"parcelId":{"type":"string","pattern":"^prc_"}},"required":["parcelId"],"additionalProperties":false}`),
}

// conversation is a second round: the model asked for a tool, the tool answered.
func conversation() assistant.ChatRequest {
	return assistant.ChatRequest{
		Messages: []assistant.ChatMessage{
			{Role: assistant.RoleSystem, Content: "You are the veriland assistant."},
			{Role: assistant.RoleUser, Content: testPrompt},
			{Role: assistant.RoleAssistant, ToolCalls: []assistant.ToolCall{{
				ID: "call_1", Name: "parcel_status", Arguments: `{"parcelId":"prc_01HZX8Q4M2K7N9P3R5T6V8W0YA"}`,
			}}},
			{Role: assistant.RoleTool, ToolCallID: "call_1", Content: `{"status":"CURRENT"}`},
		},
		Tools: []assistant.ToolSpec{parcelTool, {Name: "help", Description: "Help."}},
	}
}

func TestChatToolCalls(t *testing.T) {
	srv, rec := chatServer(t, 200, readSample(t, "tool_calls.json"))
	m := &ChatModel{BaseURL: srv.URL + "/v1/", APIKey: testKey, Model: "gpt-4o-mini"}
	resp, err := m.Chat(context.Background(), conversation())
	if err != nil {
		t.Fatal(err)
	}
	want := &assistant.ChatResponse{
		Message: assistant.ChatMessage{Role: assistant.RoleAssistant, ToolCalls: []assistant.ToolCall{
			{ID: "call_Qm7yE2rT9wXk4LpN8sVb1cZd", Name: "parcel_status", Arguments: `{"parcelId":"prc_01HZX8Q4M2K7N9P3R5T6V8W0YA"}`},
			{ID: "call_Hk3nB6vC1xZ8mQ4wE7rT2yUi", Name: "certificate_check", Arguments: `{"hash":"0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}`},
		}},
		FinishReason: "tool_calls",
	}
	if !equalResponse(resp, want) {
		t.Fatalf("response\n got %+v\nwant %+v", resp, want)
	}

	// The request the server received.
	if rec.method != http.MethodPost || rec.path != "/v1/chat/completions" {
		t.Errorf("request line %s %s", rec.method, rec.path)
	}
	if rec.auth != "Bearer "+testKey {
		t.Errorf("Authorization %q", rec.auth)
	}
	if rec.contentType != "application/json" {
		t.Errorf("Content-Type %q", rec.contentType)
	}
	wantBody := `{
	  "model": "gpt-4o-mini",
	  "messages": [
	    {"role": "system", "content": "You are the veriland assistant."},
	    {"role": "user", "content": "what is the status of prc_01HZX8Q4M2K7N9P3R5T6V8W0YA, my secret parcel?"},
	    {"role": "assistant", "content": null, "tool_calls": [
	      {"id": "call_1", "type": "function", "function": {"name": "parcel_status", "arguments": "{\"parcelId\":\"prc_01HZX8Q4M2K7N9P3R5T6V8W0YA\"}"}}
	    ]},
	    {"role": "tool", "tool_call_id": "call_1", "content": "{\"status\":\"CURRENT\"}"}
	  ],
	  "tools": [
	    {"type": "function", "function": {"name": "parcel_status", "description": "The status of one of the caller's parcels.",
	      "parameters": {"type":"object","properties":{"parcelId":{"type":"string","pattern":"^prc_"}},"required":["parcelId"],"additionalProperties":false}}},
	    {"type": "function", "function": {"name": "help", "description": "Help.", "parameters": {"type":"object","properties":{}}}}
	  ],
	  "tool_choice": "auto",
	  "stream": false
	}`
	var wantJSON any
	if err := json.Unmarshal([]byte(wantBody), &wantJSON); err != nil {
		t.Fatal(err)
	}
	if got, want := canonical(t, rec.body), canonical(t, wantJSON); got != want {
		t.Errorf("request body\n got %s\nwant %s", got, want)
	}
}

func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func equalResponse(a, b *assistant.ChatResponse) bool {
	if a.FinishReason != b.FinishReason || a.Message.Role != b.Message.Role ||
		a.Message.Content != b.Message.Content || a.Message.ToolCallID != b.Message.ToolCallID ||
		len(a.Message.ToolCalls) != len(b.Message.ToolCalls) {
		return false
	}
	for i := range a.Message.ToolCalls {
		if a.Message.ToolCalls[i] != b.Message.ToolCalls[i] {
			return false
		}
	}
	return true
}

func TestChatAnswers(t *testing.T) {
	tests := []struct {
		sample      string
		wantContent string
		wantFinish  string
		wantCalls   []assistant.ToolCall
	}{
		{"answer.json", "Parcel prc_01HZX8Q4M2K7N9P3R5T6V8W0YA is CURRENT.", "stop", nil},
		{"ollama_answer.json", "Pour transférer votre terrain, ouvrez une demande de transfert.", "stop", nil},
		{"llamacpp_tool_calls.json", "", "tool_calls", []assistant.ToolCall{
			{ID: "kDh5bW0QeTcL2mJ8sXyR4nVa", Name: "verification_status", Arguments: `{"requestId":"vrq_01HZX9A1B2C3D4E5F6G7H8J9KA"}`},
		}},
		// Malformed arguments are the assistant's to judge: passed through verbatim.
		{"bad_arguments.json", "", "tool_calls", []assistant.ToolCall{
			{ID: "call_1", Name: "parcel_status", Arguments: `{"parcelId": "prc_01HZX8Q4M2K7N9P3R5T6V8W0YA"`},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.sample, func(t *testing.T) {
			srv, rec := chatServer(t, 200, readSample(t, tt.sample))
			m := &ChatModel{BaseURL: srv.URL, Model: "m"}
			resp, err := m.Chat(context.Background(), assistant.ChatRequest{
				Messages: []assistant.ChatMessage{{Role: assistant.RoleUser, Content: "hi"}},
			})
			if err != nil {
				t.Fatal(err)
			}
			want := &assistant.ChatResponse{
				Message:      assistant.ChatMessage{Role: assistant.RoleAssistant, Content: tt.wantContent, ToolCalls: tt.wantCalls},
				FinishReason: tt.wantFinish,
			}
			if !equalResponse(resp, want) {
				t.Fatalf("got %+v\nwant %+v", resp, want)
			}
			if rec.auth != "" {
				t.Errorf("Authorization sent without a key: %q", rec.auth)
			}
			if _, ok := rec.body["tools"]; ok {
				t.Error("tools sent when there are none")
			}
			if _, ok := rec.body["tool_choice"]; ok {
				t.Error("tool_choice sent without tools")
			}
			if rec.body["stream"] != false {
				t.Errorf("stream = %v", rec.body["stream"])
			}
		})
	}
}

func TestDecodeChatResponseShapes(t *testing.T) {
	tests := []struct {
		name, body, content, args, id string
	}{
		{"content parts", `{"choices":[{"message":{"content":[{"type":"text","text":"Hel"},{"type":"image_url"},{"type":"text","text":"lo"}]},"finish_reason":"stop"}]}`, "Hello", "", ""},
		{"arguments as object", `{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"help","arguments":{"topic":"transfer"}}}]}}]}`, "", `{"topic":"transfer"}`, "c"},
		{"call without id or type", `{"choices":[{"message":{"tool_calls":[{"function":{"name":"help","arguments":"{}"}}]}}]}`, "", "{}", "call_0"},
		{"null arguments", `{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"name":"help","arguments":null}}]}}]}`, "", "", "c"},
		{"text and calls", `{"choices":[{"message":{"content":"Checking.","tool_calls":[{"id":"c","function":{"name":"help","arguments":"not json"}}]}}]}`, "Checking.", "not json", "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := decodeChatResponse([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Message.Content != tt.content {
				t.Errorf("content %q, want %q", resp.Message.Content, tt.content)
			}
			if tt.id != "" {
				if len(resp.Message.ToolCalls) != 1 {
					t.Fatalf("calls %+v", resp.Message.ToolCalls)
				}
				if c := resp.Message.ToolCalls[0]; c.ID != tt.id || c.Arguments != tt.args {
					t.Errorf("call %+v, want id %q args %q", c, tt.id, tt.args)
				}
			}
		})
	}
}

// wantUnavailable checks an error's code and message, and that the message leaks
// neither the key nor the prompt.
func wantUnavailable(t *testing.T, err error, wantMsg string) *veriland.Error {
	t.Helper()
	var ve *veriland.Error
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *veriland.Error", err, err)
	}
	if ve.Code != veriland.CodeUnavailable {
		t.Errorf("code %s, want unavailable (%v)", ve.Code, ve)
	}
	if !strings.Contains(ve.Message, wantMsg) {
		t.Errorf("message %q does not say %q", ve.Message, wantMsg)
	}
	for _, secret := range []string{testKey, "SECRET", "secret parcel", "does not exist"} {
		if strings.Contains(ve.Error(), secret) || (ve.Cause != nil && strings.Contains(ve.Cause.Error(), secret)) {
			t.Errorf("error %q (cause %v) leaks %q", ve.Error(), ve.Cause, secret)
		}
	}
	return ve
}

func TestChatServerErrors(t *testing.T) {
	huge := `{"choices":[{"message":{"content":"` + strings.Repeat("a", 2<<20) + `"}}]}`
	tests := []struct {
		name     string
		status   int
		header   map[string]string
		body     string
		wantMsg  string
		wantMeta map[string]any
	}{
		{"500", 500, nil, `{"error":{"message":"echo: ` + testPrompt + `"}}`, "answered HTTP 500", map[string]any{"status": 500}},
		{"503", 503, nil, "upstream overloaded", "answered HTTP 503", map[string]any{"status": 503}},
		{"429", 429, map[string]string{"Retry-After": "20"}, `{"error":{"message":"Rate limit reached for gpt-4o-mini","type":"requests","code":"rate_limit_exceeded"}}`, "rate limited", map[string]any{"status": 429, "retryAfterSeconds": 20}},
		{"401", 401, nil, `{"error":{"message":"Incorrect API key provided: sk-test-****SECRET."}}`, "refused the API key", map[string]any{"status": 401}},
		{"302", 302, map[string]string{"Location": "http://example.invalid/steal"}, "", "redirect", map[string]any{"status": 302}},
		{"garbage", 200, nil, "<html><body>Bad gateway</body></html>", "not JSON", nil},
		{"truncated", 200, nil, `{"choices":[{"message":{"content":"Parcel`, "not JSON", nil},
		{"empty", 200, nil, "", "empty response", nil},
		{"no choices", 200, nil, string(readSample(t, "no_choices.json")), "no choices", nil},
		{"error object with 200", 200, nil, string(readSample(t, "error_object.json")), "no choices", nil},
		{"choices not an array", 200, nil, `{"choices":{"message":{}}}`, "not JSON", nil},
		{"content a number", 200, nil, `{"choices":[{"message":{"content":42}}]}`, "content of an unknown shape", nil},
		{"arguments a number", 200, nil, `{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"name":"x","arguments":1}}]}}]}`, "arguments of an unknown shape", nil},
		{"call without name", 200, nil, `{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"arguments":"{}"}}]}}]}`, "without a name", nil},
		{"call of another type", 200, nil, `{"choices":[{"message":{"tool_calls":[{"id":"c","type":"code_interpreter","function":{"name":"x"}}]}}]}`, "unknown type", nil},
		{"oversized", 200, nil, huge, "larger than 1048576 bytes", map[string]any{"limitBytes": int64(1 << 20)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			m := &ChatModel{BaseURL: srv.URL, APIKey: testKey, Model: "gpt-4o-mini"}
			_, err := m.Chat(context.Background(), conversation())
			ve := wantUnavailable(t, err, tt.wantMsg)
			for k, v := range tt.wantMeta {
				if ve.Meta[k] != v {
					t.Errorf("meta %s = %v (%T), want %v (%T)", k, ve.Meta[k], ve.Meta[k], v, v)
				}
			}
		})
	}
}

func TestChatRedirectNotFollowed(t *testing.T) {
	var stolen atomic.Int32
	thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stolen.Add(1)
		_, _ = w.Write(readSample(t, "answer.json"))
	}))
	defer thief.Close()
	for _, status := range []int{301, 302, 307, 308} {
		srv := httptest.NewServer(http.RedirectHandler(thief.URL+"/v1/chat/completions", status))
		// A caller's client that would follow redirects is overridden.
		m := &ChatModel{BaseURL: srv.URL, APIKey: testKey, Model: "m", HTTPClient: &http.Client{}}
		_, err := m.Chat(context.Background(), conversation())
		wantUnavailable(t, err, "redirect")
		srv.Close()
	}
	if n := stolen.Load(); n != 0 {
		t.Fatalf("the redirect target was called %d times", n)
	}
}

func TestChatTimeout(t *testing.T) {
	tests := []struct {
		name    string
		handler func(release <-chan struct{}) http.HandlerFunc
	}{
		{"no headers", func(release <-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}
		}},
		{"stalled body", func(release <-chan struct{}) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.WriteHeader(200)
				_, _ = io.WriteString(w, `{"choices":[`)
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release := make(chan struct{})
			srv := httptest.NewServer(tt.handler(release))
			defer srv.Close()
			defer close(release) // runs first: the handler returns, then Close waits for nothing
			m := &ChatModel{BaseURL: srv.URL, Model: "m", Timeout: 150 * time.Millisecond}
			start := time.Now()
			_, err := m.Chat(context.Background(), conversation())
			ve := wantUnavailable(t, err, "did not answer within 150ms")
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("cause %v is not a deadline", ve.Cause)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

func TestChatCancelled(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	m := &ChatModel{BaseURL: srv.URL, Model: "m"}
	_, err := m.Chat(ctx, conversation())
	wantUnavailable(t, err, "cancelled")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("%v is not context.Canceled", err)
	}
}

func TestChatUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	m := &ChatModel{BaseURL: url, APIKey: testKey, Model: "m"}
	_, err := m.Chat(context.Background(), conversation())
	wantUnavailable(t, err, "cannot be reached")
}

func TestChatModelValidate(t *testing.T) {
	tests := []struct {
		name    string
		m       ChatModel
		wantMsg string
	}{
		{"ok", ChatModel{BaseURL: "https://api.openai.com/v1", Model: "gpt-4o-mini", APIKey: "sk-abc"}, ""},
		{"ok http", ChatModel{BaseURL: "http://localhost:8080/v1", Model: "qwen"}, ""},
		{"empty", ChatModel{Model: "m"}, "empty"},
		{"ftp", ChatModel{BaseURL: "ftp://example.com/v1", Model: "m"}, "http or https"},
		{"file", ChatModel{BaseURL: "file:///etc/passwd", Model: "m"}, "http or https"},
		{"no scheme", ChatModel{BaseURL: "localhost:8080/v1", Model: "m"}, "http or https"},
		{"no host", ChatModel{BaseURL: "http:///v1", Model: "m"}, "no host"},
		{"user info", ChatModel{BaseURL: "https://user:sk-abc@api.example.com/v1", Model: "m"}, "user info"},
		{"query", ChatModel{BaseURL: "https://api.example.com/v1?key=sk-abc", Model: "m"}, "query"},
		{"not a URL", ChatModel{BaseURL: "http://[::1/v1", Model: "m"}, "not a URL"},
		{"no model", ChatModel{BaseURL: "http://localhost/v1"}, "model name"},
		{"key with newline", ChatModel{BaseURL: "http://localhost/v1", Model: "m", APIKey: "sk-abc\r\nX-Evil: 1"}, "control characters"},
		{"negative timeout", ChatModel{BaseURL: "http://localhost/v1", Model: "m", Timeout: -1}, "timeout"},
		{"negative limit", ChatModel{BaseURL: "http://localhost/v1", Model: "m", MaxResponseBytes: -1}, "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.m.Validate()
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Code != veriland.CodeValidationFailed || !strings.Contains(ve.Message, tt.wantMsg) {
				t.Fatalf("error %v, want validation_failed saying %q", err, tt.wantMsg)
			}
			if strings.Contains(ve.Message, "sk-abc") {
				t.Errorf("message %q repeats the key", ve.Message)
			}
			// Chat refuses the same configuration without calling anyone.
			_, err = tt.m.Chat(context.Background(), conversation())
			if !errors.As(err, &ve) || ve.Code != veriland.CodeUnavailable {
				t.Errorf("Chat with a bad configuration: %v", err)
			}
		})
	}
}

func TestChatRequestRefused(t *testing.T) {
	user := assistant.ChatMessage{Role: assistant.RoleUser, Content: "hi"}
	tests := []struct {
		name string
		req  assistant.ChatRequest
	}{
		{"no messages", assistant.ChatRequest{}},
		{"unknown role", assistant.ChatRequest{Messages: []assistant.ChatMessage{{Role: "developer", Content: "x"}}}},
		{"tool without id", assistant.ChatRequest{Messages: []assistant.ChatMessage{user, {Role: assistant.RoleTool, Content: "{}"}}}},
		{"user with calls", assistant.ChatRequest{Messages: []assistant.ChatMessage{{Role: assistant.RoleUser, ToolCalls: []assistant.ToolCall{{ID: "a", Name: "b"}}}}}},
		{"call without id", assistant.ChatRequest{Messages: []assistant.ChatMessage{user, {Role: assistant.RoleAssistant, ToolCalls: []assistant.ToolCall{{Name: "b"}}}}}},
		{"assistant answering a call", assistant.ChatRequest{Messages: []assistant.ChatMessage{user, {Role: assistant.RoleAssistant, ToolCallID: "a"}}}},
		{"tool with calls", assistant.ChatRequest{Messages: []assistant.ChatMessage{user, {Role: assistant.RoleTool, ToolCallID: "a", ToolCalls: []assistant.ToolCall{{ID: "a", Name: "b"}}}}}},
		{"schema not JSON", assistant.ChatRequest{Messages: []assistant.ChatMessage{user}, Tools: []assistant.ToolSpec{{Name: "t", Parameters: json.RawMessage(`{"type":`)}}}},
		{"tool without name", assistant.ChatRequest{Messages: []assistant.ChatMessage{user}, Tools: []assistant.ToolSpec{{Description: "x"}}}},
	}
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	m := &ChatModel{BaseURL: srv.URL, Model: "m"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Chat(context.Background(), tt.req)
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Code != veriland.CodeInternal {
				t.Fatalf("error %v, want internal", err)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("the server was called %d times", n)
	}
}

func TestChatAssistantTextWithCalls(t *testing.T) {
	srv, rec := chatServer(t, 200, readSample(t, "answer.json"))
	m := &ChatModel{BaseURL: srv.URL, Model: "m"}
	req := assistant.ChatRequest{Messages: []assistant.ChatMessage{
		{Role: assistant.RoleUser, Content: "hi"},
		{Role: assistant.RoleAssistant, Content: "Let me check.", ToolCalls: []assistant.ToolCall{{ID: "c", Name: "help", Arguments: "{}"}}},
		{Role: assistant.RoleTool, ToolCallID: "c", Content: ""},
	}}
	if _, err := m.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	msgs := rec.body["messages"].([]any)
	if got := msgs[1].(map[string]any)["content"]; got != "Let me check." {
		t.Errorf("assistant content %v", got)
	}
	// An empty tool result is still a string: servers refuse a null tool content.
	if got, ok := msgs[2].(map[string]any)["content"]; !ok || got != "" {
		t.Errorf("tool content %#v", got)
	}
}

func BenchmarkDecodeChatResponse(b *testing.B) {
	data := readSample(b, "tool_calls.json")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeChatResponse(data); err != nil {
			b.Fatal(err)
		}
	}
}
