//go:build !pocketsphinx

package main

import (
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/pocketsphinx"
)

// embeddedRequired: in the default build the embedded recogniser is optional, so a
// PocketSphinx that is installed but does not work is logged and voice answers 503.
const embeddedRequired = false

// embeddedHint is how to get the embedded recogniser in this build.
const embeddedHint = "install PocketSphinx (" + pocketsphinx.InstallHint + ") and restart, for the embedded English recogniser"

// embeddedTranscriber is CMU PocketSphinx run as a subprocess (Debian's
// pocketsphinx_batch with the assistant's domain grammar and language model), when
// the machine has it; the error wraps pocketsphinx.ErrNotInstalled when it has not.
func embeddedTranscriber() (assistant.Transcriber, string, func(), error) {
	t, err := pocketsphinx.NewCommand(pocketsphinx.Config{Decoders: 2})
	if err != nil {
		return nil, "", nil, err
	}
	return t, t.Program(), func() { _ = t.Close() }, nil
}
