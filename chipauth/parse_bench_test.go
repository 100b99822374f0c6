package chipauth

import "testing"

// BenchmarkParseSignedData measures reading a real RSA SOD's CMS envelope:
// content, embedded DS certificate (with its key) and signer info.
func BenchmarkParseSignedData(b *testing.B) {
	ci, err := unwrapSOD(readTestdata(b, "gmrtd_FR_EF_SOD.der"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseSignedData(ci); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseCertificate measures reading a real RSA CSCA certificate.
func BenchmarkParseCertificate(b *testing.B) {
	der := readTestdata(b, "IDN_2020-10_CSCA.cer")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseCertificate(der); err != nil {
			b.Fatal(err)
		}
	}
}
