package audio

// mediaTypes are the MIME types Probe reports.
var mediaTypes = map[Format]string{
	WAV:  "audio/wav",
	FLAC: "audio/flac",
	OGG:  "audio/ogg",
	WebM: "audio/webm",
	MP3:  "audio/mpeg",
	M4A:  "audio/mp4",
}

// Probe sniffs b and reads its headers without decoding the audio: media type,
// codec, sample rate, channels and, where the container allows, the duration —
// WAV from the data size over the byte rate (from the bytes present when the size
// is a streaming placeholder), FLAC from STREAMINFO, OGG from the last page's
// granule position (Opus minus its pre-skip, Vorbis over its rate), WebM from
// Segment/Info/Duration (or, for live recordings without it, the last block's
// timestamp), MP3 from a Xing/Info or VBRI frame count (or the first frame's
// bitrate over the audio bytes) and M4A from mvhd.
//
// When a file gives no duration, Info.DurationKnown is false and Duration zero.
// Broken headers give ErrMalformed; other bytes ErrUnknownFormat. Probe's work is
// bounded by len(b): it never allocates from a size the file declares, and it
// walks nested structures with depth and count limits.
func Probe(b []byte) (Info, error) {
	f, err := Sniff(b)
	if err != nil {
		return Info{}, err
	}
	var info Info
	switch f {
	case WAV:
		info, err = probeWAV(b)
	case FLAC:
		info, err = probeFLAC(b)
	case OGG:
		info, err = probeOgg(b)
	case WebM:
		info, err = probeWebM(b)
	case MP3:
		info, err = probeMP3(b)
	case M4A:
		info, err = probeM4A(b)
	}
	if err != nil {
		return Info{}, err
	}
	if !info.DurationKnown {
		info.Duration = 0
	}
	return info, nil
}
