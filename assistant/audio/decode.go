package audio

import (
	"fmt"
	"strings"
	"time"
)

// Decode decodes b to mono PCM at the file's own sample rate (Resample brings it
// to the rate a recogniser wants). It decodes WAV (8/16/24/32-bit integer PCM,
// 32/64-bit IEEE float, plain or WAVE_FORMAT_EXTENSIBLE), FLAC and MP3; channels
// are averaged. OGG, WebM and M4A (Opus, Vorbis, AAC) need C codec libraries and
// give an error wrapping ErrCannotDecode that names the format: a remote
// transcriber takes those files as they are.
//
// Audio longer than max gives ErrTooLong, found from the header when it says so
// and otherwise as soon as the decoded samples pass the limit, so an overlong file
// is never decoded to the end. max <= 0 means no limit.
func Decode(b []byte, max time.Duration) (*PCM, error) {
	f, err := Sniff(b)
	if err != nil {
		return nil, err
	}
	switch f {
	case WAV:
		return decodeWAV(b, max)
	case FLAC:
		return decodeFLAC(b, max)
	case MP3:
		return decodeMP3(b, max)
	default:
		codec := "unknown codec"
		if info, err := Probe(b); err == nil && info.Codec != "" {
			codec = info.Codec
		}
		return nil, fmt.Errorf("%w: %s with %s needs a C codec library; use a remote transcriber", ErrCannotDecode, strings.ToUpper(string(f)), codec)
	}
}
