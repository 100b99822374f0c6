package ids

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestNewOrderedFollowsTime(t *testing.T) {
	// Each time is later than the one before; the id of each, made with the largest
	// random part, must sort before the next one's made with the smallest.
	times := []struct {
		name string
		at   time.Time
	}{
		{"epoch", time.UnixMilli(0)},
		{"epoch + 1 ms", time.UnixMilli(1)},
		{"31 ms (one character)", time.UnixMilli(31)},
		{"32 ms (carry)", time.UnixMilli(32)},
		{"2026, end of a millisecond", time.Date(2026, 11, 21, 12, 0, 0, 999_999, time.UTC)},
		{"2026, next millisecond", time.Date(2026, 11, 21, 12, 0, 0, 1_000_000, time.UTC)},
		{"2026, one second later", time.Date(2026, 11, 21, 12, 0, 1, 0, time.UTC)},
		{"2038 (32-bit seconds overflow)", time.Date(2038, 1, 19, 3, 14, 8, 0, time.UTC)},
		{"2100", time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"2100 + 1 ms", time.Date(2100, 1, 1, 0, 0, 0, int(time.Millisecond), time.UTC)},
		{"last millisecond of 48 bits", time.UnixMilli(1<<48 - 1)},
	}
	zeros, ones := bytes.Repeat([]byte{0}, 10), bytes.Repeat([]byte{0xff}, 10)
	var prev string
	for _, tc := range times {
		t.Run(tc.name, func(t *testing.T) {
			lo, err := NewOrdered(bytes.NewReader(zeros), "att", tc.at)
			require.NoError(t, err)
			hi, err := NewOrdered(bytes.NewReader(ones), "att", tc.at)
			require.NoError(t, err)
			require.True(t, Valid(lo, "att"), lo)
			require.True(t, Valid(hi, "att"), hi)
			require.Less(t, lo, hi, "the random part orders ids of one millisecond")
			require.Equal(t, lo[:4+timeChars], hi[:4+timeChars], "same millisecond, same time part")
			if prev != "" {
				require.Less(t, prev, lo, "a later millisecond sorts after every id of an earlier one")
			}
			prev = hi
		})
	}
}

func TestNewOrderedEncoding(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   time.Time
		rand []byte
		want string
	}{
		{"zero", time.UnixMilli(0), make([]byte, 10), "msg_" + strings.Repeat("2", 26)},
		{"ones", time.UnixMilli(1<<48 - 1), bytes.Repeat([]byte{0xff}, 10), "msg_b" + strings.Repeat("z", 25)},
		{"one ms, one bit", time.UnixMilli(1), append(make([]byte, 9), 1), "msg_" + strings.Repeat("2", 9) + "3" + strings.Repeat("2", 15) + "3"},
		{"before 1970 is 1970", time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), make([]byte, 10), "msg_" + strings.Repeat("2", 26)},
		{"after 48 bits is the last ms", time.UnixMilli(1 << 50), make([]byte, 10), "msg_b" + strings.Repeat("z", 9) + strings.Repeat("2", 16)},
		{"zero time is 1970", time.Time{}, make([]byte, 10), "msg_" + strings.Repeat("2", 26)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := NewOrdered(bytes.NewReader(tc.rand), "msg", tc.at)
			require.NoError(t, err)
			require.Equal(t, tc.want, id)
		})
	}
}

func TestNewOrderedRandomness(t *testing.T) {
	// It reads exactly 10 bytes, and they are the id's last 16 characters.
	src := bytes.NewReader(bytes.Repeat([]byte{0xa5}, 11))
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	id, err := NewOrdered(src, "att", at)
	require.NoError(t, err)
	require.Equal(t, 1, src.Len())

	seen := map[string]bool{id[4+timeChars:]: true}
	for range 100 {
		id, err := NewOrdered(rand.Reader, "att", at)
		require.NoError(t, err)
		require.True(t, Valid(id, "att"), id)
		require.False(t, seen[id[4+timeChars:]], "random parts repeat")
		seen[id[4+timeChars:]] = true
	}

	for _, short := range [][]byte{nil, make([]byte, 9)} {
		_, err := NewOrdered(bytes.NewReader(short), "att", at)
		require.Error(t, err, "%d bytes of randomness", len(short))
	}
}
