package testenv

import (
	"strings"
	"testing"
)

// recorder is a testing.TB that records whether Require failed or skipped.
type recorder struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, format
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, format
}

func TestRequire(t *testing.T) {
	tests := []struct {
		name        string
		ci          string
		wantFail    bool
		wantMessage string
	}{
		{"ci fails", "true", true, "required under CI=true"},
		{"local skips", "", false, "skipping"},
		{"other value skips", "false", false, "skipping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			r := &recorder{TB: t}
			Require(r, "PostgreSQL", "set X")
			if r.failed != tt.wantFail || r.skipped == tt.wantFail {
				t.Fatalf("failed=%v skipped=%v, want failed=%v", r.failed, r.skipped, tt.wantFail)
			}
			if !strings.Contains(r.msg, tt.wantMessage) {
				t.Fatalf("message %q does not contain %q", r.msg, tt.wantMessage)
			}
		})
	}
}
