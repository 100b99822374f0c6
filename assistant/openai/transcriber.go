package openai

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/audio"
)

// DefaultTranscriptionTimeout bounds one transcription when Transcriber.Timeout is
// zero: a ten-minute recording on a CPU-only whisper server takes about that long.
const DefaultTranscriptionTimeout = 120 * time.Second

// DefaultTranscriptionModel is the model name sent when Transcriber.Model is empty.
// OpenAI requires it; whisper.cpp server ignores it and faster-whisper-server maps
// it to its default model.
const DefaultTranscriptionModel = "whisper-1"

// Provider is the Transcription.Provider of this package's Transcriber.
const Provider = "openai-compatible"

// Transcriber is an OpenAI-compatible speech-to-text client: it implements
// assistant.Transcriber with one multipart POST {BaseURL}/audio/transcriptions per
// recording. Set BaseURL, and call Validate when the configuration is loaded.
type Transcriber struct {
	// BaseURL is the API root, e.g. "https://api.openai.com/v1" or
	// "http://localhost:8000/v1". Operator configuration: http or https, no user
	// info, query or fragment.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>" when set.
	APIKey string
	// Model is the model name; "" means DefaultTranscriptionModel.
	Model string
	// HTTPClient carries the requests; nil means a client with no settings of its
	// own. Its CheckRedirect is replaced: redirects are never followed.
	HTTPClient *http.Client
	// Timeout bounds one transcription; zero means DefaultTranscriptionTimeout.
	Timeout time.Duration
	// MaxResponseBytes bounds the response body; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
}

// Validate reports a configuration the client refuses to use, as a
// validation_failed *veriland.Error: a BaseURL that is not http(s) or carries user
// info, a query or a fragment; an API key that cannot be a header; a negative
// Timeout or MaxResponseBytes.
func (t *Transcriber) Validate() error {
	const service = "transcriber"
	if err := validateBaseURL(service, t.BaseURL); err != nil {
		return err
	}
	if err := validateAPIKey(service, t.APIKey); err != nil {
		return err
	}
	return validateLimits(service, t.Timeout, t.MaxResponseBytes)
}

// Transcribe uploads in.Audio as "audio.<format>" with in.Info.MediaType and returns
// the server's text, trimmed. The language is the server's when it reports one (a
// Whisper language name of the seven the assistant speaks, or a two-letter code),
// otherwise in.Language.
//
// Errors: validation_failed for empty audio or a language hint that is not a
// two-letter code; unsupported_media_type for audio whose format the sniffer did not
// name; unavailable for a configuration Validate refuses and for every failure of
// the server or the network, as for ChatModel.Chat.
func (t *Transcriber) Transcribe(ctx context.Context, in assistant.SpeechInput) (*assistant.Transcription, error) {
	if err := t.Validate(); err != nil {
		return nil, veriland.Errorf(veriland.CodeUnavailable, "the transcriber is misconfigured").WithCause(err)
	}
	if len(in.Audio) == 0 {
		return nil, veriland.Errorf(veriland.CodeValidationFailed, "the recording is empty")
	}
	if !knownFormat(in.Info.Format) {
		return nil, veriland.Errorf(veriland.CodeUnsupportedMediaType, "the recording's format is not one the transcriber accepts")
	}
	if in.Language != "" && !isLanguageCode(in.Language) {
		return nil, veriland.Errorf(veriland.CodeValidationFailed, "the language hint must be an ISO 639-1 code")
	}
	model := t.Model
	if model == "" {
		model = DefaultTranscriptionModel
	}
	head, tail, contentType, err := multipartFrame(model, in)
	if err != nil {
		return nil, veriland.Errorf(veriland.CodeInternal, "the transcription request could not be built").WithCause(err)
	}
	// The recording is sent from the caller's slice, between the two small frames
	// of the multipart body, so that a 25 MiB upload is never copied; the length is
	// known, so servers that refuse chunked uploads accept it too.
	body := io.MultiReader(bytes.NewReader(head), bytes.NewReader(in.Audio), bytes.NewReader(tail))
	length := int64(len(head) + len(in.Audio) + len(tail))

	e := t.endpoint()
	data, err := e.post(ctx, "/audio/transcriptions", contentType, body, length)
	if err != nil {
		return nil, err
	}
	return decodeTranscription(data, in.Language)
}

// decodeTranscription reads a response_format=json (or verbose_json) body:
// {"text": …, "language"?: …}. A body without "text" is a protocol error; an empty
// text is a recording in which nothing was recognised.
func decodeTranscription(data []byte, hint string) (*assistant.Transcription, error) {
	e := endpoint{service: "transcriber"}
	var w struct {
		Text     *string `json:"text"`
		Language string  `json:"language"`
	}
	if err := e.decodeJSON(data, &w); err != nil {
		return nil, err
	}
	if w.Text == nil {
		return nil, e.unavailable("the transcriber's response has no text")
	}
	return &assistant.Transcription{
		Text:     strings.TrimSpace(*w.Text),
		Language: transcriptLanguage(w.Language, hint),
		Provider: Provider,
	}, nil
}

// multipartFrame writes the form fields and the file part's header (head), and the
// closing boundary (tail), of a multipart body whose file content goes between them.
func multipartFrame(model string, in assistant.SpeechInput) (head, tail []byte, contentType string, err error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fields := [][2]string{{"model", model}, {"response_format", "json"}}
	if in.Language != "" {
		fields = append(fields, [2]string{"language", in.Language})
	}
	for _, f := range fields {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			return nil, nil, "", err
		}
	}
	mediaType := in.Info.MediaType
	if mediaType == "" || strings.ContainsAny(mediaType, "\r\n") {
		mediaType = "application/octet-stream"
	}
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="audio.`+string(in.Info.Format)+`"`)
	h.Set("Content-Type", mediaType)
	if _, err := mw.CreatePart(h); err != nil {
		return nil, nil, "", err
	}
	n := buf.Len()
	if err := mw.Close(); err != nil {
		return nil, nil, "", err
	}
	all := buf.Bytes()
	return all[:n:n], all[n:], mw.FormDataContentType(), nil
}

// knownFormat reports whether f is one of the containers audio.Sniff names; the
// filename extension is built from it, and Whisper servers pick their decoder by it.
func knownFormat(f audio.Format) bool {
	switch f {
	case audio.WAV, audio.FLAC, audio.OGG, audio.WebM, audio.MP3, audio.M4A:
		return true
	}
	return false
}

func isLanguageCode(s string) bool {
	return len(s) == 2 && isASCIILetter(s[0]) && isASCIILetter(s[1])
}

func (t *Transcriber) endpoint() endpoint {
	e := endpoint{
		service:  "transcriber",
		baseURL:  t.BaseURL,
		apiKey:   t.APIKey,
		client:   httpClient(t.HTTPClient),
		timeout:  t.Timeout,
		maxBytes: t.MaxResponseBytes,
	}
	if e.timeout == 0 {
		e.timeout = DefaultTranscriptionTimeout
	}
	if e.maxBytes == 0 {
		e.maxBytes = DefaultMaxResponseBytes
	}
	return e
}

var _ assistant.Transcriber = (*Transcriber)(nil)
