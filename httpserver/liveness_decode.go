package httpserver

import (
	"net/http"
	"sync"

	"github.com/veriland/veriland/internal/jsonscan"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// decodeVerifyRequest reads the body of POST /liveness/verify into dst with exactly
// decodeJSON's outcome, in one pass over the bytes for the bodies clients send.
//
// decodeJSON costs three scans of the body through encoding/json's state machine
// (its validity check, the skip past frameTimestamps for its json.Unmarshaler, the
// member check) besides the decoding itself: about 1.6 ms of CPU for 10,000
// timestamps. verifyBodyScanner instead decodes a body it can vouch for directly: one
// JSON object holding only VerifyRequest's members, each at most once, of the right
// JSON type, strings without escapes or invalid UTF-8, numbers within float64's
// range. On such a body json.Unmarshal returns the same value and decodeStrict has
// nothing to refuse. Any other body, valid or not, is decoded again by decodeStrict,
// so that every error (code, message, pointer, offset) and every value it accepts
// stays what it was; a body that is refused costs what it cost before.
func decodeVerifyRequest(r *http.Request, dst *liveness.VerifyRequest) error {
	buf, _ := verifyBodyBuffers.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	defer verifyBodyBuffers.Put(buf)
	body, err := readBody(r, (*buf)[:0])
	*buf = body[:0]
	if err != nil {
		return err // as decodeJSON: 413 over the limit, 400 for a broken body
	}
	// Nothing decoded refers to body: strings, numbers and errors are copies.
	return decodeVerifyBody(body, dst)
}

// verifyBodyBuffers holds the buffers verification bodies were read into, for the
// next ones: a 10,000-timestamp body is about 200 kB, over half of what a
// verification allocated. A sync.Pool lets go of what stays unused for two garbage
// collections, so an idle server keeps nothing.
var verifyBodyBuffers sync.Pool

// decodeVerifyBody is decodeStrict(body, dst) for a zero dst. The timestamps it
// reads go into storage from verifyTimestamps when it has some; the caller may hand
// them back with releaseTimestamps once nothing refers to them.
func decodeVerifyBody(body []byte, dst *liveness.VerifyRequest) error {
	s := verifyBodyScanner{Scanner: jsonscan.New(body)}
	if buf, _ := verifyTimestamps.Get().(*liveness.Timestamps); buf != nil {
		s.timestampBuf = (*buf)[:0]
	}
	if req, ok := s.request(); ok {
		*dst = req
		return nil
	}
	*dst = liveness.VerifyRequest{}
	return decodeStrict(body, dst)
}

// verifyTimestamps holds the storage of the timestamps of verifications already
// answered (releaseTimestamps), for the next ones: 10,000 timestamps are 80 kB, half
// of what a verification allocated. Like verifyBodyBuffers, it keeps nothing for
// long once the server is idle.
var verifyTimestamps sync.Pool

// releaseTimestamps hands back the storage of ts, which decodeVerifyBody returned,
// once nothing refers to it any more.
func releaseTimestamps(ts liveness.Timestamps) {
	if cap(ts) > 0 {
		verifyTimestamps.Put(&ts)
	}
}

// verifyBodyScanner decodes a verification body in one pass on jsonscan's
// primitives, or gives up (ok false) on the first byte it cannot vouch for (see
// decodeVerifyRequest). timestampBuf is storage for the timestamps, when not nil.
type verifyBodyScanner struct {
	jsonscan.Scanner
	timestampBuf liveness.Timestamps
}

// Member names, in the order of the structs' fields.
var (
	verifyMembers      = []string{"sessionId", "devicePublicKey", "attestation", "merkleRoot", "frameTimestamps", "deviceSignature", "evidence"}
	attestationMembers = []string{"type", "token"}
	evidenceMembers    = []string{"challenge", "sensor", "camera", "timing"}
	challengeMembers   = []string{"hueScore", "latencyMs"}
	sensorMembers      = []string{"parallaxScore", "imuCorrelation"}
	cameraMembers      = []string{"physicalSensorId", "virtualSourceSuspected"}
	timingMembers      = []string{"frameJitterMs", "sessionDurationMs", "frameCount"}
)

// request reads the whole body: one object, nothing but space after it.
func (s *verifyBodyScanner) request() (liveness.VerifyRequest, bool) {
	var req liveness.VerifyRequest
	ok := s.object(verifyMembers, func(k int) bool {
		switch k {
		case 0:
			return s.str(&req.SessionID)
		case 1:
			return s.str(&req.DevicePublicKey)
		case 2:
			return s.attestation(&req.Attestation)
		case 3:
			return s.str(&req.MerkleRoot)
		case 4:
			return s.timestamps(&req.FrameTimestamps)
		case 5:
			return s.str(&req.DeviceSignature)
		default:
			return s.evidence(&req.Evidence)
		}
	})
	return req, ok && s.End()
}

func (s *verifyBodyScanner) attestation(dst **liveness.DeviceAttestation) bool {
	return nullableObject(s, dst, attestationMembers, func(a *liveness.DeviceAttestation, k int) bool {
		if k == 0 {
			var t string
			ok := s.str(&t)
			a.Type = deviceattest.Type(t)
			return ok
		}
		return s.str(&a.Token)
	})
}

func (s *verifyBodyScanner) evidence(dst **liveness.Evidence) bool {
	return nullableObject(s, dst, evidenceMembers, func(e *liveness.Evidence, k int) bool {
		switch k {
		case 0:
			return nullableObject(s, &e.Challenge, challengeMembers, func(c *liveness.ChallengeEvidence, k int) bool {
				return s.number([]**float64{&c.HueScore, &c.LatencyMs}[k])
			})
		case 1:
			return nullableObject(s, &e.Sensor, sensorMembers, func(x *liveness.SensorEvidence, k int) bool {
				return s.number([]**float64{&x.ParallaxScore, &x.IMUCorrelation}[k])
			})
		case 2:
			return nullableObject(s, &e.Camera, cameraMembers, func(c *liveness.CameraEvidence, k int) bool {
				if k == 0 {
					return s.str(&c.PhysicalSensorID)
				}
				return s.boolean(&c.VirtualSourceSuspected)
			})
		default:
			return nullableObject(s, &e.Timing, timingMembers, func(t *liveness.TimingEvidence, k int) bool {
				return s.number([]**float64{&t.FrameJitterMs, &t.SessionDurationMs, &t.FrameCount}[k])
			})
		}
	})
}

// nullableObject reads a member of type *T: null leaves *dst nil, as json.Unmarshal
// does for a member sent once; an object is read into a new T, member by member
// (see object).
func nullableObject[T any](s *verifyBodyScanner, dst **T, names []string, value func(v *T, k int) bool) bool {
	if s.null() {
		return true
	}
	v := new(T)
	*dst = v
	return s.object(names, func(k int) bool { return value(v, k) })
}

// object reads an object whose members are all among names (at most 64), each at
// most once, calling value with the member's index in names and the scanner at the
// value, which value reads.
func (s *verifyBodyScanner) object(names []string, value func(k int) bool) bool {
	var seen uint64
	return s.Object(func(name []byte) bool {
		k := 0
		for k < len(names) && names[k] != string(name) {
			k++
		}
		// An unknown member is refused, and json.Unmarshal merges or overwrites a
		// repeated one: decodeStrict has the last word on both.
		if k == len(names) || seen&(1<<k) != 0 {
			return false
		}
		seen |= 1 << k
		return value(k)
	})
}

func (s *verifyBodyScanner) null() bool { return s.Literal("null") }

// str reads a string member; null leaves dst alone, as json.Unmarshal does.
func (s *verifyBodyScanner) str(dst *string) bool {
	if s.null() {
		return true
	}
	b, ok := s.PlainString()
	if ok {
		*dst = string(b)
	}
	return ok
}

func (s *verifyBodyScanner) boolean(dst **bool) bool {
	var v bool
	switch {
	case s.null():
		return true
	case s.Literal("true"):
		v = true
	case !s.Literal("false"):
		return false
	}
	*dst = &v
	return true
}

// number reads a number member as json.Unmarshal does (strconv.ParseFloat of the
// literal), refusing one out of float64's range; null leaves dst nil.
func (s *verifyBodyScanner) number(dst **float64) bool {
	if s.null() {
		return true
	}
	v, ok := s.Float()
	if ok {
		*dst = &v
	}
	return ok
}

// timestamps reads frameTimestamps with liveness.AppendTimestamps, the scanner of
// Timestamps.UnmarshalJSON, into timestampBuf; null leaves dst nil, as
// UnmarshalJSON does.
func (s *verifyBodyScanner) timestamps(dst *liveness.Timestamps) bool {
	if s.null() {
		return true
	}
	ts, end, ok := liveness.AppendTimestamps(s.timestampBuf, s.Data(), s.Space())
	if ok {
		*dst = ts
		s.Seek(end)
	}
	return ok
}
