package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Sniff recognises the container of b by its content alone: WAV (RIFF or RF64
// with WAVE), FLAC ("fLaC", also behind an ID3v2 tag), OGG ("OggS" capture
// pattern, version 0), WebM (an EBML header whose DocType is "webm"; "matroska"
// is accepted as WebM too, since Matroska audio is the same container), MP3 (an
// ID3v2 tag followed by an MPEG-1/2/2.5 Layer III frame, or a bare Layer III frame
// header whose fields are all valid and which is followed by a second, matching
// frame header, so that random bytes are not taken for MP3), and M4A (an ISO BMFF
// "ftyp" box whose major or compatible brands include one of M4A , M4B , M4P ,
// F4A , mp41, mp42, isom, iso2–iso9, dash, 3gp4–3gp6, 3g2a).
//
// Sniff reads only the first few kilobytes (and, for MP3, the frame header after
// the first frame). Bytes that are none of these give ErrUnknownFormat.
func Sniff(b []byte) (Format, error) {
	switch {
	case isWAV(b):
		return WAV, nil
	case bytes.HasPrefix(b, []byte("fLaC")):
		return FLAC, nil
	case len(b) >= 27 && bytes.HasPrefix(b, []byte("OggS")) && b[4] == 0:
		return OGG, nil
	case bytes.HasPrefix(b, ebmlMagic):
		if isWebM(b) {
			return WebM, nil
		}
		return "", fmt.Errorf("%w: EBML document that is not WebM or Matroska", ErrUnknownFormat)
	case isM4A(b):
		return M4A, nil
	}
	if end, ok := id3v2End(b); ok {
		rest := b[end:]
		if bytes.HasPrefix(rest, []byte("fLaC")) {
			return FLAC, nil
		}
		if off, ok := findFrameAfterTag(rest); ok {
			if _, ok := parseFrameHeader(rest[off:]); ok {
				return MP3, nil
			}
		}
		return "", fmt.Errorf("%w: ID3 tag not followed by MP3 or FLAC audio", ErrUnknownFormat)
	}
	if isBareMP3(b) {
		return MP3, nil
	}
	return "", ErrUnknownFormat
}

func isWAV(b []byte) bool {
	if len(b) < 12 || string(b[8:12]) != "WAVE" {
		return false
	}
	id := string(b[0:4])
	return id == "RIFF" || id == "RF64"
}

// m4aBrands are the ISO BMFF brands of files that carry (or may carry) audio.
// Generic brands (isom, mp42, …) are accepted because phones record voice memos
// under them; a video file with an audio track then passes, which the transcriber
// handles like any recording.
var m4aBrands = map[string]bool{
	"M4A ": true, "M4B ": true, "M4P ": true, "F4A ": true,
	"mp41": true, "mp42": true, "isom": true, "dash": true,
	"iso2": true, "iso3": true, "iso4": true, "iso5": true, "iso6": true,
	"iso7": true, "iso8": true, "iso9": true,
	"3gp4": true, "3gp5": true, "3gp6": true, "3g2a": true,
}

func isM4A(b []byte) bool {
	if len(b) < 16 || string(b[4:8]) != "ftyp" {
		return false
	}
	size := int(binary.BigEndian.Uint32(b[0:4]))
	if size < 16 || size > len(b) || size > 4096 {
		return false
	}
	if m4aBrands[string(b[8:12])] {
		return true
	}
	// Compatible brands follow the major brand and the minor version.
	for off := 16; off+4 <= size; off += 4 {
		if m4aBrands[string(b[off:off+4])] {
			return true
		}
	}
	return false
}

// id3v2End returns the offset just past an ID3v2 tag at the start of b. The size
// is synchsafe (seven bits per byte); a byte with its top bit set is not a tag.
func id3v2End(b []byte) (int, bool) {
	if len(b) < 10 || string(b[0:3]) != "ID3" || b[3] < 2 || b[3] > 4 || b[4] == 0xFF {
		return 0, false
	}
	for _, c := range b[6:10] {
		if c&0x80 != 0 {
			return 0, false
		}
	}
	size := int(b[6])<<21 | int(b[7])<<14 | int(b[8])<<7 | int(b[9])
	end := 10 + size
	if b[3] == 4 && b[5]&0x10 != 0 { // ID3v2.4 footer
		end += 10
	}
	if end > len(b) {
		return 0, false
	}
	return end, true
}

// maxTagPadding bounds how many zero bytes Sniff skips between an ID3 tag and the
// first frame: some taggers pad outside the declared tag size.
const maxTagPadding = 4096

// findFrameAfterTag returns the offset of the first frame sync in b, skipping
// zero padding.
func findFrameAfterTag(b []byte) (int, bool) {
	for i := 0; i < len(b) && i <= maxTagPadding; i++ {
		if b[i] == 0 {
			continue
		}
		return i, b[i] == 0xFF
	}
	return 0, false
}

// isBareMP3 accepts b when it starts with a valid Layer III frame that is either
// the whole file or followed by a second frame header with the same version,
// layer and sample rate.
func isBareMP3(b []byte) bool {
	h, ok := parseFrameHeader(b)
	if !ok {
		return false
	}
	if h.size == len(b) {
		return true
	}
	next, ok := parseFrameHeader(b[min(h.size, len(b)):])
	return ok && next.version == h.version && next.sampleRate == h.sampleRate
}
