// Package openai holds the assistant's two remote back-ends, both speaking the
// OpenAI HTTP API that most model servers now imitate:
//
//   - ChatModel implements assistant.LanguageModel with chat completions and tool
//     calling (POST {BaseURL}/chat/completions, "stream": false). It was written
//     against OpenAI's documented wire format and the servers that reproduce it:
//     vLLM, llama.cpp server (llama-server --jinja), Ollama's /v1 and LocalAI.
//   - Transcriber implements assistant.Transcriber with speech-to-text
//     (multipart POST {BaseURL}/audio/transcriptions), for OpenAI, whisper.cpp
//     server, faster-whisper-server (Speaches) and LocalAI.
//
// The package is only a wire format. The tool loop, the tools' schemas and the
// decision of what to send belong to package assistant: ChatModel passes a tool
// call's arguments back exactly as the model wrote them, valid JSON or not, and
// the assistant checks them before any tool runs.
//
// What it trusts and what it refuses. The base URL and the key are operator
// configuration; Validate refuses a URL that is not http(s) or that carries user
// info, a query or a fragment, so a key is only ever sent as a bearer header. The
// server is not trusted: redirects are never followed (a 3xx is an error, so the
// key and the user's words never go where a Location points), every call has a
// deadline, and a response body is read up to MaxResponseBytes and no further.
//
// Errors are *veriland.Error values with code unavailable for anything the server
// or the network did wrong (HTTP status, timeout, redirect, a body that is not the
// expected JSON or is too large). Their messages never contain the API key, the
// prompt, the audio or the server's own error text, which providers fill with
// echoes of both; the status code and, for 429, Retry-After are in Meta.
package openai
