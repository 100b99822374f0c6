//go:build pocketsphinx

package pocketsphinx_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/pocketsphinx"
)

// Transcribe a question spoken by flite. (Needs libpocketsphinx-dev,
// pocketsphinx-en-us and flite; the output is what this build hears.)
func ExampleTranscriber_Transcribe() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	wav := filepath.Join(dir, "question.wav")
	if err := exec.Command("flite", "-t", "what is the status of my parcel", "-o", wav).Run(); err != nil {
		fmt.Println("flite:", err)
		return
	}
	speech, err := os.ReadFile(wav)
	if err != nil {
		fmt.Println(err)
		return
	}

	t, err := pocketsphinx.New(pocketsphinx.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer t.Close()
	tr, err := t.Transcribe(context.Background(), assistant.SpeechInput{Audio: speech, Language: "en"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tr.Text, "|", tr.Language, "|", tr.Provider)
	// Output: what is the status of my parcel | en | pocketsphinx
}
