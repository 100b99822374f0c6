package chipauth

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestMRZRedacted checks that no formatting path shows the document number, the
// date of birth or the nationality of a parsed MRZ, while the non-identifying fields
// stay visible.
func TestMRZRedacted(t *testing.T) {
	m, err := ParseMRZ(specimenTD3)
	if err != nil {
		t.Fatal(err)
	}
	// Document number, its hex, the birth field (YYMMDD), nationality and names.
	secrets := []string{"L898902C3", fmt.Sprintf("%x", "L898902C3"), "740812", fmt.Sprintf("%x", "740812"), "ERIKSSON", "ANNA"}
	type holder struct {
		Name string
		MRZ  MRZ
	}
	type pointer struct {
		MRZ *MRZ
	}
	type embeds struct {
		MRZ
	}
	// fmt cannot call methods through an unexported field: the personal fields must
	// not be reachable there either.
	type hidden struct {
		m MRZ
	}
	render := map[string]func() string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.3s", "%-20v", "% x", "%#x", "%#q"} {
		render["value "+verb] = func() string { return fmt.Sprintf(verb, m) }
		render["pointer "+verb] = func() string { return fmt.Sprintf(verb, &m) }
		render["holder "+verb] = func() string { return fmt.Sprintf(verb, holder{"x", m}) }
		render["field pointer "+verb] = func() string { return fmt.Sprintf(verb, pointer{&m}) }
		render["embedded "+verb] = func() string { return fmt.Sprintf(verb, embeds{m}) }
		render["unexported field "+verb] = func() string { return fmt.Sprintf(verb, hidden{m}) }
	}
	render["Sprint"] = func() string { return fmt.Sprint(m, &m, holder{"x", m}, pointer{&m}, embeds{m}) }
	render["Sprintln"] = func() string { return fmt.Sprintln(m, []MRZ{m}, map[string]MRZ{"k": m}) }
	render["String"] = m.String
	render["GoString"] = m.GoString
	for name, h := range map[string]func(*bytes.Buffer) slog.Handler{
		"slog json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
		"slog text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
	} {
		render[name] = func() string {
			var b bytes.Buffer
			l := slog.New(h(&b))
			l.Info("mrz", "mrz", m, "ptr", &m, "holder", holder{"x", m}, slog.Any("any", m))
			l.Info("group", slog.Group("g", "mrz", m))
			return b.String()
		}
	}
	for name, f := range render {
		t.Run(name, func(t *testing.T) {
			out := f()
			for _, s := range secrets {
				if strings.Contains(strings.ToUpper(out), strings.ToUpper(s)) {
					t.Fatalf("output shows %q: %s", s, out)
				}
			}
		})
	}
	// The non-identifying fields stay readable.
	for _, out := range []string{m.String(), fmt.Sprintf("%+v", m), m.GoString()} {
		for _, want := range []string{"TD3", "UTO", "2012-04-15", "[redacted]"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: missing %q", out, want)
			}
		}
	}
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("mrz", "mrz", m)
	if !strings.Contains(b.String(), `"issuingState":"UTO"`) || !strings.Contains(b.String(), `"documentNumber":"[redacted]"`) {
		t.Errorf("slog JSON: %s", b.String())
	}
	var nilMRZ *MRZ
	if got := fmt.Sprintf("%v", nilMRZ); got != "<nil>" {
		t.Errorf("nil *MRZ printed %q", got)
	}
}
