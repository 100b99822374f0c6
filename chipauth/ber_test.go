package chipauth

import (
	"bytes"
	"testing"
)

func TestReadElement(t *testing.T) {
	// SEQUENCE (indefinite) { OCTET STRING (constructed, indefinite) { "ab", "c" }, INTEGER 5 }
	ber := []byte{0x30, 0x80, 0x24, 0x80, 0x04, 0x02, 'a', 'b', 0x04, 0x01, 'c', 0x00, 0x00, 0x02, 0x01, 0x05, 0x00, 0x00}
	e, rest, err := readElement(append(ber, 0xff))
	if err != nil || !bytes.Equal(rest, []byte{0xff}) || !e.indefinite || !bytes.Equal(e.full, ber) {
		t.Fatalf("readElement: %+v %x %v", e, rest, err)
	}
	kids, err := e.children()
	if err != nil || len(kids) != 2 {
		t.Fatalf("children: %v %v", kids, err)
	}
	if v, err := kids[0].octets(); err != nil || string(v) != "abc" {
		t.Errorf("octets: %q %v", v, err)
	}
	der, err := e.der()
	want := []byte{0x30, 0x0c, 0x24, 0x07, 0x04, 0x02, 'a', 'b', 0x04, 0x01, 'c', 0x02, 0x01, 0x05}
	if err != nil || !bytes.Equal(der, want) {
		t.Errorf("der: %x %v, want %x", der, err, want)
	}
	// Non-minimal definite length (0x81 0x03) is read; its identifier is kept.
	e, _, err = readElement([]byte{0x04, 0x81, 0x03, 1, 2, 3})
	if err != nil || !bytes.Equal(e.content, []byte{1, 2, 3}) {
		t.Errorf("long form: %+v %v", e, err)
	}
}

func TestReadElementRejects(t *testing.T) {
	deep := bytes.Repeat([]byte{0x30, 0x80}, 100)
	deep = append(deep, bytes.Repeat([]byte{0, 0}, 100)...)
	for name, b := range map[string][]byte{
		"empty":                  nil,
		"one byte":               {0x30},
		"length past end":        {0x04, 0x05, 1, 2},
		"long length past end":   {0x04, 0x84, 0x7f, 0xff, 0xff, 0xff},
		"length of 5 octets":     {0x04, 0x85, 0, 0, 0, 0, 1},
		"indefinite primitive":   {0x04, 0x80, 0x00, 0x00},
		"indefinite without end": {0x30, 0x80, 0x02, 0x01, 0x05},
		"high tag truncated":     {0x1f, 0x81},
		"too deep":               deep,
	} {
		if e, _, err := readElement(b); err == nil {
			t.Errorf("%s: accepted %+v", name, e)
		}
	}
}

// TestMarkDefinite checks that der() gives the same bytes whether or not an
// element was marked definite, on every element of the real SODs (DER) and
// of BER inputs, marked or not.
func TestMarkDefinite(t *testing.T) {
	inputs := [][]byte{
		{0x30, 0x80, 0x24, 0x80, 0x04, 0x02, 'a', 'b', 0x04, 0x01, 'c', 0x00, 0x00, 0x02, 0x01, 0x05, 0x00, 0x00},
		{0x30, 0x09, 0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00, 0x05, 0x00},
		{0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x05},
	}
	for _, name := range []string{"gmrtd_DE_EF_SOD.der", "gmrtd_FR_EF_SOD.der", "gmrtd_RU_EF_SOD.der", "gmrtd_DE_EF_CardSecurity.der"} {
		ci, err := unwrapSOD(readTestdata(t, name))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, ci)
	}
	var walk func(marked, plain element, depth int)
	walk = func(marked, plain element, depth int) {
		a, errA := marked.der()
		b, errB := plain.der()
		if !bytes.Equal(a, b) || (errA == nil) != (errB == nil) {
			t.Fatalf("der differs at depth %d: %x (%v) vs %x (%v)", depth, a, errA, b, errB)
		}
		if !marked.constructed {
			return
		}
		mk, errA := marked.children()
		pk, errB := plain.children()
		if len(mk) != len(pk) || (errA == nil) != (errB == nil) {
			t.Fatalf("children differ at depth %d", depth)
		}
		for i := range mk {
			walk(mk[i], pk[i], depth+1)
		}
	}
	for i, in := range inputs {
		e, _, err := readElement(in)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		marked := e
		marked.markDefinite()
		if marked.definite != (i >= 2) {
			t.Errorf("input %d: definite = %v", i, marked.definite)
		}
		walk(marked, e, 0)
	}
}

// hasIndefiniteTwoPass is hasIndefinite as first written: every child parsed in a
// first pass, then looked into in a second. The one-pass version must agree.
func hasIndefiniteTwoPass(e element, depth int) bool {
	if e.indefinite || depth > maxBERDepth {
		return true
	}
	if !e.constructed {
		return false
	}
	for rest := e.content; len(rest) > 0; {
		_, r, err := readElement(rest)
		if err != nil {
			return false
		}
		rest = r
	}
	for rest := e.content; len(rest) > 0; {
		k, r, _ := readElement(rest)
		if hasIndefiniteTwoPass(k, depth+1) {
			return true
		}
		rest = r
	}
	return false
}

// FuzzHasIndefinite checks the one-pass hasIndefinite against the two-pass definition,
// including an indefinite child followed by a sibling that does not parse.
func FuzzHasIndefinite(f *testing.F) {
	f.Add([]byte{0x30, 0x80, 0x24, 0x80, 0x04, 0x02, 'a', 'b', 0x04, 0x01, 'c', 0x00, 0x00, 0x02, 0x01, 0x05, 0x00, 0x00})
	f.Add([]byte{0x30, 0x09, 0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00, 0x05, 0x00})
	f.Add([]byte{0x30, 0x08, 0x30, 0x80, 0x02, 0x01, 0x05, 0x00, 0x00, 0x05})
	f.Add([]byte{0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x05})
	addSeedFiles(f, "*SOD*.der")
	f.Fuzz(func(t *testing.T, b []byte) {
		e, _, err := readElement(b)
		if err != nil {
			return
		}
		if got, want := hasIndefinite(e, 0), hasIndefiniteTwoPass(e, 0); got != want {
			t.Fatalf("hasIndefinite = %v, two-pass = %v", got, want)
		}
	})
}
