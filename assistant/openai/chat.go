package openai

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
)

// DefaultChatTimeout bounds one chat round trip when ChatModel.Timeout is zero.
const DefaultChatTimeout = 30 * time.Second

// ChatModel is an OpenAI-compatible chat-completions client with tool calling: it
// implements assistant.LanguageModel with one non-streaming POST
// {BaseURL}/chat/completions per Chat call. The zero value is not usable; set
// BaseURL and Model, and call Validate when the configuration is loaded.
type ChatModel struct {
	// BaseURL is the API root, including its version path, e.g.
	// "https://api.openai.com/v1" or "http://localhost:8080/v1". Operator
	// configuration: http or https, no user info, query or fragment.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>" when set. It never appears in
	// an error.
	APIKey string
	// Model is the model name the server expects ("gpt-4o-mini", "llama3.1", …).
	Model string
	// HTTPClient carries the requests; nil means a client with no settings of its
	// own. Its CheckRedirect is replaced: redirects are never followed.
	HTTPClient *http.Client
	// Timeout bounds one Chat call, connection to last byte; zero means
	// DefaultChatTimeout.
	Timeout time.Duration
	// MaxResponseBytes bounds the response body; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// Validate reports a configuration the client refuses to use, as a
// validation_failed *veriland.Error: a BaseURL that is not http(s) or carries user
// info, a query or a fragment; an empty Model; an API key that cannot be a header;
// a negative Timeout or MaxResponseBytes.
func (m *ChatModel) Validate() error {
	const service = "language model"
	if err := validateBaseURL(service, m.BaseURL); err != nil {
		return err
	}
	if m.Model == "" {
		return veriland.Errorf(veriland.CodeValidationFailed, "the language model name is empty")
	}
	if err := validateAPIKey(service, m.APIKey); err != nil {
		return err
	}
	return validateLimits(service, m.Timeout, m.MaxResponseBytes)
}

// Chat sends one round of the conversation and returns the model's next message.
// Tool call arguments come back exactly as the model wrote them, valid JSON or not.
//
// Errors: unavailable for every failure of the server or the network (a non-2xx
// status — 429 says the model is rate limited —, a redirect, a timeout, a body that
// is not a chat completion or is larger than MaxResponseBytes) and for a
// configuration Validate refuses; internal for a request the wire cannot carry (an
// unknown role, a tool result without its call id, a tool schema that is not JSON).
// No message includes the API key, the prompt or the server's reply.
func (m *ChatModel) Chat(ctx context.Context, req assistant.ChatRequest) (*assistant.ChatResponse, error) {
	if err := m.Validate(); err != nil {
		return nil, veriland.Errorf(veriland.CodeUnavailable, "the language model is misconfigured").WithCause(err)
	}
	body, err := encodeChatRequest(m.Model, req)
	if err != nil {
		return nil, err
	}
	data, err := m.endpoint().post(ctx, "/chat/completions", "application/json", bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return nil, err
	}
	return decodeChatResponse(data)
}

func (m *ChatModel) endpoint() endpoint {
	e := endpoint{
		service:  "language model",
		baseURL:  m.BaseURL,
		apiKey:   m.APIKey,
		client:   httpClient(m.HTTPClient),
		timeout:  m.Timeout,
		maxBytes: m.MaxResponseBytes,
	}
	if e.timeout == 0 {
		e.timeout = DefaultChatTimeout
	}
	if e.maxBytes == 0 {
		e.maxBytes = DefaultMaxResponseBytes
	}
	return e
}

var _ assistant.LanguageModel = (*ChatModel)(nil)
