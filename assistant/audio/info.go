package audio

import "time"

// Format is a container format, recognised by content.
type Format string

// The formats Sniff recognises.
const (
	WAV  Format = "wav"
	FLAC Format = "flac"
	OGG  Format = "ogg"
	WebM Format = "webm"
	MP3  Format = "mp3"
	M4A  Format = "m4a"
)

// Info is what Probe reads from a file's headers without decoding the audio.
type Info struct {
	// Format is the container.
	Format Format `json:"format"`
	// MediaType is the file's MIME type (audio/wav, audio/flac, audio/ogg,
	// audio/webm, audio/mpeg, audio/mp4).
	MediaType string `json:"mediaType"`
	// Codec names the codec when the container says it ("pcm", "flac", "opus",
	// "vorbis", "mp3", "aac", …), "" when unknown.
	Codec string `json:"codec,omitempty"`
	// Duration is the playing time; zero when DurationKnown is false.
	Duration time.Duration `json:"-"`
	// DurationKnown reports whether the headers gave (or let Probe compute) the
	// duration.
	DurationKnown bool `json:"-"`
	// SampleRate and Channels, when the headers give them (0 otherwise).
	SampleRate int `json:"sampleRate,omitempty"`
	Channels   int `json:"channels,omitempty"`
}
