package audio_test

import (
	"encoding/binary"
	"fmt"

	"github.com/veriland/veriland/assistant/audio"
)

// Example_probe builds 1.5 s of 16-bit mono silence at 16 kHz as a WAV file and
// reads its format and duration without decoding it.
func Example_probe() {
	const rate, seconds = 16000, 1.5
	data := make([]byte, int(rate*seconds)*2)
	wav := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	wav = binary.LittleEndian.AppendUint32(wav, 16)
	wav = binary.LittleEndian.AppendUint16(wav, 1) // PCM
	wav = binary.LittleEndian.AppendUint16(wav, 1) // mono
	wav = binary.LittleEndian.AppendUint32(wav, rate)
	wav = binary.LittleEndian.AppendUint32(wav, rate*2)
	wav = binary.LittleEndian.AppendUint16(wav, 2)
	wav = binary.LittleEndian.AppendUint16(wav, 16)
	wav = append(wav, "data"...)
	wav = binary.LittleEndian.AppendUint32(wav, uint32(len(data)))
	wav = append(wav, data...)
	binary.LittleEndian.PutUint32(wav[4:], uint32(len(wav)-8))

	info, err := audio.Probe(wav)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.Format, info.MediaType, info.Codec, info.SampleRate, info.Channels, info.Duration)

	_, err = audio.Probe([]byte("not audio"))
	fmt.Println(err)
	// Output:
	// wav audio/wav pcm 16000 1 1.5s
	// audio: unknown format
}
