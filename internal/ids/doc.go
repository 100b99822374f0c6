// Package ids makes the unguessable identifiers of veriland records: a type prefix and
// 26 characters of lower-case base32 (130 random bits), e.g. "vrq_…", "att_…", "prc_…",
// and the base58 DIDs of identities.
package ids
