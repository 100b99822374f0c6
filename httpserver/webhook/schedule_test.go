package webhook

import (
	"math/rand/v2"
	"testing"
	"time"
)

type fixedJitter float64

func (f fixedJitter) Float64() float64 { return float64(f) }

func TestNextAttemptSchedule(t *testing.T) {
	first := testNow
	want := []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}
	for n, d := range want {
		got, ok := NextAttempt(first, n, fixedJitter(0.5))
		if !ok || !got.Equal(first.Add(d)) {
			t.Errorf("attempt %d: %v %v, want %v", n, got.Sub(first), ok, d)
		}
		lo, _ := NextAttempt(first, n, fixedJitter(0))
		hi, _ := NextAttempt(first, n, fixedJitter(0.9999999))
		if lo.Sub(first) != time.Duration(float64(d)*0.9) {
			t.Errorf("attempt %d: low jitter %v, want %v", n, lo.Sub(first), time.Duration(float64(d)*0.9))
		}
		if hi.Sub(first) > time.Duration(float64(d)*1.1) || hi.Sub(first) < d {
			t.Errorf("attempt %d: high jitter %v", n, hi.Sub(first))
		}
	}
	if got, ok := NextAttempt(first, len(want), fixedJitter(0.5)); ok {
		t.Fatalf("after %d attempts: next %v, want FAILED", len(want), got)
	}
	if _, ok := NextAttempt(first, 100, fixedJitter(0.5)); ok {
		t.Fatal("after 100 attempts: want FAILED")
	}
	if got, ok := NextAttempt(first, -1, fixedJitter(0.5)); !ok || !got.Equal(first) {
		t.Fatalf("negative count: %v %v", got, ok)
	}
	if got, ok := NextAttempt(first, 3, fixedJitter(7)); !ok || !got.Equal(first.Add(30*time.Minute)) {
		t.Fatalf("out-of-range jitter source: %v %v", got, ok)
	}
}

func TestNextAttemptOrderedAndWithinWindow(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		prev := testNow.Add(-time.Nanosecond)
		for n := 0; ; n++ {
			next, ok := NextAttempt(testNow, n, rnd)
			if !ok {
				break
			}
			if !next.After(prev) {
				t.Fatalf("attempt %d at %v is not after %v", n, next, prev)
			}
			if next.Sub(testNow) > DeliveryWindow {
				t.Fatalf("attempt %d past the delivery window", n)
			}
			prev = next
		}
	}
}
