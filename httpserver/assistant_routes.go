package httpserver

import (
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
)

// JSON:API resource types of the assistant routes (SPEC S11).
const (
	typeAssistantSessions       = "assistant-sessions"
	typeAssistantMessages       = "assistant-messages"
	typeAssistantTranscriptions = "assistant-transcriptions"
)

const mediaMultipart = "multipart/form-data"

// limitVoiceBody is the largest voice request: the 25 MiB file plus room for the
// multipart framing and the two small fields.
const limitVoiceBody = limitVoice + 64<<10

func sessionSelf(id string) string { return "/v1/assistant/sessions/" + id }

// createAssistantSession answers POST /v1/assistant/sessions {language?, title?}: 201.
func (s *Server) createAssistantSession(w http.ResponseWriter, r *http.Request) error {
	var req assistant.SessionRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	sess, err := s.cfg.Assistant.CreateSession(r.Context(), principal(r), req)
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusCreated, typeAssistantSessions, sess.ID, sess, sessionSelf(sess.ID))
	return nil
}

// listAssistantSessions answers GET /v1/assistant/sessions: the caller's sessions,
// newest first, without their messages.
func (s *Server) listAssistantSessions(w http.ResponseWriter, r *http.Request) error {
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	list, next, err := s.cfg.Assistant.ListSessions(r.Context(), principal(r), r.URL.Query().Get("cursor"), pg.limit)
	if err != nil {
		return err
	}
	items := make([]resource, 0, len(list))
	for _, sess := range list {
		items = append(items, newResource(typeAssistantSessions, sess.ID, sess, sessionSelf(sess.ID)))
	}
	s.writeCollection(w, r, items, next)
	return nil
}

// getAssistantSession answers GET /v1/assistant/sessions/{id}: the session with one
// page of its messages (oldest first, ?limit=&cursor=), links.next and meta.has_more.
func (s *Server) getAssistantSession(w http.ResponseWriter, r *http.Request) error {
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	id := r.PathValue("id")
	page, err := s.cfg.Assistant.GetSession(r.Context(), principal(r), id, r.URL.Query().Get("cursor"), pg.limit)
	if err != nil {
		return err
	}
	doc := document{Data: newResource(typeAssistantSessions, id, page, sessionSelf(id)),
		Links: &documentLinks{Self: r.URL.RequestURI()}, Meta: map[string]any{"has_more": page.Next != ""}}
	if page.Next != "" {
		q := r.URL.Query()
		q.Set("cursor", page.Next)
		doc.Links.Next = r.URL.Path + "?" + q.Encode()
	}
	s.writeJSON(w, r, http.StatusOK, doc)
	return nil
}

// deleteAssistantSession answers DELETE /v1/assistant/sessions/{id}: 204, the session
// and its messages erased.
func (s *Server) deleteAssistantSession(w http.ResponseWriter, r *http.Request) error {
	if err := s.cfg.Assistant.DeleteSession(r.Context(), principal(r), r.PathValue("id")); err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// sendAssistantMessage answers POST /v1/assistant/messages {sessionId?, text,
// language?}: 201 with the assistant's reply.
func (s *Server) sendAssistantMessage(w http.ResponseWriter, r *http.Request) error {
	var req assistant.MessageRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	msg, err := s.cfg.Assistant.Send(r.Context(), principal(r), req)
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusCreated, typeAssistantMessages, msg.ID, msg, sessionSelf(msg.SessionID))
	return nil
}

// assistantVoice answers POST /v1/assistant/voice (multipart/form-data: file,
// sessionId?, language?): 201 with the transcript, and the reply with a sessionId.
func (s *Server) assistantVoice(w http.ResponseWriter, r *http.Request) error {
	// Transcription may take longer than an ordinary request: the write deadline is
	// pushed to the idempotency lease (so that a retry with the same key never runs
	// while the first is still transcribing), and the work is bounded just inside it.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(idempotencyLease))
	ctx, cancel := context.WithTimeout(r.Context(), voiceTimeout)
	defer cancel()
	req, err := readVoiceForm(r)
	if err != nil {
		return err
	}
	res, err := s.cfg.Assistant.Transcribe(ctx, principal(r), req)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		return veriland.Errorf(veriland.CodeUnavailable, "transcription took longer than %d s; send a shorter recording, or configure a faster transcriber (-transcriber-url)",
			int(voiceTimeout.Seconds())).WithCause(err)
	}
	if err != nil {
		return err
	}
	self := ""
	if res.Reply != nil {
		self = sessionSelf(res.Reply.SessionID)
	}
	s.writeResource(w, r, http.StatusCreated, typeAssistantTranscriptions, res.ID, res, self)
	return nil
}

// voiceTimeout bounds one voice request's reading, transcription and answer.
const voiceTimeout = idempotencyLease - 15*time.Second

// maxVoiceField bounds the text fields of a voice upload.
const maxVoiceField = 256

// readVoiceForm reads the multipart body as a stream: the file part up to
// assistant.MaxAudioBytes (413 beyond), the text fields up to 256 bytes, and refuses
// unknown or repeated parts (400).
func readVoiceForm(r *http.Request) (assistant.VoiceRequest, error) {
	var req assistant.VoiceRequest
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || params["boundary"] == "" {
		return req, veriland.Errorf(veriland.CodeUnsupportedMediaType, "Content-Type must be multipart/form-data with a boundary")
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	seen := map[string]bool{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return req, multipartError(err)
		}
		name := part.FormName()
		if seen[name] {
			return req, veriland.Invalid("/"+escapePointer(name), "%s is sent more than once", name)
		}
		seen[name] = true
		switch name {
		case "file":
			b, err := io.ReadAll(io.LimitReader(part, assistant.MaxAudioBytes+1))
			if err != nil {
				return req, multipartError(err)
			}
			if len(b) > assistant.MaxAudioBytes {
				return req, veriland.Errorf(veriland.CodePayloadTooLarge, "file is larger than %d MiB", assistant.MaxAudioBytes>>20).
					WithMeta("maxBytes", assistant.MaxAudioBytes)
			}
			req.Audio = b
		case "sessionId", "language":
			b, err := io.ReadAll(io.LimitReader(part, maxVoiceField+1))
			if err != nil {
				return req, multipartError(err)
			}
			if len(b) > maxVoiceField {
				return req, veriland.Invalid("/"+name, "%s is longer than %d bytes", name, maxVoiceField)
			}
			v := strings.TrimSpace(string(b))
			if name == "sessionId" {
				req.SessionID = &v
			} else {
				req.Language = &v
			}
		default:
			if name == "" {
				return req, veriland.Errorf(veriland.CodeValidationFailed, "every part needs a form-data name")
			}
			return req, veriland.Errorf(veriland.CodeUnknownField, "unknown form field %q: the fields are file, sessionId and language", name).
				WithMeta("field", name)
		}
	}
	if req.Audio == nil {
		return req, veriland.Invalid("/file", "file is required: the recording, as a multipart file part")
	}
	return req, nil
}

// multipartError maps a failure to read the multipart body: too large → 413, broken
// framing → 400.
func multipartError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return veriland.Errorf(veriland.CodePayloadTooLarge, "request body too large").WithCause(err)
	}
	return veriland.Errorf(veriland.CodeValidationFailed, "the multipart body is malformed").WithCause(err)
}
