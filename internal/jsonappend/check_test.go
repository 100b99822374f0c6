package jsonappend

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// appenderFunc is an Appender whose JSON encoding is fixed apart from AppendJSON.
type appenderFunc struct {
	V    string `json:"v"`
	with func(dst []byte) ([]byte, error)
}

func (a appenderFunc) AppendJSON(dst []byte) ([]byte, error) { return a.with(dst) }

// TestSameAsMarshal checks each verdict of SameAsMarshal.
func TestSameAsMarshal(t *testing.T) {
	right := func(dst []byte) ([]byte, error) { return append(Key(append(dst, '{'), "v"), `"<"}`...), nil }
	require.Error(t, SameAsMarshal(appenderFunc{V: "<", with: right}), "json.Marshal escapes <")
	escaped := func(dst []byte) ([]byte, error) { return append(String(Key(append(dst, '{'), "v"), "<"), '}'), nil }
	require.NoError(t, SameAsMarshal(appenderFunc{V: "<", with: escaped}))
	dropsPrefix := func(dst []byte) ([]byte, error) { return escaped(nil) }
	require.Error(t, SameAsMarshal(appenderFunc{V: "<", with: dropsPrefix}))
	fails := func([]byte) ([]byte, error) { return nil, errors.New("no") }
	require.Error(t, SameAsMarshal(appenderFunc{V: "<", with: fails}))
}
