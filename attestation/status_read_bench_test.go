package attestation

import (
	"encoding/json"
	"testing"
)

// BenchmarkDecodeStatus compares the status read's one-pass scanner (scan) with
// encoding/json decoding the same members (json), on a stored CONSENT record.
func BenchmarkDecodeStatus(b *testing.B) {
	rec := []byte(`{"attestation":{"id":"att_nlthqp2pxxurw3vyrnz2jdwsi7","kind":"CONSENT","subject":"did:pkh:eip155:1:0x2c7536e3605d9c16a7a3d7b1898e529396a65c23","verifier":"verifier-acme-bank","scope":["identity","is_adult"],"claims":{"identity":true,"is_adult":true},"evidenceHash":"0x0000000000000000000000000000000000000000000000000000000000000000","issuedAt":"2026-11-21T12:00:00Z","expiresAt":null,"status":"VALID","issuer":{"address":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23","chainId":1},"typedData":{"types":null,"primaryType":"","domain":{},"message":null},"signature":"0xcc608e513c603d9e3259add6023ae5fc6a91710a8798f23ee6411c641fbdda8c76b8359d91e4e304648fa9aa95afbc25df6563c6cb82ad58d5efad5fdb23f3a21c","anchor":{"status":"DISABLED"}}}`)
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeStatus(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r statusRecord
			if err := json.Unmarshal(rec, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
