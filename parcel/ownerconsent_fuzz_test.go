package parcel_test

import (
	"strings"
	"testing"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
)

// checkRefusal fails t unless err is a typed refusal: veriland errors, none internal,
// each pointer a JSON pointer.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	list := veriland.ErrorList(err)
	if len(list) == 0 {
		t.Fatalf("untyped error %v", err)
	}
	for _, e := range list {
		if e.Code == veriland.CodeInternal || (e.Pointer != "" && e.Pointer[0] != '/') {
			t.Fatalf("bad error %v", e)
		}
	}
}

// FuzzDecodeOwnerDecision feeds arbitrary bodies to the owner's decision decoder: it
// never panics, refuses with typed errors, and what it accepts is a decision the
// service can check (APPROVED or REJECTED, an address, hex of at most 130 bytes:
// hex of another length than 65 bytes is well-formed and refused as
// invalid_signature by the check of the signature).
func FuzzDecodeOwnerDecision(f *testing.F) {
	addr := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	sig := "0x" + strings.Repeat("ab", 64) + "1b"
	for _, seed := range []string{
		`{"decision":"APPROVED","ownerSignature":"` + sig + `","ownerAddress":"` + addr + `"}`,
		`{"decision":"REJECTED","ownerSignature":"` + sig + `","ownerAddress":"` + strings.ToLower(addr) + `"}`,
		`{"decision":"APPROVED","ownerSignature":"0x","ownerAddress":"` + addr + `"}`,
		`{"decision":"approved","ownerSignature":"` + sig + `","ownerAddress":"` + addr + `"}`,
		`{"decision":"APPROVED","ownerSignature":"` + sig + `00","ownerAddress":"` + addr + `"}`,
		`{"decision":"APPROVED","ownerSignature":"` + sig + `","ownerAddress":"0x2C7536E3605D9C16a7a3D7b1898e529396a65c23"}`,
		`{"decision":"APPROVED","ownerSignature":"` + sig + `","ownerAddress":"` + addr + `","holderSignature":"x"}`,
		`{"decision":null,"ownerSignature":1,"ownerAddress":[]}`,
		`{"decision":"APPROVED"}{}`,
		`{}`, `[]`, `null`, ``, `"\xff"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d, err := parcel.DecodeOwnerDecision(body)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		if d.Decision != parcel.DecisionApproved && d.Decision != parcel.DecisionRejected {
			t.Fatalf("accepted decision %q", d.Decision)
		}
		if _, err := identity.ParseWalletAddress(d.OwnerAddress); err != nil {
			t.Fatalf("accepted address %q", d.OwnerAddress)
		}
		if !strings.HasPrefix(strings.ToLower(d.OwnerSignature), "0x") || len(d.OwnerSignature) > 2+2*2*ethsig.SignatureLength {
			t.Fatalf("accepted signature %q", d.OwnerSignature)
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("accepted decision fails validation: %v", err)
		}
	})
}

// FuzzDecodeTransferRequest does the same for the transfer request body: what it
// accepts is within every bound of SPEC S9 and S13.
func FuzzDecodeTransferRequest(f *testing.F) {
	for _, seed := range []string{
		`{"newOwner":{"fullName":"Chidi Nwosu","id_doc":"NIN-1"},"notary":"NOT-ABJ-0042"}`,
		`{"newOwner":{"fullName":"Chidi Nwosu","id_doc":"NIN-1","walletAddress":"0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"},"notary":"NOT-ABJ-0042","requireLiveness":{"minLevel":"L2","maxAgeDays":7.5},"expiresInSeconds":3600}`,
		`{"newOwner":{"fullName":"C","id_doc":"N","walletAddress":"0x2C7536E3605D9C16a7a3D7b1898e529396a65c23"},"notary":"NOT-ABJ-1"}`,
		`{"newOwner":{"fullName":"C","id_doc":"N"},"notary":"NOT-ABJ-1","expiresInSeconds":59}`,
		`{"newOwner":{"fullName":"C","id_doc":"N"},"notary":"NOT-ABJ-1","expiresInSeconds":1e30}`,
		`{"newOwner":{"fullName":"C","id_doc":"N"},"notary":"NOT-ABJ-1","requireLiveness":{"minLevel":"L9","maxAgeDays":-1}}`,
		`{"newOwner":{"fullName":"C","id_doc":"N"},"notary":"NOT-ABJ-1","requesterName":"me"}`,
		`{"newOwner":null,"notary":""}`,
		`{}`, `[]`, `null`, ``, `"\xff"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parcel.DecodeTransferRequest(body)
		if err != nil {
			checkRefusal(t, err)
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("accepted request fails validation: %v", err)
		}
		if r.NewOwner == nil || r.NewOwner.FullName == "" || r.NewOwner.IDDoc == "" || !parcel.NotaryPattern.MatchString(r.Notary) {
			t.Fatalf("accepted incomplete request %+v", r)
		}
		if w := r.NewOwner.WalletAddress; w != "" {
			if _, err := identity.ParseWalletAddress(w); err != nil {
				t.Fatalf("accepted wallet %q", w)
			}
		}
		if e := r.ExpiresInSeconds; e != nil && (*e < parcel.MinOwnerDeadline || *e > parcel.MaxOwnerDeadline) {
			t.Fatalf("accepted expiresInSeconds %d", *e)
		}
		if r.RequesterName != "" {
			t.Fatalf("the client set the requester's name")
		}
	})
}
