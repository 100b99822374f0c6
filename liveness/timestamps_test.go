package liveness

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTimestampsDecodeLikeInt64Slice(t *testing.T) {
	cases := []string{
		`[]`, `[1]`, `[ 1 , 2 ,3 ]`, `null`, `[0,-1,9223372036854775807,-9223372036854775808]`,
		"[\n1,\t2\r\n]", `[9223372036854775808]`, `[-9223372036854775809]`, `[1.5]`, `[1e3]`, `["1"]`,
		`[1,null]`, `{}`, `"x"`, `true`, `[[1]]`, `[18446744073709551616]`, `[-0]`, `[01]`,
	}
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			var want []int64
			wantErr := json.Unmarshal([]byte(c), &want)
			var got Timestamps
			gotErr := json.Unmarshal([]byte(c), &got)
			require.Equal(t, wantErr == nil, gotErr == nil, "want err %v, got %v", wantErr, gotErr)
			if wantErr == nil {
				require.Equal(t, want, []int64(got))
			} else if _, ok := gotErr.(*json.UnmarshalTypeError); !ok {
				require.ErrorContains(t, wantErr, "invalid character", "only syntax errors may differ in type: %v", gotErr)
			}
		})
	}
}

func FuzzTimestamps(f *testing.F) {
	for _, s := range []string{`[1,2,3]`, `[]`, `null`, `[-9223372036854775808]`, `[1.0]`, `[ 1 ]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want []int64
		wantErr := json.Unmarshal([]byte(s), &want)
		var got Timestamps
		gotErr := json.Unmarshal([]byte(s), &got)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("%q: []int64 err %v, Timestamps err %v", s, wantErr, gotErr)
		}
		if wantErr != nil {
			return
		}
		if len(want) != len(got) {
			t.Fatalf("%q: %v vs %v", s, want, got)
		}
		for i := range want {
			if want[i] != got[i] {
				t.Fatalf("%q: %v vs %v", s, want, got)
			}
		}
	})
}

func BenchmarkTimestamps(b *testing.B) {
	parts := make([]string, 10000)
	for i := range parts {
		parts[i] = strconv.FormatInt(1795305600000+int64(i)*33, 10)
	}
	data := []byte("[" + strings.Join(parts, ",") + "]")
	b.SetBytes(int64(len(data)))
	b.Run("Timestamps", func(b *testing.B) {
		for b.Loop() {
			var ts Timestamps
			if err := json.Unmarshal(data, &ts); err != nil || len(ts) != 10000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("[]int64", func(b *testing.B) {
		for b.Loop() {
			var ts []int64
			if err := json.Unmarshal(data, &ts); err != nil || len(ts) != 10000 {
				b.Fatal(err)
			}
		}
	})
}
