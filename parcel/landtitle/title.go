package landtitle

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
)

// State of a token id on the chain.
type State uint8

const (
	// Unminted: the token id was never minted.
	Unminted State = iota
	// Minted: the title is held by Title.Holder.
	Minted
	// Burned: the title was minted once and burned; the id is never minted again.
	Burned
)

// String returns "unminted", "minted" or "burned".
func (s State) String() string {
	switch s {
	case Unminted:
		return "unminted"
	case Minted:
		return "minted"
	case Burned:
		return "burned"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Title is what the chain says about one token.
type Title struct {
	State           State
	Holder          common.Address // zero unless Minted
	CertificateHash common.Hash    // zero when Unminted
}

// titleFrom reads titleOf's answer: a certificate hash without a holder is a burned
// title, since the contract keeps the hash after the burn.
func titleFrom(holder common.Address, certificateHash [32]byte) Title {
	t := Title{Holder: holder, CertificateHash: certificateHash}
	switch {
	case holder != (common.Address{}):
		t.State = Minted
	case t.CertificateHash != (common.Hash{}):
		t.State = Burned
	}
	return t
}
