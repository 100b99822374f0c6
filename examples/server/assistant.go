package main

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/veriland/veriland/assistant/openai"
	"github.com/veriland/veriland/assistant/pocketsphinx"
	"github.com/veriland/veriland/httpserver"
)

// transcriberHint is the 503 message of POST /v1/assistant/voice on a server without
// a transcriber.
const transcriberHint = "no speech-to-text is configured: start the server with -transcriber-url " +
	"(an OpenAI-compatible /audio/transcriptions server such as whisper.cpp, faster-whisper or LocalAI), " +
	"or " + embeddedHint

// assistantKeys configures the assistant's language model (-llm-url) and
// transcriber: -transcriber-url, else the embedded PocketSphinx (the
// pocketsphinx_batch program when the machine has it, or the cgo binding of a build
// with -tags pocketsphinx), else none. The returned func releases the recogniser.
func assistantKeys(o *options, k *httpserver.Keys, logger *slog.Logger) (func(), error) {
	k.TranscriberHint = transcriberHint
	if o.llmURL != "" {
		m := &openai.ChatModel{BaseURL: o.llmURL, Model: o.llmModel, APIKey: o.llmKey}
		if err := m.Validate(); err != nil {
			return nil, fmt.Errorf("-llm-url: %w", err)
		}
		k.AssistantModel = m
		logger.Info("assistant: unknown intents go to the language model", "url", o.llmURL, "model", o.llmModel)
	}
	if o.sttURL != "" {
		t := &openai.Transcriber{BaseURL: o.sttURL, Model: o.sttModel, APIKey: o.sttKey}
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("-transcriber-url: %w", err)
		}
		k.Transcriber = t
		logger.Info("assistant: voice uploads go to the transcriber", "url", o.sttURL)
		return func() {}, nil
	}
	t, how, closeFn, err := embeddedTranscriber()
	switch {
	case err != nil && errors.Is(err, pocketsphinx.ErrNotInstalled) && !embeddedRequired:
		logger.Info("assistant: no transcriber; POST /v1/assistant/voice answers 503 until -transcriber-url is set or PocketSphinx is installed ("+pocketsphinx.InstallHint+")",
			"missing", err.Error())
		return func() {}, nil
	case err != nil && !embeddedRequired:
		logger.Error("assistant: the embedded PocketSphinx does not work; POST /v1/assistant/voice answers 503 until -transcriber-url is set or it is repaired ("+pocketsphinx.InstallHint+")",
			"err", err)
		return func() {}, nil
	case err != nil:
		return nil, fmt.Errorf("the embedded PocketSphinx transcriber: %w", err)
	}
	k.Transcriber = t
	logger.Info("assistant: voice uploads go to the embedded PocketSphinx recogniser (English)", "decoder", how)
	return closeFn, nil
}
