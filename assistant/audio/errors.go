package audio

import "errors"

// The errors this package returns. Every error from Sniff, Probe and Decode wraps
// exactly one of them (errors.Is), with the detail in the message; the HTTP layer
// maps them to statuses and never shows the detail of a parser's internals.
var (
	// ErrUnknownFormat reports bytes that are none of the recognised containers
	// (HTTP 415).
	ErrUnknownFormat = errors.New("audio: unknown format")
	// ErrMalformed reports a recognised container whose headers are broken,
	// truncated or out of range (HTTP 422).
	ErrMalformed = errors.New("audio: malformed file")
	// ErrCannotDecode reports a well-formed file whose codec this package does not
	// decode to PCM (Opus, Vorbis, AAC, compressed WAV): the embedded transcriber
	// cannot take it, a remote one can (HTTP 415 or 422).
	ErrCannotDecode = errors.New("audio: cannot decode")
	// ErrTooLong reports audio longer than the limit given to Decode (HTTP 422).
	ErrTooLong = errors.New("audio: too long")
)
