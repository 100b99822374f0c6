package openai

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
)

// FuzzChatResponse feeds the chat-completion decoder arbitrary bodies: it must
// return a response or an unavailable *veriland.Error, never panic, and every tool
// call it returns must have an id and a name.
func FuzzChatResponse(f *testing.F) {
	samples, err := filepath.Glob(filepath.Join("testdata", "chat", "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range samples {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	for _, s := range []string{
		``, `null`, `[]`, `{}`, `{"choices":null}`, `{"choices":[null]}`, `{"choices":[{}]}`,
		`{"choices":[{"message":null}]}`, `{"choices":[{"message":{"content":[1,2]}}]}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"a"}]}}]}`,
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"x","arguments":{"a":[1,{"b":null}]}}}]}}]}`,
		`{"choices":[{"message":{"tool_calls":[null,{"id":"","function":{"name":"x","arguments":"\u0000"}}]}}]}`,
		`{"choices":[{"message":{"content":"\ud800"}}]}`, `{"choices":[]} trailing`, "\xff\xfe{",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		resp, err := decodeChatResponse(data)
		if err != nil {
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Code != veriland.CodeUnavailable {
				t.Fatalf("error %v is not unavailable", err)
			}
			return
		}
		if resp.Message.Role != assistant.RoleAssistant {
			t.Fatalf("role %q", resp.Message.Role)
		}
		for _, c := range resp.Message.ToolCalls {
			if c.ID == "" || c.Name == "" {
				t.Fatalf("call %+v", c)
			}
		}
	})
}

// FuzzTranscriptionResponse feeds the transcription decoder arbitrary bodies: a
// result has a trimmed text, the provider name and a language that is empty, a
// two-letter lower-case code or the hint; anything else is an unavailable error.
func FuzzTranscriptionResponse(f *testing.F) {
	for _, s := range []string{
		`{"text":" What is the status of my parcel? "}`,
		`{"task":"transcribe","language":"french","duration":2.5,"text":"Quel est le statut ?","segments":[{"id":0,"start":0,"end":2.5,"text":"Quel est le statut ?"}]}`,
		`{"language":"EN","text":"hello"}`, `{"language":"klingon","text":"x"}`, `{"text":null}`, `{"text":1}`,
		`{}`, ``, `[]`, `"text"`, `{"text":"\u0000"}`, `{"text":"a"} {"text":"b"}`, "\xef\xbb\xbf{\"text\":\"bom\"}",
	} {
		f.Add([]byte(s), "fr")
		f.Add([]byte(s), "")
	}
	f.Fuzz(func(t *testing.T, data []byte, hint string) {
		res, err := decodeTranscription(data, hint)
		if err != nil {
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Code != veriland.CodeUnavailable {
				t.Fatalf("error %v is not unavailable", err)
			}
			return
		}
		if res.Provider != Provider || res.Text != strings.TrimSpace(res.Text) {
			t.Fatalf("result %+v", res)
		}
		if res.Language != hint && res.Language != "" && !isLanguageCode(res.Language) {
			t.Fatalf("language %q (hint %q)", res.Language, hint)
		}
	})
}
