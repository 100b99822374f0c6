package httpserver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/assistant/openai"
)

// pcmWAV is a mono 8-bit PCM WAV of n samples at rate Hz (silence).
func pcmWAV(rate, n int) []byte {
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + n))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1)) // PCM
	le(uint16(1)) // mono
	le(uint32(rate))
	le(uint32(rate)) // byte rate
	le(uint16(1))    // block align
	le(uint16(8))    // bits
	b.WriteString("data")
	le(uint32(n))
	b.Write(bytes.Repeat([]byte{0x80}, n))
	return b.Bytes()
}

// voiceForm is a multipart body with the given parts (name → content; "file" is sent
// as a file part with a misleading name and type, since the format is sniffed).
func voiceForm(t testing.TB, parts map[string][]byte) (string, []byte) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for name, v := range parts {
		var w io.Writer
		var err error
		if name == "file" {
			w, err = mw.CreateFormFile("file", "recording.txt")
		} else {
			w, err = mw.CreateFormField(name)
		}
		require.NoError(t, err)
		_, err = w.Write(v)
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), b.Bytes()
}

func (w *assistantWorld) voice(t *testing.T, parts map[string][]byte) response {
	t.Helper()
	ct, body := voiceForm(t, parts)
	return w.h.do(request{method: "POST", path: "/v1/assistant/voice", token: w.agent, body: body, header: map[string]string{"Content-Type": ct}})
}

// whisperServer is an OpenAI-compatible /audio/transcriptions endpoint that hears
// text in every upload and records what it received.
type whisperServer struct {
	srv   *httptest.Server
	mu    sync.Mutex
	files [][]byte
	langs []string
}

func newWhisperServer(t *testing.T, text string) *whisperServer {
	ws := &whisperServer{}
	ws.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/transcriptions" || r.ParseMultipartForm(32<<20) != nil || r.FormValue("model") == "" {
			http.Error(w, `{"error":{"message":"bad request"}}`, 400)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, `{"error":{"message":"no file"}}`, 400)
			return
		}
		data, _ := io.ReadAll(f)
		ws.mu.Lock()
		ws.files = append(ws.files, data)
		ws.langs = append(ws.langs, r.FormValue("language"))
		ws.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"text": text})
	}))
	t.Cleanup(ws.srv.Close)
	return ws
}

// TestAssistantVoiceWithoutTranscriber: 503 naming how to configure one; the upload
// checks still come first.
func TestAssistantVoiceWithoutTranscriber(t *testing.T) {
	w := newAssistantWorld(t)
	r := w.voice(t, map[string][]byte{"file": pcmWAV(8000, 8000)})
	require.Equal(t, 503, r.status, string(r.body))
	require.Equal(t, "unavailable", r.errorCode(t))
	require.Contains(t, string(r.body), "Transcriber")
}

// TestAssistantVoiceRefusals: the upload's size, format, length and fields are checked
// before anything is decoded or sent anywhere.
func TestAssistantVoiceRefusals(t *testing.T) {
	ws := newWhisperServer(t, "hello")
	w := newAssistantWorld(t)
	w.h.srv.cfg.Assistant.Transcriber = &openai.Transcriber{BaseURL: ws.srv.URL + "/v1"}
	long := pcmWAV(8000, 8000*(10*60+1)) // 10 min 1 s
	cases := []struct {
		name   string
		parts  map[string][]byte
		status int
		code   string
	}{
		{"not audio", map[string][]byte{"file": []byte("this is a text file, not a recording")}, 415, "unsupported_media_type"},
		{"png", map[string][]byte{"file": append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)}, 415, "unsupported_media_type"},
		{"empty", map[string][]byte{"file": {}}, 400, "validation_failed"},
		{"no file", map[string][]byte{"language": []byte("en")}, 400, "validation_failed"},
		{"over 10 minutes", map[string][]byte{"file": long}, 422, "audio_too_long"},
		{"broken wav", map[string][]byte{"file": append([]byte("RIFF\xff\xff\xff\xffWAVEfmt \x02\x00\x00\x00"), make([]byte, 8)...)}, 422, "invalid_audio"},
		{"unknown field", map[string][]byte{"file": pcmWAV(8000, 800), "speaker": []byte("x")}, 400, "unknown_field"},
		{"bad session", map[string][]byte{"file": pcmWAV(8000, 800), "sessionId": []byte("nope")}, 400, "validation_failed"},
		{"foreign session", map[string][]byte{"file": pcmWAV(8000, 800), "sessionId": []byte("ses_" + strings.Repeat("b", 26))}, 404, "not_found"},
		{"bad language", map[string][]byte{"file": pcmWAV(8000, 800), "language": []byte("english please")}, 400, "validation_failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := w.voice(t, c.parts)
			require.Equal(t, c.status, r.status, string(r.body))
			require.Equal(t, c.code, r.errorCode(t))
		})
	}
	require.Empty(t, ws.files, "a refused upload reached the transcriber")

	t.Run("over 25 MiB", func(t *testing.T) {
		big := pcmWAV(8000, 25<<20)
		r := w.voice(t, map[string][]byte{"file": big})
		require.Equal(t, 413, r.status)
		require.Equal(t, "payload_too_large", r.errorCode(t))
	})
	t.Run("wrong content type", func(t *testing.T) {
		r := w.h.do(request{method: "POST", path: "/v1/assistant/voice", token: w.agent, body: pcmWAV(8000, 800),
			header: map[string]string{"Content-Type": "audio/wav"}, skipSpec: true})
		require.Equal(t, 415, r.status)
	})
}

// TestAssistantVoiceAnswered: with a session, the transcript is answered as a message
// of that session (through an OpenAI-compatible transcription server).
func TestAssistantVoiceAnswered(t *testing.T) {
	ws := newWhisperServer(t, "What is the status of my parcel?")
	w := newAssistantWorld(t)
	w.h.srv.cfg.Assistant.Transcriber = &openai.Transcriber{BaseURL: ws.srv.URL + "/v1"}
	sess := attrs(t, w.h.do(request{method: "POST", path: "/v1/assistant/sessions", token: w.agent, body: map[string]any{"language": "en"}}))
	wav := pcmWAV(16000, 16000*3)
	r := w.voice(t, map[string][]byte{"file": wav, "sessionId": []byte(sess["id"].(string)), "language": []byte("en")})
	require.Equal(t, 201, r.status, string(r.body))
	a := attrs(t, r)
	require.Equal(t, "What is the status of my parcel?", a["transcript"])
	require.EqualValues(t, 3000, a["durationMs"])
	require.Equal(t, "wav", a["format"])
	require.Equal(t, "openai-compatible", a["provider"])
	reply := a["reply"].(map[string]any)
	require.Equal(t, "parcel_status", reply["intent"])
	require.Contains(t, reply["text"], w.pending)
	require.Contains(t, reply["text"], w.certified)
	require.Equal(t, [][]byte{wav}, ws.files)
	require.Equal(t, []string{"en"}, ws.langs)

	doc := w.h.do(request{method: "GET", path: "/v1/assistant/sessions/" + sess["id"].(string), token: w.agent}).json(t)
	msgs := doc["data"].(map[string]any)["attributes"].(map[string]any)["messages"].([]any)
	require.Len(t, msgs, 2)
	require.Equal(t, "voice", msgs[0].(map[string]any)["source"])

	// Without a session: the transcript alone.
	r = w.voice(t, map[string][]byte{"file": wav})
	require.Equal(t, 201, r.status, string(r.body))
	require.Nil(t, attrs(t, r)["reply"])
}
