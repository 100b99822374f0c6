package liveness

import "github.com/veriland/veriland"

// Level is a liveness assurance level. L1 < L2 < L3.
type Level string

// The three levels (SPEC S4).
const (
	L1 Level = "L1"
	L2 Level = "L2"
	L3 Level = "L3"
)

// DefaultLevel is the level of a session whose request names none.
const DefaultLevel = L2

// Rank returns 1, 2 or 3 for L1, L2 and L3, and 0 for anything else.
func (l Level) Rank() int {
	switch l {
	case L1:
		return 1
	case L2:
		return 2
	case L3:
		return 3
	}
	return 0
}

// Valid reports whether l is L1, L2 or L3.
func (l Level) Valid() bool { return l.Rank() > 0 }

// AtLeast reports whether l is a valid level no lower than min.
func (l Level) AtLeast(min Level) bool { return l.Valid() && l.Rank() >= min.Rank() }

// ParseLevel parses "L1", "L2" or "L3"; anything else is validation_failed.
func ParseLevel(s string) (Level, error) {
	l := Level(s)
	if !l.Valid() {
		return "", veriland.Errorf(veriland.CodeValidationFailed, "level must be L1, L2 or L3, got %q", s)
	}
	return l, nil
}

// Threshold is what one level demands of a verification's evidence. A zero minimum
// demands nothing (scores are never negative); a zero maximum means no limit.
type Threshold struct {
	MinParallaxScore  float64 `json:"minParallaxScore"`  // evidence.sensor.parallaxScore ≥
	MinHueScore       float64 `json:"minHueScore"`       // evidence.challenge.hueScore ≥
	MaxLatencyMs      float64 `json:"maxLatencyMs"`      // evidence.challenge.latencyMs ≤
	MinIMUCorrelation float64 `json:"minImuCorrelation"` // evidence.sensor.imuCorrelation ≥
	MaxFrameJitterMs  float64 `json:"maxFrameJitterMs"`  // evidence.timing.frameJitterMs ≤
	MinFrames         int     `json:"minFrames"`         // len(frameTimestamps) ≥
	// RequireStrongDevice demands a device enrolled with trust STRONG.
	RequireStrongDevice bool `json:"requireStrongDevice"`
}

// Policy is the table of thresholds per level. It is a plain value: embedders replace
// it (Service.Policy) to tune thresholds, and Version is recorded in every LIVENESS
// attestation's claims so that verifiers know which table was applied.
type Policy struct {
	Version string              `json:"version"` // recorded in claims.policyVersion
	Levels  map[Level]Threshold `json:"levels"`  // a level missing here never passes
}

// DefaultPolicy returns the table of SPEC S4, version "2026-11-s4".
//
//	level  parallax≥  hue≥  latencyMs≤  imu≥  jitterMs≤  frames≥  device
//	L1     0.50       —     —           —     80         10       any
//	L2     0.65       0.70  1500        0.60  50         30       any
//	L3     0.80       0.85  800         0.75  25         60       STRONG
func DefaultPolicy() Policy {
	return Policy{
		Version: "2026-11-s4",
		Levels: map[Level]Threshold{
			L1: {MinParallaxScore: 0.50, MaxFrameJitterMs: 80, MinFrames: 10},
			L2: {MinParallaxScore: 0.65, MinHueScore: 0.70, MaxLatencyMs: 1500, MinIMUCorrelation: 0.60, MaxFrameJitterMs: 50, MinFrames: 30},
			L3: {MinParallaxScore: 0.80, MinHueScore: 0.85, MaxLatencyMs: 800, MinIMUCorrelation: 0.75, MaxFrameJitterMs: 25, MinFrames: 60, RequireStrongDevice: true},
		},
	}
}
