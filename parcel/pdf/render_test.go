package pdf

import (
	"bytes"
	"errors"
	"image"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/makiuchi-d/gozxing"
	gzqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/veriland/veriland/internal/testenv"
)

const sampleHash = "0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658"

func sampleInput(t testing.TB) Input {
	t.Helper()
	cert, err := os.ReadFile(filepath.Join("testdata", "certificate.json"))
	if err != nil {
		t.Fatal(err)
	}
	return Input{
		CertificateJSON: cert,
		Hash:            sampleHash,
		VerifyURL:       "https://registry.example.org/v1/registry/verify/" + sampleHash,
		ParcelID:        "prc_01JD4Z8Q6V2M7K3N5P9R1T0W4X",
		Version:         2,
		OwnerName:       "María José Núñez-Ångström",
		IDDocLast4:      "4821",
		City:            "Yogyakarta",
		Notary:          "NOT-YOG-17",
		TokenID:         "71270565394785396421329424925486014418338734883069219151453389302549347112745",
		Lat:             -7.797068,
		Lon:             110.370529,
		AreaM2:          12500.5,
		CertifiedAt:     time.Date(2026, 11, 23, 14, 5, 9, 0, time.UTC),
		Status:          "CURRENT",
	}
}

func TestRenderIsDeterministic(t *testing.T) {
	for _, status := range []string{"CURRENT", "SUPERSEDED", "REVOKED"} {
		t.Run(status, func(t *testing.T) {
			in := sampleInput(t)
			in.Status = status
			a, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatal("two renderings of one Input differ")
			}
			if !bytes.HasPrefix(a, []byte("%PDF-")) {
				t.Fatalf("not a PDF: %q", a[:min(len(a), 16)])
			}
			// The certification time, not the wall clock, dates the file.
			if !bytes.Contains(a, []byte("/CreationDate (D:20261123140509)")) {
				t.Error("CreationDate is not the certification time")
			}
			if bytes.Contains(a, []byte("/ID [")) {
				t.Error("the trailer carries a document id")
			}
		})
	}
}

