package binding_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// BenchmarkBind measures a whole binding of an RSA-2048 document (PKCS#1 v1.5,
// SHA-256): decoding, passive authentication, the liveness check, the face match
// (512 dimensions), the attestation and the commit. The same holder binds the same
// document again on each iteration, so the store grows by one attestation each
// time. The bbolt file runs without fsync, so storage cost is not disk latency.
func BenchmarkBind(b *testing.B) {
	f := newFixture(b, sandbox.RSA2048)
	doc := f.issueDocument(b, f.ds, mrzFields(docNumber))
	req := doc.request(f.liveness(b, veriland.Sandbox, holderA, "L2"))
	req.LiveFaceTemplate = binding.EncodeTemplate(template(512, 0))
	req.ChipFaceTemplate = binding.EncodeTemplate(template(512, 0.05))
	f.svc.OnEvent = nil
	h := holder(holderA, veriland.Sandbox)
	b.ReportAllocs()
	for b.Loop() {
		_, err := f.svc.Bind(ctx, veriland.Sandbox, h, req)
		require.NoError(b, err)
	}
}
