package clocktest

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	start := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	c := New(start)
	if !c.Now().Equal(start) {
		t.Fatal("New does not start at t")
	}
	c.Advance(time.Minute)
	if got := c.Now(); !got.Equal(start.Add(time.Minute)) {
		t.Fatalf("after Advance: %v", got)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Fatal("Set does not set")
	}
}
