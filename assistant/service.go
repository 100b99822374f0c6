package assistant

import (
	"crypto/rand"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Service is the assistant (SPEC S11): sessions, messages answered by the embedded
// router or the configured language model, and voice transcription. All its methods
// are safe for concurrent use. Store and Fields are required.
type Service struct {
	// Store holds sessions and messages, namespaced per environment.
	Store storage.Store
	// Fields seals each session's data key; message text and titles are sealed under
	// that per-session key, so that deleting a session crypto-erases every copy of its
	// messages (backups and freed pages included).
	Fields *fieldcrypt.Keyring
	// Domain is what the tools read: parcels, certificates, verification requests
	// and attestations, each with the caller's own permissions.
	Domain Domain
	// Model answers the messages the embedded router cannot place; nil answers them
	// with the help text in the user's language.
	Model LanguageModel
	// MaxToolRounds bounds the model's tool calls per message (default 4).
	MaxToolRounds int
	// ModelTimeout bounds one message's whole exchange with the model (default 60 s).
	ModelTimeout time.Duration
	// Transcriber turns voice uploads into text; nil makes Transcribe answer
	// unavailable with TranscriberHint.
	Transcriber Transcriber
	// TranscriberHint is the message of that unavailable error: how the operator
	// configures a transcriber (the reference server names its flags).
	TranscriberHint string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Rand is the source of ids and keys (nil: crypto/rand.Reader).
	Rand io.Reader
	// Logger receives operational messages (nil: slog.Default()). Never message text.
	Logger *slog.Logger
}

func (s *Service) check(env veriland.Environment) error {
	if s == nil || s.Store == nil || s.Fields == nil {
		return errors.New("assistant: Service needs Store and Fields")
	}
	if !env.Valid() {
		return veriland.Errorf(veriland.CodeForbidden, "unknown environment %q", env)
	}
	return nil
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) rand() io.Reader {
	if s.Rand != nil {
		return s.Rand
	}
	return rand.Reader
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Service) maxToolRounds() int {
	if s.MaxToolRounds > 0 {
		return s.MaxToolRounds
	}
	return 4
}

func (s *Service) modelTimeout() time.Duration {
	if s.ModelTimeout > 0 {
		return s.ModelTimeout
	}
	return 60 * time.Second
}
