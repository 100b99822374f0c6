// Package assistant is the multilingual assistant of SPEC S11: persistent sessions,
// messages answered in the user's language with facts read from the domain, a
// pluggable language model for what the embedded router cannot place, and speech to
// text. It imports no HTTP; httpserver maps its errors.
//
// # API summary (for the HTTP layer)
//
//	Service.CreateSession(ctx, p, SessionRequest) (*Session, error)           POST /v1/assistant/sessions (201)
//	Service.ListSessions(ctx, p, cursor, limit) ([]*Session, next, error)     GET /v1/assistant/sessions (newest first)
//	Service.GetSession(ctx, p, id, cursor, limit) (*SessionPage, error)        GET /v1/assistant/sessions/{id}
//	Service.DeleteSession(ctx, p, id) error                                    DELETE /v1/assistant/sessions/{id} (204)
//	Service.Send(ctx, p, MessageRequest) (*Message, error)                     POST /v1/assistant/messages (201)
//	Service.Transcribe(ctx, p, VoiceRequest) (*VoiceResult, error)             POST /v1/assistant/voice (201)
//	DetectLanguage(text) Detection, Route(text) (Intent, Entities)            the embedded detector and router
//
// # What a message goes through
//
// The language is the request's language when given (a BCP 47 tag; its primary
// subtag decides), else the detected one when the detector is sure, else the
// session's (a short "prc_… ?" keeps the conversation's language), else the
// detector's hint, else English. Detection (DetectLanguage) is whatlanggo's trigram
// model, kept to the seven supported languages unless a text is clearly in another,
// helped by the function words of each language and of the languages it recognises
// without answering in them (Recognised: Swahili, Hausa, Yoruba, Igbo). It never
// guesses: a text nothing vouches for is Undetermined. A language outside en, fr, es,
// pt, ar, de, it — or a text of three words or more in a language the detector cannot
// name — gets an English answer that says which languages are spoken (intent
// unsupported_language); a lookup it names (an id, a hash) is still answered, in
// English.
//
// The router (Route) extracts entities — prc_…, vrq_…, att_… ids and 0x… hashes of
// 64 hex digits — and decides by them first, then by keywords of every supported
// language (keywords.go), matched on text without case and diacritics. Its intents
// map to tools over the domain services (Domain): parcel status (or the caller's
// parcels), the owner's parcels (my_parcels: a holder signed in with its wallet gets
// parcel.Service.MyParcels — each parcel's id, city, status, version and owner
// binding, and a transfer that waits for its signature with the page to sign it on;
// any other caller is told that the list is for owners signed in with their wallet),
// certificate check, transfer how-to (an owner with a wallet signs the transfer; a
// notary never requests one), verification request status, attestation status, and
// help. Every lookup runs with the caller's own principal
// through the same service method as the route that serves the record, so the
// assistant never shows more than the caller's token could read: another account's
// parcel reads exactly like a parcel that does not exist. Answers are templates per
// language (answers_*.go) that cite the ids and hashes they used; the reply lists
// them in references and offers links in actions (the verification page, the PDF,
// the consent page). A question that names an entity kind without an id follows the
// session's previous topic ("transférer ?" after a parcel).
//
// A message the router cannot place goes to Service.Model (LanguageModel; the
// OpenAI-compatible client is assistant/openai) with the same tools, each behind a
// JSON Schema that the model's arguments must pass before the tool runs; at most
// MaxToolRounds rounds and 8 calls a round, within ModelTimeout. The model sees the
// system prompt, the user's message and the tools' results (ids, states, places,
// hashes and dates; never a name or an identity document), nothing of earlier
// messages. When there is no model, or it fails or loops, the answer is the help
// text in the user's language (intent unknown).
//
// # Storage and erasure
//
// Sessions belong to the (environment, account, sub) of the token that created them;
// any other caller gets not_found. Each session has its own random AES-256 key,
// sealed by Service.Fields (storage/fieldcrypt); its title and every message body
// (text, actions, references) are sealed under that key with associated data naming
// the environment, the session and the message. DeleteSession deletes the session,
// its key and its messages in one transaction, so any copy of the ciphertext left in
// freed pages or backups can no longer be opened. Routing facts (language, intent,
// source, time) are kept in clear for the session view. The idempotency store keeps
// a replay of each POST for 24 hours, sealed under the server's field key.
//
// # Voice
//
// Transcribe recognises the container from the content (assistant/audio: WAV, FLAC,
// OGG/Opus, WebM, MP3, M4A), refuses more than 25 MiB (payload_too_large) and more
// than 10 minutes (audio_too_long, from the container's headers before anything is
// decoded where the format records its duration), then hands the file to the
// Transcriber: assistant/openai's /audio/transcriptions client, or the embedded
// PocketSphinx recogniser (assistant/pocketsphinx, build tag pocketsphinx, English,
// with a language model of the assistant's own phrases). With a sessionId the
// transcript is then answered as a message of that session (source "voice"). Without
// a transcriber the answer is unavailable with Service.TranscriberHint.
package assistant
