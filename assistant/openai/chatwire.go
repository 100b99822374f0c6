package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
)

// The chat-completions wire format, as OpenAI documents it and vLLM, llama.cpp
// server, Ollama's /v1 and LocalAI accept it.

type wireChatRequest struct {
	Model      string        `json:"model"`
	Messages   []wireMessage `json:"messages"`
	Tools      []wireTool    `json:"tools,omitempty"`
	ToolChoice string        `json:"tool_choice,omitempty"`
	Stream     bool          `json:"stream"`
}

type wireMessage struct {
	Role string `json:"role"`
	// Content is a pointer because an assistant message that only calls tools
	// carries "content": null, which some servers require instead of "".
	Content    *string        `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type wireToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function wireCallFunction `json:"function"`
}

type wireCallFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// The response side is decoded loosely: content and arguments are kept raw so that
// the few shapes servers actually send (null, a string, an array of text parts; a
// JSON string of arguments or, from non-conforming servers, an object) are all read.

type wireChatResponse struct {
	Choices []wireChoice `json:"choices"`
}

type wireChoice struct {
	Message      wireResponseMessage `json:"message"`
	FinishReason string              `json:"finish_reason"`
}

type wireResponseMessage struct {
	Content   json.RawMessage        `json:"content"`
	ToolCalls []wireResponseToolCall `json:"tool_calls"`
}

type wireResponseToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// emptyObjectSchema stands in for a tool without parameters: the wire wants an
// object schema, and OpenAI refuses a missing one for strict servers.
var emptyObjectSchema = json.RawMessage(`{"type":"object","properties":{}}`)

// encodeChatRequest builds the request body. It refuses a conversation the wire
// cannot carry (an unknown role, a tool result without its call id, a tool whose
// schema is not JSON) with an internal error: those are the caller's bugs, not the
// model's.
func encodeChatRequest(model string, req assistant.ChatRequest) ([]byte, error) {
	if len(req.Messages) == 0 {
		return nil, veriland.Errorf(veriland.CodeInternal, "a chat request needs at least one message")
	}
	w := wireChatRequest{Model: model, Messages: make([]wireMessage, 0, len(req.Messages))}
	for i, m := range req.Messages {
		wm, err := encodeMessage(m)
		if err != nil {
			return nil, err.WithMeta("message", i)
		}
		w.Messages = append(w.Messages, wm)
	}
	for _, t := range req.Tools {
		if t.Name == "" {
			return nil, veriland.Errorf(veriland.CodeInternal, "a tool has no name")
		}
		params := t.Parameters
		if len(bytes.TrimSpace(params)) == 0 {
			params = emptyObjectSchema
		} else if !json.Valid(params) {
			return nil, veriland.Errorf(veriland.CodeInternal, "tool %q has parameters that are not JSON", t.Name)
		}
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireFunction{
			Name: t.Name, Description: t.Description, Parameters: params,
		}})
	}
	if len(w.Tools) > 0 {
		// Servers reject tool_choice without tools, so it is only sent with them.
		w.ToolChoice = "auto"
	}
	body, err := json.Marshal(w)
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "the chat request could not be encoded").WithCause(err)
	}
	return body, nil
}

func encodeMessage(m assistant.ChatMessage) (wireMessage, *veriland.Error) {
	content := m.Content
	wm := wireMessage{Role: m.Role, Content: &content}
	switch m.Role {
	case assistant.RoleSystem, assistant.RoleUser:
		if len(m.ToolCalls) > 0 || m.ToolCallID != "" {
			return wm, veriland.Errorf(veriland.CodeInternal, "a %s message cannot carry tool calls", m.Role)
		}
	case assistant.RoleAssistant:
		if m.ToolCallID != "" {
			return wm, veriland.Errorf(veriland.CodeInternal, "an assistant message cannot answer a tool call")
		}
		if len(m.ToolCalls) > 0 && m.Content == "" {
			wm.Content = nil
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" || c.Name == "" {
				return wm, veriland.Errorf(veriland.CodeInternal, "a tool call needs an id and a name")
			}
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
				ID: c.ID, Type: "function",
				Function: wireCallFunction{Name: c.Name, Arguments: c.Arguments},
			})
		}
	case assistant.RoleTool:
		if m.ToolCallID == "" {
			return wm, veriland.Errorf(veriland.CodeInternal, "a tool message needs the id of the call it answers")
		}
		if len(m.ToolCalls) > 0 {
			return wm, veriland.Errorf(veriland.CodeInternal, "a tool message cannot carry tool calls")
		}
		wm.ToolCallID = m.ToolCallID
	default:
		return wm, veriland.Errorf(veriland.CodeInternal, "unknown chat role %q", m.Role)
	}
	return wm, nil
}

// decodeChatResponse reads choices[0] of a chat completion. Tool call arguments are
// returned as the text the model wrote, unvalidated: the assistant checks them
// against the tool's schema. A call without an id gets one ("call_<index>") so that
// its result can still be matched; llama.cpp and Ollama have omitted ids in some
// versions.
func decodeChatResponse(data []byte) (*assistant.ChatResponse, error) {
	e := endpoint{service: "language model"}
	var w wireChatResponse
	if err := e.decodeJSON(data, &w); err != nil {
		return nil, err
	}
	if len(w.Choices) == 0 {
		return nil, e.unavailable("the language model returned no choices")
	}
	c := w.Choices[0]
	content, err := decodeContent(c.Message.Content)
	if err != nil {
		return nil, e.unavailable("the language model returned content of an unknown shape").WithCause(err)
	}
	out := &assistant.ChatResponse{
		Message:      assistant.ChatMessage{Role: assistant.RoleAssistant, Content: content},
		FinishReason: c.FinishReason,
	}
	for i, tc := range c.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			return nil, e.unavailable("the language model called a tool of unknown type").WithMeta("toolCall", i)
		}
		if tc.Function.Name == "" {
			return nil, e.unavailable("the language model called a tool without a name").WithMeta("toolCall", i)
		}
		args, err := decodeArguments(tc.Function.Arguments)
		if err != nil {
			return nil, e.unavailable("the language model sent tool arguments of an unknown shape").
				WithMeta("toolCall", i).WithCause(err)
		}
		id := tc.ID
		if id == "" {
			id = "call_" + strconv.Itoa(i)
		}
		out.Message.ToolCalls = append(out.Message.ToolCalls, assistant.ToolCall{
			ID: id, Name: tc.Function.Name, Arguments: args,
		})
	}
	return out, nil
}

// decodeContent reads a message's content: absent or null (""), a string, or an
// array of parts whose text parts are joined.
func decodeContent(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" || p.Type == "output_text" {
				b.WriteString(p.Text)
			}
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("content is neither a string, null nor an array of parts")
}

// decodeArguments returns the arguments text: the wire carries it as a JSON string
// whose value is passed through untouched, even when it is not valid JSON. A server
// that sends an object instead has its object's text passed through.
func decodeArguments(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '{':
		return string(raw), nil
	}
	return "", fmt.Errorf("arguments are neither a string nor an object")
}
