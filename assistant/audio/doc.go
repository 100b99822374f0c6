// Package audio reads the containers of uploaded speech: it recognises a file by
// its content (never its name), reads its duration from the container headers where
// the format allows, decodes the formats the embedded transcriber needs to PCM, and
// resamples to 16 kHz mono.
//
// The flow for an upload is Probe (format, codec, duration from the headers: the
// caller refuses an overlong file before any decoding), then, for the embedded
// recogniser, Decode (WAV, FLAC and MP3 to mono float samples, stopping as soon as
// the audio passes the caller's limit) and Resample (band-limited, any pair of
// rates). OGG (Opus, Vorbis), WebM and M4A are recognised and measured but not
// decoded: their codecs need C libraries, and a remote transcriber takes those
// files as uploaded.
//
// What it trusts: nothing in the bytes. Every size a file declares is checked
// against the bytes present before it is used, nested structures (EBML elements,
// ISO BMFF boxes, RIFF chunks, Ogg pages) are walked with depth and count limits,
// and every loop moves forward, so the work is bounded by the length of the input.
// Errors wrap one of ErrUnknownFormat, ErrMalformed, ErrCannotDecode and
// ErrTooLong.
//
// What it never does: allocate from a declared size, look at a file name or a
// client's Content-Type, or call out to a process or a C library.
package audio
