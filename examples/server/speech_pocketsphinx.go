//go:build pocketsphinx

package main

import (
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/pocketsphinx"
)

// embeddedTranscriber is CMU PocketSphinx with the assistant's domain language
// model (Debian's libpocketsphinx-dev and pocketsphinx-en-us).
func embeddedTranscriber() (assistant.Transcriber, func(), error) {
	t, err := pocketsphinx.New(pocketsphinx.Config{})
	if err != nil {
		return nil, nil, err
	}
	return t, func() { _ = t.Close() }, nil
}
