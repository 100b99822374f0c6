package liveness

import (
	"fmt"
	"io"
)

// StepKind names one thing the holder is asked to do in front of the camera.
type StepKind string

// The steps of a liveness script (SPEC S4).
const (
	StepHoldStill     StepKind = "HOLD_STILL"
	StepBlink         StepKind = "BLINK"
	StepTurnHeadLeft  StepKind = "TURN_HEAD_LEFT"
	StepTurnHeadRight StepKind = "TURN_HEAD_RIGHT"
	StepSmile         StepKind = "SMILE"
	StepColorFlash    StepKind = "COLOR_FLASH"
)

// Step is one step of a script, always a JSON object: {"step": "BLINK"}, or for a
// colour flash {"step": "COLOR_FLASH", "colors": ["#FF0000", "#00FF00", …]}, the
// colours the screen shows in order (the device's hue score measures how the face
// reflected them).
type Step struct {
	Step   StepKind `json:"step"`             // what to do
	Colors []string `json:"colors,omitempty"` // COLOR_FLASH only: "#RRGGBB" colours in order
}

// activeSteps are the steps L2 and L3 scripts are drawn from.
func activeSteps() [5]StepKind {
	return [5]StepKind{StepBlink, StepTurnHeadLeft, StepTurnHeadRight, StepSmile, StepColorFlash}
}

// flashPalette are the colours a COLOR_FLASH step may show: saturated primaries and
// secondaries that are far apart in hue.
func flashPalette() [6]string {
	return [6]string{"#FF0000", "#00FF00", "#0000FF", "#FFFF00", "#FF00FF", "#00FFFF"}
}

// FlashLength is the number of colours in a COLOR_FLASH step.
const FlashLength = 4

// stepsFor returns how many steps a script of level l has: 1, 3 or 5.
func stepsFor(l Level) int {
	switch l {
	case L1:
		return 1
	case L3:
		return 5
	}
	return 3
}

// NewScript returns a random script for level l, reading randomness from rand. L1 is
// one HOLD_STILL step. L2 (three steps) and L3 (five) are drawn uniformly from BLINK,
// TURN_HEAD_LEFT, TURN_HEAD_RIGHT, SMILE and COLOR_FLASH, never the same step twice in
// a row; each COLOR_FLASH shows FlashLength colours, never the same colour twice in a
// row.
func NewScript(rand io.Reader, l Level) ([]Step, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("liveness: no script for level %q", l)
	}
	if l == L1 {
		return []Step{{Step: StepHoldStill}}, nil
	}
	steps := activeSteps()
	palette := flashPalette()
	n := stepsFor(l)
	script := make([]Step, 0, n)
	prev := -1
	for range n {
		i, err := pickOther(rand, len(steps), prev)
		if err != nil {
			return nil, err
		}
		prev = i
		st := Step{Step: steps[i]}
		if st.Step == StepColorFlash {
			st.Colors = make([]string, 0, FlashLength)
			pc := -1
			for range FlashLength {
				c, err := pickOther(rand, len(palette), pc)
				if err != nil {
					return nil, err
				}
				pc = c
				st.Colors = append(st.Colors, palette[c])
			}
		}
		script = append(script, st)
	}
	return script, nil
}

// pickOther returns a uniform index in [0, n) other than not (-1: any).
func pickOther(rand io.Reader, n, not int) (int, error) {
	if not < 0 {
		return uniform(rand, n)
	}
	i, err := uniform(rand, n-1)
	if err != nil {
		return 0, err
	}
	if i >= not {
		i++
	}
	return i, nil
}

// uniform returns a uniform integer in [0, n), 1 ≤ n ≤ 256, by rejection sampling
// single bytes of rand.
func uniform(rand io.Reader, n int) (int, error) {
	limit := 256 - 256%n // largest multiple of n that fits in a byte
	var b [1]byte
	for {
		if _, err := io.ReadFull(rand, b[:]); err != nil {
			return 0, fmt.Errorf("liveness: reading randomness: %w", err)
		}
		if int(b[0]) < limit {
			return int(b[0]) % n, nil
		}
	}
}
