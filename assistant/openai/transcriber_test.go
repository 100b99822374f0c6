package openai

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/audio"
)

// wav returns a real RIFF/WAVE file of n samples of 16 kHz mono 16-bit silence.
func wav(n int) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("RIFF")
	_ = binary.Write(&b, le, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(16000), uint32(32000), uint16(2), uint16(16)} {
		_ = binary.Write(&b, le, v)
	}
	b.WriteString("data")
	_ = binary.Write(&b, le, uint32(2*n))
	b.Write(make([]byte, 2*n))
	return b.Bytes()
}

func speech(lang string) assistant.SpeechInput {
	return assistant.SpeechInput{
		Audio:    wav(16000),
		Info:     audio.Info{Format: audio.WAV, MediaType: "audio/wav", Codec: "pcm", Duration: time.Second, DurationKnown: true, SampleRate: 16000, Channels: 1},
		Language: lang,
	}
}

// form is what the fake transcription server parsed.
type form struct {
	path, auth, filename, fileType string
	fields                         map[string]string
	file                           []byte
	contentLength                  int64
	chunked                        bool
}

// whisperServer parses the upload with net/http, as a real server's framework
// would, and answers with status and body.
func whisperServer(t *testing.T, status int, body string) (*httptest.Server, *form) {
	t.Helper()
	got := &form{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.path, got.auth = r.URL.Path, r.Header.Get("Authorization")
		got.contentLength = r.ContentLength
		got.chunked = len(r.TransferEncoding) > 0
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			t.Errorf("ParseMultipartForm: %v", err)
			w.WriteHeader(400)
			return
		}
		got.fields = map[string]string{}
		for k, v := range r.MultipartForm.Value {
			if len(v) != 1 {
				t.Errorf("field %s sent %d times", k, len(v))
			}
			got.fields[k] = v[0]
		}
		fhs := r.MultipartForm.File["file"]
		if len(fhs) != 1 {
			t.Errorf("%d file parts", len(fhs))
		} else {
			got.filename, got.fileType = fhs[0].Filename, fhs[0].Header.Get("Content-Type")
			f, err := fhs[0].Open()
			if err != nil {
				t.Fatal(err)
			}
			got.file, _ = io.ReadAll(f)
			f.Close()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func TestTranscribe(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		model    string
		hint     string
		wantText string
		wantLang string
		wantForm map[string]string
	}{
		{"json, no hint", `{"text":" What is the status of my parcel? "}`, "", "",
			"What is the status of my parcel?", "", map[string]string{"model": "whisper-1", "response_format": "json"}},
		{"json with hint", `{"text":"Quel est le statut de ma parcelle ?"}`, "Systran/faster-whisper-small", "fr",
			"Quel est le statut de ma parcelle ?", "fr", map[string]string{"model": "Systran/faster-whisper-small", "response_format": "json", "language": "fr"}},
		{"verbose language name", `{"task":"transcribe","language":"Portuguese","duration":1.0,"text":"Qual é o estado da minha parcela?","segments":[]}`, "", "en",
			"Qual é o estado da minha parcela?", "pt", nil},
		{"arabic name", `{"language":"arabic","text":"ما حالة قطعتي؟"}`, "", "", "ما حالة قطعتي؟", "ar", nil},
		{"two-letter code", `{"language":"DE","text":"Wie ist der Status meines Flurstücks?"}`, "", "", "Wie ist der Status meines Flurstücks?", "de", nil},
		{"unsupported name falls back to hint", `{"language":"japanese","text":"…"}`, "", "it", "…", "it", nil},
		{"empty transcript", `{"text":""}`, "", "", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, got := whisperServer(t, 200, tt.body)
			tr := &Transcriber{BaseURL: srv.URL + "/v1", APIKey: testKey, Model: tt.model}
			in := speech(tt.hint)
			res, err := tr.Transcribe(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			want := assistant.Transcription{Text: tt.wantText, Language: tt.wantLang, Provider: "openai-compatible"}
			if *res != want {
				t.Errorf("got %+v, want %+v", *res, want)
			}
			if got.path != "/v1/audio/transcriptions" || got.auth != "Bearer "+testKey {
				t.Errorf("path %q, auth %q", got.path, got.auth)
			}
			if got.filename != "audio.wav" || got.fileType != "audio/wav" {
				t.Errorf("file part %q %q", got.filename, got.fileType)
			}
			if !bytes.Equal(got.file, in.Audio) {
				t.Errorf("file content differs: %d bytes, want %d", len(got.file), len(in.Audio))
			}
			if got.chunked || got.contentLength <= int64(len(in.Audio)) {
				t.Errorf("Content-Length %d, chunked %v", got.contentLength, got.chunked)
			}
			if tt.hint == "" {
				if _, ok := got.fields["language"]; ok {
					t.Error("language sent without a hint")
				}
			}
			for k, v := range tt.wantForm {
				if got.fields[k] != v {
					t.Errorf("field %s = %q, want %q", k, got.fields[k], v)
				}
			}
		})
	}
}

func TestTranscribeFormats(t *testing.T) {
	formats := []struct {
		format    audio.Format
		mediaType string
		wantType  string
	}{
		{audio.FLAC, "audio/flac", "audio/flac"},
		{audio.OGG, "audio/ogg", "audio/ogg"},
		{audio.WebM, "audio/webm", "audio/webm"},
		{audio.MP3, "audio/mpeg", "audio/mpeg"},
		{audio.M4A, "audio/mp4", "audio/mp4"},
		{audio.WAV, "", "application/octet-stream"},
	}
	srv, got := whisperServer(t, 200, `{"text":"ok"}`)
	tr := &Transcriber{BaseURL: srv.URL}
	for _, f := range formats {
		t.Run(string(f.format), func(t *testing.T) {
			in := assistant.SpeechInput{Audio: []byte("not really " + string(f.format)), Info: audio.Info{Format: f.format, MediaType: f.mediaType}}
			if _, err := tr.Transcribe(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			if got.filename != "audio."+string(f.format) || got.fileType != f.wantType {
				t.Errorf("file part %q %q", got.filename, got.fileType)
			}
			if got.auth != "" {
				t.Errorf("Authorization %q without a key", got.auth)
			}
		})
	}
}

func TestTranscribeRefused(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer srv.Close()
	tests := []struct {
		name     string
		tr       Transcriber
		in       assistant.SpeechInput
		wantCode veriland.Code
	}{
		{"empty audio", Transcriber{BaseURL: srv.URL}, assistant.SpeechInput{Info: audio.Info{Format: audio.WAV}}, veriland.CodeValidationFailed},
		{"unknown format", Transcriber{BaseURL: srv.URL}, assistant.SpeechInput{Audio: []byte("x"), Info: audio.Info{Format: "aiff"}}, veriland.CodeUnsupportedMediaType},
		{"no format", Transcriber{BaseURL: srv.URL}, assistant.SpeechInput{Audio: []byte("x")}, veriland.CodeUnsupportedMediaType},
		{"bad hint", Transcriber{BaseURL: srv.URL}, speech("english"), veriland.CodeValidationFailed},
		{"hint with quote", Transcriber{BaseURL: srv.URL}, speech(`e"`), veriland.CodeValidationFailed},
		{"bad base URL", Transcriber{BaseURL: "unix:///run/whisper.sock"}, speech(""), veriland.CodeUnavailable},
		{"user info", Transcriber{BaseURL: "http://u:p@localhost/v1"}, speech(""), veriland.CodeUnavailable},
		{"negative timeout", Transcriber{BaseURL: srv.URL, Timeout: -time.Second}, speech(""), veriland.CodeUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.tr.Transcribe(context.Background(), tt.in)
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Code != tt.wantCode {
				t.Fatalf("error %v, want %s", err, tt.wantCode)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("the server was called %d times", n)
	}
}

func TestTranscriberValidate(t *testing.T) {
	if err := (&Transcriber{BaseURL: "http://127.0.0.1:8080/v1"}).Validate(); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"", "ws://localhost/v1", "https://key@api.openai.com/v1", "https://api.openai.com/v1#x"} {
		var ve *veriland.Error
		if err := (&Transcriber{BaseURL: base}).Validate(); !errors.As(err, &ve) || ve.Code != veriland.CodeValidationFailed {
			t.Errorf("%q: %v", base, err)
		}
	}
}

func TestTranscribeServerErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		header  map[string]string
		body    string
		wantMsg string
	}{
		{"500", 500, nil, `{"error":"failed to decode audio"}`, "answered HTTP 500"},
		{"413", 413, nil, "Request Entity Too Large", "answered HTTP 413"},
		{"429", 429, map[string]string{"Retry-After": "3"}, `{"error":{"message":"Rate limit"}}`, "rate limited"},
		{"302", 302, map[string]string{"Location": "https://example.invalid/"}, "", "redirect"},
		{"garbage", 200, nil, "Hello from a text server", "not JSON"},
		{"no text", 200, nil, `{"language":"english"}`, "has no text"},
		{"text a number", 200, nil, `{"text":7}`, "not JSON"},
		{"oversized", 200, nil, `{"text":"` + strings.Repeat("la ", 400_000) + `"}`, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			tr := &Transcriber{BaseURL: srv.URL, APIKey: testKey, MaxResponseBytes: 1 << 20}
			_, err := tr.Transcribe(context.Background(), speech("en"))
			ve := wantUnavailable(t, err, tt.wantMsg)
			if !strings.Contains(ve.Message, "transcriber") {
				t.Errorf("message %q does not name the transcriber", ve.Message)
			}
		})
	}
}

func TestTranscribeTimeout(t *testing.T) {
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
	tr := &Transcriber{BaseURL: srv.URL, Timeout: 100 * time.Millisecond}
	_, err := tr.Transcribe(context.Background(), speech(""))
	wantUnavailable(t, err, "did not answer within 100ms")
}

// BenchmarkTranscribeUpload measures the client's side of a 25 MiB upload to a
// local server: the body is streamed from the caller's slice, not copied.
func BenchmarkTranscribeUpload(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"text":"ok"}`)
	}))
	defer srv.Close()
	in := assistant.SpeechInput{Audio: make([]byte, 25<<20), Info: audio.Info{Format: audio.WAV, MediaType: "audio/wav"}}
	tr := &Transcriber{BaseURL: srv.URL}
	b.SetBytes(int64(len(in.Audio)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Transcribe(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
