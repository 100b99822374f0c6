package assistant

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Message is one message of a session: the user's or the assistant's. The reply of
// POST /v1/assistant/messages is the assistant's.
type Message struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionId"`
	// Role is "user" or "assistant".
	Role string `json:"role"`
	Text string `json:"text"`
	// Language is the language of the answer (ISO 639-1), one of Languages.
	Language string `json:"language"`
	// DetectedLanguage is what the detector found in the user's text: ISO 639-1
	// (639-3 for a language without a 639-1 code), or "und".
	DetectedLanguage string `json:"detectedLanguage"`
	// Intent is what the router made of the user's text.
	Intent Intent `json:"intent"`
	// Actions are links offered with the answer: always present on assistant
	// messages ([] when none), absent on user messages.
	Actions []Action `json:"actions,omitzero"`
	// References are the records the answer was grounded on (assistant messages,
	// [] when none).
	References []Reference `json:"references,omitzero"`
	// Source is "text" or "voice" (user messages).
	Source    string    `json:"source,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// MessageRequest is the body of POST /v1/assistant/messages.
type MessageRequest struct {
	// SessionID continues a session of the caller's; without it a session is created
	// and its id is the reply's sessionId.
	SessionID *string `json:"sessionId,omitempty"`
	// Text is the user's message, 1..MaxTextLength characters.
	Text string `json:"text"`
	// Language, when set, is the language to answer in (a BCP 47 tag; its primary
	// language decides); it wins over detection. A language the assistant does not
	// speak gets an English answer that says so.
	Language *string `json:"language,omitempty"`
}

// MaxTextLength bounds a message, in characters.
const MaxTextLength = 4000

var languageTag = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$`)

// Validate checks the request, one error per offending member.
func (r MessageRequest) Validate() error {
	var errs veriland.Errors
	if n := utf8.RuneCountInString(r.Text); !utf8.ValidString(r.Text) || n < 1 || n > MaxTextLength || strings.TrimSpace(r.Text) == "" {
		errs = append(errs, veriland.Invalid("/text", "text must be 1 to %d characters, not only spaces", MaxTextLength).
			WithMeta("maxLength", MaxTextLength))
	}
	if r.Language != nil && !languageTag.MatchString(*r.Language) {
		errs = append(errs, veriland.Invalid("/language", "language must be a language tag such as \"fr\" or \"pt-BR\""))
	}
	if r.SessionID != nil && !ids.Valid(*r.SessionID, "ses") {
		errs = append(errs, veriland.Invalid("/sessionId", "sessionId must be a session id (ses_…)"))
	}
	return errs.Err()
}

// primary returns the lower-cased primary language subtag of a BCP 47 tag.
func primary(tag string) string {
	p, _, _ := strings.Cut(tag, "-")
	return strings.ToLower(p)
}

// Send answers the user's text as p and stores both messages in the session (a new
// one when req.SessionID is nil). Errors: validation_failed, not_found (a session
// that is not p's).
func (s *Service) Send(ctx context.Context, p veriland.Principal, req MessageRequest) (*Message, error) {
	return s.send(ctx, p, req, "text")
}

// turn is one exchange being answered.
type turn struct {
	lang, detected string
	sticky         bool // the language may become the session's
	intent         Intent
	text           string
	actions        []Action
	refs           []Reference
	topic          string
}

