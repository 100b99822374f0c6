//go:build !pocketsphinx

package main

import "github.com/veriland/veriland/assistant"

// embeddedTranscriber is nil in a build without -tags pocketsphinx.
func embeddedTranscriber() (assistant.Transcriber, func(), error) { return nil, func() {}, nil }
