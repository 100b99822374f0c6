package pocketsphinx

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant/audio"
)

func TestCheckLanguage(t *testing.T) {
	tests := []struct {
		hint string
		ok   bool
	}{
		{"", true}, {"en", true}, {"EN", true}, {"en-GB", true}, {"en_US", true}, {" en ", true},
		{"fr", false}, {"es", false}, {"ar", false}, {"english", false}, {"e", false}, {"-en", false},
	}
	for _, tt := range tests {
		err := checkLanguage(tt.hint)
		if (err == nil) != tt.ok {
			t.Errorf("checkLanguage(%q) = %v, want ok=%v", tt.hint, err, tt.ok)
			continue
		}
		if err == nil {
			continue
		}
		var e *veriland.Error
		if !errors.As(err, &e) || e.Code != veriland.CodeValidationFailed || e.Pointer != "/language" {
			t.Errorf("checkLanguage(%q) = %#v, want validation_failed at /language", tt.hint, err)
		}
		if !strings.Contains(e.Message, "English only") || !strings.Contains(e.Message, "-transcriber-url") {
			t.Errorf("message %q should say English only and name -transcriber-url", e.Message)
		}
	}
}

func TestAudioError(t *testing.T) {
	tests := []struct {
		err  error
		code veriland.Code
	}{
		{fmt.Errorf("%w: ogg needs a codec", audio.ErrCannotDecode), veriland.CodeUnsupportedMediaType},
		{audio.ErrUnknownFormat, veriland.CodeUnsupportedMediaType},
		{fmt.Errorf("%w: WAV: short fmt", audio.ErrMalformed), veriland.CodeInvalidAudio},
		{audio.ErrTooLong, veriland.CodeAudioTooLong},
		{errors.New("something else"), veriland.CodeInvalidAudio},
	}
	for _, tt := range tests {
		err := audioError(tt.err)
		var e *veriland.Error
		if !errors.As(err, &e) || e.Code != tt.code || e.Pointer != "/file" {
			t.Errorf("audioError(%v) = %#v, want %s at /file", tt.err, err, tt.code)
			continue
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("audioError(%v) lost its cause", tt.err)
		}
		if tt.code == veriland.CodeUnsupportedMediaType {
			for _, want := range []string{"WAV", "FLAC", "MP3", "-transcriber-url"} {
				if !strings.Contains(e.Message, want) {
					t.Errorf("message %q lacks %q", e.Message, want)
				}
			}
		}
	}
}

// The language hint comes from the client's form: any string must give nil or a
// validation error, never a panic, and only English passes.
func FuzzCheckLanguage(f *testing.F) {
	for _, s := range []string{"", "en", "en-GB", "fr", "pt-BR", "zh_Hant_TW", "\xff\xfe", "en-", "-", "_en", strings.Repeat("a-", 100)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, hint string) {
		err := checkLanguage(hint)
		primary := strings.ToLower(strings.TrimSpace(hint))
		en := primary == "en" || strings.HasPrefix(primary, "en-") || strings.HasPrefix(primary, "en_") || primary == ""
		if (err == nil) != en {
			t.Fatalf("checkLanguage(%q) = %v", hint, err)
		}
		if err != nil && veriland.CodeOf(err) != veriland.CodeValidationFailed {
			t.Fatalf("checkLanguage(%q) gave code %s", hint, veriland.CodeOf(err))
		}
	})
}