func (s *Service) send(ctx context.Context, p veriland.Principal, req MessageRequest, source string) (*Message, error) {
	if err := s.check(p.Env); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var sess *sessionRecord
	if req.SessionID != nil {
		err := s.Store.View(ctx, func(tx storage.Tx) error {
			var err error
			sess, err = repo(tx, p.Env).ownedSession(p, *req.SessionID)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	t, err := s.answer(ctx, p, req, sess)
	if err != nil {
		return nil, err
	}
	return s.record(ctx, p, req, source, t)
}

// answer decides the language, routes the text and runs the tools or the model.
// It runs outside any transaction: the tools open their own.
func (s *Service) answer(ctx context.Context, p veriland.Principal, req MessageRequest, sess *sessionRecord) (*turn, error) {
	det := DetectLanguage(req.Text)
	t := &turn{detected: det.Language}
	unsupported := ""
	switch {
	case req.Language != nil && Supported(primary(*req.Language)):
		t.lang, t.sticky = primary(*req.Language), true
	case req.Language != nil:
		t.lang, unsupported = "en", primary(*req.Language)
	case det.Reliable && det.Supported():
		t.lang, t.sticky = det.Language, true
	case det.Reliable && !det.Supported():
		// A language the assistant does not speak, or one the detector cannot name
		// (Undetermined): English, never a guessed supported language.
		t.lang, unsupported = "en", det.Language
	case sess != nil && sess.Language != "":
		t.lang = sess.Language
	case det.Supported():
		t.lang = det.Language
	default:
		t.lang = "en"
	}
	intent, ents := Route(req.Text)
	if sess != nil {
		ents = followTopic(intent, ents, sess.Topic)
	}
	if intent == IntentParcelStatus && len(ents.Parcels) == 0 && ownsByWallet(p) {
		// A holder's parcels are the ones it owns with its wallet.
		intent = IntentMyParcels
	}
	f, err := s.Domain.run(ctx, p, intent, ents)
	if err != nil {
		return nil, err
	}
	var prefix []sentence
	if unsupported != "" {
		name := languageNames[unsupported]
		if name == "" {
			name = "a language I do not speak (" + unsupported + ")"
		}
		prefix = append(prefix, sentence{"unsupported", map[string]string{"language": name}})
	}
	switch {
	case f != nil:
		t.intent = intent
	case unsupported != "":
		t.intent = IntentUnsupportedLanguage
		f = &finding{sentences: []sentence{{key: "help"}}}
	case intent == IntentHelp:
		t.intent = intent
		f = &finding{sentences: []sentence{{key: "help"}}}
	case s.Model != nil:
		text, mf, err := s.askModel(ctx, p, req.Text, t.lang)
		if err == nil {
			t.intent, t.text = IntentModel, text
			t.actions, t.refs = actions(t.lang, mf.actions), mf.refs
			return t, nil
		}
		s.logger().WarnContext(ctx, "language model failed; answering with the help text", "err", err)
		t.intent = IntentUnknown
		f = &finding{sentences: []sentence{{key: "unknown"}, {key: "help"}}}
	default:
		t.intent = IntentUnknown
		f = &finding{sentences: []sentence{{key: "unknown"}, {key: "help"}}}
	}
	t.text = render(t.lang, append(prefix, f.sentences...))
	t.actions, t.refs = actions(t.lang, f.actions), f.refs
	if len(f.refs) > 0 {
		t.topic = f.refs[0].ID
	}
	return t, nil
}

// followTopic lets a question without an id ("and its certificate?", "can I
// transfer it?") use the entity of the session's previous answer.
func followTopic(intent Intent, e Entities, topic string) Entities {
	if !e.Empty() || topic == "" {
		return e
	}
	switch {
	case intent == IntentTransferHowTo && strings.HasPrefix(topic, "prc_"):
		e.Parcels = []string{topic}
	case intent == IntentCertificateCheck && strings.HasPrefix(topic, "0x"):
		e.Hashes = []string{topic}
	case intent == IntentVerificationStatus && strings.HasPrefix(topic, "vrq_"):
		e.Requests = []string{topic}
	case intent == IntentAttestationStatus && strings.HasPrefix(topic, "att_"):
		e.Attestations = []string{topic}
	}
	return e
}

// run answers an intent the router placed with the domain tools; nil for the
// intents that are not a lookup (help, unknown).
func (d Domain) run(ctx context.Context, p veriland.Principal, intent Intent, e Entities) (*finding, error) {
	each := func(ids []string, fn func(context.Context, veriland.Principal, string) (*finding, error)) (*finding, error) {
		out := &finding{}
		for _, id := range ids {
			f, err := fn(ctx, p, id)
			if err != nil {
				return nil, err
			}
			out.sentences = append(out.sentences, f.sentences...)
			out.actions = append(out.actions, f.actions...)
			out.refs = append(out.refs, f.refs...)
		}
		return out, nil
	}
	ask := func(key string) *finding { return &finding{sentences: []sentence{{key: key}}} }
	switch intent {
	case IntentParcelStatus:
		if len(e.Parcels) == 0 {
			return d.myParcels(ctx, p)
		}
		return each(e.Parcels, d.parcelStatus)
	case IntentMyParcels:
		return d.ownedParcels(ctx, p)
	case IntentCertificateCheck:
		if len(e.Hashes) == 0 {
			return ask("certificate.needHash"), nil
		}
		return each(e.Hashes, d.certificateCheck)
	case IntentTransferHowTo:
		if len(e.Parcels) == 0 {
			return d.transferHowTo(ctx, p, "")
		}
		return each(e.Parcels, d.transferHowTo)
	case IntentVerificationStatus:
		if len(e.Requests) == 0 {
			return ask("request.needId"), nil
		}
		return each(e.Requests, d.verificationStatus)
	case IntentAttestationStatus:
		if len(e.Attestations) == 0 {
			return ask("attestation.needId"), nil
		}
		return each(e.Attestations, d.attestationStatus)
	}
	return nil, nil
}

// record stores the user's message and the reply (creating the session when the
// request named none) and returns the reply.
func (s *Service) record(ctx context.Context, p veriland.Principal, req MessageRequest, source string, t *turn) (*Message, error) {
	var reply *Message
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, p.Env)
		var sess *sessionRecord
		var err error
		if req.SessionID != nil {
			sess, err = r.ownedSession(p, *req.SessionID)
		} else {
			sess, err = s.newSession(tx, p, SessionRequest{})
		}
		if err != nil {
			return err
		}
		now := s.now()
		if t.sticky || sess.Language == "" {
			sess.Language = t.lang
		}
		if t.topic != "" {
			sess.Topic = t.topic
		}
		user := &Message{Role: RoleUser, Text: req.Text, Language: t.lang, DetectedLanguage: t.detected, Intent: t.intent, Source: source, CreatedAt: now}
		reply = &Message{Role: RoleAssistant, Text: t.text, Language: t.lang, DetectedLanguage: t.detected, Intent: t.intent,
			Actions: nonNil(t.actions), References: nonNil(t.refs), CreatedAt: now}
		for _, m := range []*Message{user, reply} {
			if err := s.appendMessage(r, sess, m); err != nil {
				return err
			}
		}
		sess.UpdatedAt = now
		return r.putSession(sess)
	})
	if err != nil {
		return nil, err
	}
	return reply, nil
}

// appendMessage gives m an id and the session's next sequence number and stores it
// sealed.
func (s *Service) appendMessage(r repository, sess *sessionRecord, m *Message) error {
	id, err := ids.New(s.rand(), "msg")
	if err != nil {
		return err
	}
	sess.Seq++
	sess.MessageCount++
	m.ID, m.SessionID = id, sess.ID
	body, err := json.Marshal(messageBody{Text: m.Text, Actions: m.Actions, References: m.References})
	if err != nil {
		return err
	}
	sealed, err := s.sealText(r.env, sess, id, body)
	if err != nil {
		return err
	}
	return r.putMessage(sess.ID, &messageRecord{
		ID: id, Seq: sess.Seq, Role: m.Role, Body: sealed, Language: m.Language, DetectedLanguage: m.DetectedLanguage,
		Intent: string(m.Intent), Source: m.Source, CreatedAt: m.CreatedAt,
	})
}

// nonNil returns s, or an empty slice for nil (an assistant message always has
// actions and references, [] when none).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
