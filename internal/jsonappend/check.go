package jsonappend

import (
	"encoding/json"
	"fmt"
)

// Appender is a value with a hand-written encoder built from this package, which
// writes exactly what json.Marshal writes of it (SameAsMarshal checks that). The
// reference server writes a response that is one with AppendJSON.
type Appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// SameAsMarshal reports, as an error, how v.AppendJSON differs from json.Marshal(v):
// other bytes (appended after a prefix, which must be kept), or a failure where the
// other succeeds. The differential tests of every AppendJSON use it.
func SameAsMarshal(v Appender) error {
	want, werr := json.Marshal(v)
	const prefix = "prefix"
	got, gerr := v.AppendJSON([]byte(prefix))
	switch {
	case werr != nil && gerr != nil:
		return nil
	case werr != nil:
		return fmt.Errorf("json.Marshal fails (%v), AppendJSON writes %s", werr, got)
	case gerr != nil:
		return fmt.Errorf("AppendJSON fails (%v), json.Marshal writes %s", gerr, want)
	case string(got) != prefix+string(want):
		return fmt.Errorf("AppendJSON writes\n%s\njson.Marshal\n%s%s", got, prefix, want)
	}
	return nil
}
