package pdf

import (
	"bytes"
	"testing"
)

// FuzzExtractCertificate feeds arbitrary bytes, seeded with real certificates and broken
// PDF syntax, to ExtractCertificate: it must never panic, and whatever it returns must be
// within its size bound.
func FuzzExtractCertificate(f *testing.F) {
	doc, err := Render(sampleInput(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(doc)
	f.Add(doc[:len(doc)/2])
	f.Add(bytes.Replace(doc, []byte("/FlateDecode"), []byte("/LZWDecode"), 1))
	f.Add(bytes.Replace(doc, []byte("/Length "), []byte("/Length 9"), -1))
	f.Add([]byte("%PDF-1.7\n1 0 obj << /Type /Filespec /UF (certificate.json) /EF << /F 2 0 R >> >> endobj\n" +
		"2 0 obj << /Length 3 0 R >> stream\n{\"a\":1}\nendstream endobj\n3 0 obj 7 endobj"))
	f.Add([]byte("%PDF-1.7\n1 0 obj << /EF << /F 1 0 R >> /F <63657274696669636174652E6A736F6E> >> stream\nx\nendstream endobj"))
	f.Add([]byte("%PDF-1.7\n1 0 obj [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ endobj"))
	f.Add([]byte("%PDF-1.7\n1 0 obj (unterminated \\"))
	f.Add([]byte("%PDF-"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := ExtractCertificate(b)
		if err == nil && len(got) > MaxAttachmentSize {
			t.Fatalf("returned %d bytes, over the bound", len(got))
		}
		if err != nil && got != nil {
			t.Fatal("returned bytes with an error")
		}
	})
}
