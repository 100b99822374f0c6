package openai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/openai"
)

// A ChatModel pointed at a chat-completions server; here an httptest server that
// answers the way llama.cpp server or vLLM do.
func ExampleChatModel() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"chatcmpl-1","object":"chat.completion","model":"qwen2.5",
			"choices":[{"index":0,"message":{"role":"assistant","content":"To transfer your land, open a transfer request from the parcel page."},
			"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()

	model := &openai.ChatModel{BaseURL: srv.URL + "/v1", Model: "qwen2.5"}
	if err := model.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	resp, err := model.Chat(context.Background(), assistant.ChatRequest{
		Messages: []assistant.ChatMessage{{Role: assistant.RoleUser, Content: "How do I transfer my land?"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.FinishReason+":", resp.Message.Content)
	// Output: stop: To transfer your land, open a transfer request from the parcel page.
}

// A model server that sends back a redirect is refused, and the error says so
// without naming the key or the prompt.
func ExampleChatModel_redirect() {
	srv := httptest.NewServer(http.RedirectHandler("https://elsewhere.example/v1/chat/completions", http.StatusFound))
	defer srv.Close()

	model := &openai.ChatModel{BaseURL: srv.URL + "/v1", APIKey: "sk-secret", Model: "gpt-4o-mini"}
	_, err := model.Chat(context.Background(), assistant.ChatRequest{
		Messages: []assistant.ChatMessage{{Role: assistant.RoleUser, Content: "status of prc_01HZX8Q4M2K7N9P3R5T6V8W0YA?"}},
	})
	fmt.Println(err)
	// Output: unavailable: the language model answered with a redirect (HTTP 302), which is refused
}
