package pdf_test

import (
	"fmt"
	"time"

	"github.com/veriland/veriland/parcel/pdf"
)

// A certificate rendered to PDF (here in French) gives back, byte for byte, the
// signed certificate it embeds.
func Example() {
	signed := []byte(`{"certificate":{"parcelId":"prc_01JD4Z8Q6V2M7K3N5P9R1T0W4X","version":1},"hash":"0x00","signature":"0x00"}`)
	doc, err := pdf.Render(pdf.Input{
		CertificateJSON: signed,
		Hash:            "0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658",
		VerifyURL:       "https://registry.example.org/v1/registry/verify/0x9c22ff5f21f0b81b113e63f7db6da94fedef11b2119b4088b89664fb9a3cb658",
		Lang:            "fr",
		ParcelID:        "prc_01JD4Z8Q6V2M7K3N5P9R1T0W4X", Version: 1,
		OwnerName: "Budi Santoso", IDDocLast4: "4821", City: "Yogyakarta", Notary: "NOT-YOG-17",
		TokenID: "1234", Lat: -7.797068, Lon: 110.370529, AreaM2: 12500,
		CertifiedAt: time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC), Status: "CURRENT",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	embedded, err := pdf.ExtractCertificate(doc)
	fmt.Println(string(embedded) == string(signed), err)
	// Output: true <nil>
}
