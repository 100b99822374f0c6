// Package pocketsphinx is the assistant's embedded, offline speech-to-text: CMU
// PocketSphinx with the stock US English models, adapted to what people ask the
// assistant. Two implementations of assistant.Transcriber share the domain corpus,
// the language model and the error mapping:
//
//   - Command (command.go, every build, no cgo): runs Debian's pocketsphinx_batch
//     (package pocketsphinx) as a subprocess per recording, with a timeout; the
//     recording goes to a raw 16 kHz file in a private temporary directory removed
//     when the program ends. NewCommand writes, once, a dictionary of the domain's
//     words, the domain trigram model (ARPA) and a JSGF grammar whose sentences are
//     the domain corpus, and decodes a short silence to check that the program runs;
//     its error wraps ErrNotInstalled when the program or models are missing. Each
//     recording is decoded with the grammar and with the language model (two
//     processes at once, about a second for a question); the grammar's sentence is
//     kept when the language model agrees with at least half of its words or is
//     fairly sure of its own (lowest word posterior 0.3), else the language model's
//     when its word posteriors are all at least 0.1, else the stock en-us model is
//     run (several seconds; see chooseDomain). "what is the status of my parcel" comes back
//     word for word from flite's and espeak-ng's voices (command_test.go). This is
//     what examples/server uses by default.
//
//   - Transcriber (the rest, build tag pocketsphinx): libpocketsphinx through cgo,
//     with decoders kept loaded, described below.
//
//     apt-get install pocketsphinx pocketsphinx-en-us
//     go run ./examples/server
//
// # The cgo binding
//
// The cgo code is behind the build tag pocketsphinx, so that an ordinary build needs no
// C library. On Debian or Ubuntu:
//
//	apt-get install libpocketsphinx-dev pocketsphinx-en-us
//	go run -tags pocketsphinx ./examples/server
//
// and in code:
//
//	t, err := pocketsphinx.New(pocketsphinx.Config{Decoders: 2})
//	if err != nil {
//		return err
//	}
//	defer t.Close()
//	tr, err := t.Transcribe(ctx, assistant.SpeechInput{Audio: wavBytes})
//	// tr.Text == "what is the status of my parcel", tr.Provider == "pocketsphinx"
//
// # What it does
//
// An upload is decoded in Go by package audio (WAV, FLAC, MP3; other formats are
// refused with unsupported_media_type, naming -transcriber-url for a remote
// transcriber that takes them), mixed to mono and resampled to 16 kHz in Go, and
// decoded twice by one decoder: with the stock en-us language model, and with a
// trigram model of the assistant's own phrases (parcel, certificate, transfer,
// verification-request and attestation questions, help and small talk; see
// corpus.go), estimated in Go at start-up by interpolated absolute discounting and
// loaded in ARPA form. The stock model alone hears "what is the status of my parcel"
// as "… my car sale" or worse (with flite's voice: "opera but what are what"); the
// domain model gets it right. The domain
// transcript is kept unless the decoder's own word posteriors doubt it, or the stock
// model is confident of a different sentence: then the general transcript is
// returned, so that speech outside the domain is not forced into domain words.
//
// Decoders are not safe for concurrent use; a Transcriber keeps a pool of
// Config.Decoders of them (each holds its own copy of the models, about 60 MB) and a
// caller waits for a free one only as long as its context allows. Decoding checks the
// context every quarter of a second of audio.
//
// # What it never does
//
// It never uses the network, never writes the audio or the transcript anywhere (the
// only file it writes is the domain model, a temporary file removed before New
// returns), and never speaks a language other than English: a language hint other
// than "en" is refused with validation_failed at /language, because English models
// decoding French give confident nonsense rather than an error. sphinxbase's own log
// is switched off.
package pocketsphinx
