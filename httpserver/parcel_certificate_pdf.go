package httpserver

import (
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

// pdfLandTitle is what the PDF certificate prints of a version's land title token
// (SPEC S14): public chain facts only (status, standard, contract, chain id, holder and
// its kind); Error, which may name the operator's node, stays with the operator. Nil
// when t is nil or is another version's token.
func pdfLandTitle(t *parcel.Token, version uint64) *pdf.LandTitle {
	if t == nil || t.Version != version {
		return nil
	}
	title := &pdf.LandTitle{Status: string(t.Status), Standard: t.Standard, Contract: t.Contract,
		ChainID: t.ChainID, Holder: t.Holder, HolderKind: string(t.HolderKind)}
	if t.Contract == "" {
		// No chain: the chain id is the registry's signing domain, not a chain the
		// title lives on.
		title.ChainID = 0
	}
	return title
}
