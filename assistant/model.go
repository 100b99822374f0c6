package assistant

import (
	"context"
	"encoding/json"
)

// LanguageModel is a chat model with tool calling, the assistant's fallback for
// messages the embedded router cannot place. One Chat call is one round trip; the
// assistant runs the tool loop itself (schemas checked before a tool runs, at most
// Service.MaxToolRounds rounds), so that an implementation is only a wire format.
// assistant/openai is the OpenAI-compatible chat-completions implementation.
type LanguageModel interface {
	// Chat sends the conversation and the tools the model may call, and returns the
	// model's next message: text (the answer) or tool calls (run them, append the
	// results as RoleTool messages, and call Chat again). Errors are transport or
	// protocol failures; the assistant answers them with its help text.
	Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error)
}

// Chat roles, as the chat-completions wire format names them.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ChatRequest is one round of a chat with a LanguageModel.
type ChatRequest struct {
	// Messages is the conversation so far, oldest first.
	Messages []ChatMessage
	// Tools are the functions the model may call.
	Tools []ToolSpec
}

// ChatMessage is one message of a chat: a system prompt, the user's text, the
// model's answer or tool calls, or a tool's result.
type ChatMessage struct {
	// Role is RoleSystem, RoleUser, RoleAssistant or RoleTool.
	Role string
	// Content is the text of the message (a tool result's JSON for RoleTool).
	Content string
	// ToolCalls are the calls a RoleAssistant message asks for.
	ToolCalls []ToolCall
	// ToolCallID names the call a RoleTool message answers.
	ToolCallID string
}

// ToolCall is a model's request to run one tool.
type ToolCall struct {
	// ID is the model's id of the call, echoed in the RoleTool answer.
	ID string
	// Name is the tool's name.
	Name string
	// Arguments is the JSON text the model wrote as the arguments. It is untrusted:
	// it may be malformed or break the tool's schema.
	Arguments string
}

// ToolSpec describes a tool to the model: a name, what it does, and the JSON Schema
// of its arguments (an object).
type ToolSpec struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// ChatResponse is a model's next message.
type ChatResponse struct {
	// Message is the model's message (RoleAssistant): Content, or ToolCalls.
	Message ChatMessage
	// FinishReason is the wire's finish_reason ("stop", "tool_calls", "length", …).
	FinishReason string
}
