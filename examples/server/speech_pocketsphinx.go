//go:build pocketsphinx

package main

import (
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/pocketsphinx"
)

// embeddedRequired: a -tags pocketsphinx build is asked for the embedded
// recogniser, so the server does not start without it.
const embeddedRequired = true

// embeddedHint is how to get the embedded recogniser in this build.
const embeddedHint = "install the models (apt-get install libpocketsphinx-dev pocketsphinx-en-us) for the embedded English recogniser"

// embeddedTranscriber is CMU PocketSphinx through cgo with the assistant's domain
// language model (Debian's libpocketsphinx-dev and pocketsphinx-en-us).
func embeddedTranscriber() (assistant.Transcriber, string, func(), error) {
	t, err := pocketsphinx.New(pocketsphinx.Config{})
	if err != nil {
		return nil, "", nil, err
	}
	return t, "libpocketsphinx (cgo)", func() { _ = t.Close() }, nil
}