func TestRenderRefusesIncompleteInput(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Input)
		want   error
	}{
		{"no certificate", func(in *Input) { in.CertificateJSON = nil }, ErrNoCertificate},
		{"certificate not JSON", func(in *Input) { in.CertificateJSON = []byte("{") }, ErrNoCertificate},
		{"certificate not an object", func(in *Input) { in.CertificateJSON = []byte(`[1]`) }, ErrNoCertificate},
		{"no verification URL", func(in *Input) { in.VerifyURL = "" }, ErrNoVerifyURL},
		{"no certification time", func(in *Input) { in.CertifiedAt = time.Time{} }, ErrNoCertifiedAt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := sampleInput(t)
			tt.modify(&in)
			if _, err := Render(in); !errors.Is(err, tt.want) {
				t.Fatalf("Render error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestExtractCertificateReturnsTheEmbeddedJSON(t *testing.T) {
	tests := []struct {
		name string
		json []byte
	}{
		{"fixture", nil},
		{"unicode and parentheses", []byte(`{"owner":{"fullName":"Zoë (née) \\ Ŧest 山田"},"n":1}`)},
		{"large", append(append([]byte(`{"pad":"`), bytes.Repeat([]byte("x"), 200_000)...), `"}`...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := sampleInput(t)
			if tt.json != nil {
				in.CertificateJSON = tt.json
			}
			doc, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ExtractCertificate(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, in.CertificateJSON) {
				t.Fatalf("extracted %d bytes, want the %d embedded", len(got), len(in.CertificateJSON))
			}
		})
	}
}

func TestExtractCertificateRefuses(t *testing.T) {
	doc, err := Render(sampleInput(t))
	if err != nil {
		t.Fatal(err)
	}
	renamed := bytes.Replace(doc, []byte("\x00c\x00e\x00r\x00t"), []byte("\x00C\x00e\x00r\x00t"), 1)
	// Flip one byte inside the compressed attachment: zlib's Adler-32 or the MD5 catches it.
	ef := bytes.Index(doc, []byte("/Type /EmbeddedFile"))
	body := bytes.Index(doc[ef:], []byte("stream\n")) + ef + len("stream\n")
	tampered := bytes.Clone(doc)
	tampered[body+10] ^= 0x01
	tests := []struct {
		name string
		pdf  []byte
		want error
	}{
		{"empty", nil, ErrNotPDF},
		{"JSON", []byte(`{"certificate":{}}`), ErrNotPDF},
		{"no attachment", []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF"), ErrNoAttachment},
		{"other attachment name", renamed, ErrNoAttachment},
		{"tampered attachment", tampered, ErrBadAttachment},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ExtractCertificate(tt.pdf); !errors.Is(err, tt.want) {
				t.Fatalf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestQRCodeDecodesToVerifyURL renders the real page with poppler's pdftoppm and decodes
// the QR code from the picture, as a phone would.
func TestQRCodeDecodesToVerifyURL(t *testing.T) {
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		testenv.Require(t, "pdftoppm (rendered-page QR test)", "apt-get install poppler-utils")
	}
	for _, status := range []string{"CURRENT", "REVOKED"} {
		t.Run(status, func(t *testing.T) {
			in := sampleInput(t)
			in.Status = status
			doc, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "certificate.pdf")
			if err := os.WriteFile(file, doc, 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(pdftoppm, "-png", "-r", "150", "-singlefile", file, filepath.Join(dir, "page")).CombinedOutput()
			if err != nil {
				t.Fatalf("pdftoppm: %v\n%s", err, out)
			}
			f, err := os.Open(filepath.Join(dir, "page.png"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, _, err := image.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			bmp, err := gozxing.NewBinaryBitmapFromImage(img)
			if err != nil {
				t.Fatal(err)
			}
			res, err := gzqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_TRY_HARDER: true})
			if err != nil {
				t.Fatalf("no QR code found on the rendered page: %v", err)
			}
			if res.GetText() != in.VerifyURL {
				t.Fatalf("QR code = %q, want %q", res.GetText(), in.VerifyURL)
			}
			// The URL is printed too, for readers who cannot scan.
			if text, err := exec.Command("pdftotext", file, "-").Output(); err == nil {
				flat := strings.Join(strings.Fields(string(text)), "")
				if !strings.Contains(flat, in.VerifyURL) {
					t.Errorf("the page does not print the verification URL")
				}
				for _, want := range []string{in.Hash, in.TokenID, in.ParcelID, "Status: " + status, "ending in 4821"} {
					if !strings.Contains(flat, strings.ReplaceAll(want, " ", "")) {
						t.Errorf("the page does not show %q", want)
					}
				}
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	in := sampleInput(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExtractCertificate(b *testing.B) {
	doc, err := Render(sampleInput(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ExtractCertificate(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCovers: DejaVu prints Latin, Greek, Cyrillic and Arabic names; a script it
// lacks (CJK) is reported, so the page says the exact name is in the attachment.
func TestCovers(t *testing.T) {
	ts, err := newTypesetter(fpdf.New("P", "mm", "A4", ""), "en", false)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		s    string
		want bool
	}{
		{"John Smith", true},
		{"María José Núñez-Ångström", true},
		{"Œuvre “quoted” – €5", true},
		{"Αλέξανδρος", true},
		{"Łukasz Żółć", true},
		{"Владимир", true},
		{"محمد الأمين", true},
		{"山田太郎", false},
	}
	for _, tt := range tests {
		if got := ts.covers(tt.s, bold); got != tt.want {
			t.Errorf("covers(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestRenderOwnerWallet: a bound owner wallet is printed whole (a reader compares it
// with a wallet's address), on the one A4 page, and the QR code still decodes.
func TestRenderOwnerWallet(t *testing.T) {
	in := sampleInput(t)
	in.OwnerWallet, in.OwnerBinding = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4", "IDENTITY_VERIFIED"
	doc, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(doc, []byte("/Type /Page\n")) + bytes.Count(doc, []byte("/Type /Page ")); n > 1 {
		t.Fatalf("the certificate spans %d pages", n)
	}
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		testenv.Require(t, "pdftotext (poppler-utils)", "apt-get install -y poppler-utils")
	}
	path := filepath.Join(t.TempDir(), "c.pdf")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-layout", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Owner's wallet", "0x5b38da6a701c568545dcfcb03fcb875f56beddc4", "the wallet of a verified identity"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the PDF text lacks %q:\n%s", want, out)
		}
	}
}

// sampleBoundary is a surveyed pentagon around sampleInput's GPS point, about
// 110 × 120 m.
var sampleBoundary = [][2]float64{
	{110.370029, -7.797568}, {110.371029, -7.797568}, {110.371029, -7.796868},
	{110.370529, -7.796468}, {110.370029, -7.796868}, {110.370029, -7.797568},
}

// fullInput is sampleInput in lang with everything a page can show: a bound wallet,
// a boundary and a minted land title.
func fullInput(t testing.TB, lang string) Input {
	in := sampleInput(t)
	in.Lang = lang
	in.OwnerWallet, in.OwnerBinding = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4", "IDENTITY_VERIFIED"
	in.Boundary = sampleBoundary
	in.Title = &LandTitle{
		Status: "MINTED", Standard: "ERC-5192", Contract: "0x5fbdb2315678afecb367f032d93f642f64180aa3", ChainID: 31337,
		Holder: in.OwnerWallet, HolderKind: "OWNER_WALLET",
	}
	return in
}
