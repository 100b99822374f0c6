// Package ids makes the unguessable identifiers of veriland records: a type prefix and
// 26 characters of lower-case base32 (a–z, 2–7), e.g. "vrq_…", "att_…", "prc_…", and
// the base58 DIDs of identities.
//
// New fills the 26 characters with 130 random bits. NewOrdered puts the creation time
// first, in Unix milliseconds (10 characters, in an alphabet of the same characters in
// ASCII order), then 80 random bits: ids that sort in time order, so that a store
// keyed by them appends new records to its last pages instead of rewriting a random
// page for each. Both have the same shape and Valid accepts both, so every documented
// id format holds and old and new ids live side by side.
//
// An ordered id tells anyone who sees it when it was made, to the millisecond. That
// is why only records whose creation time their readers already see use it:
// attestations (their issuedAt is signed into them and public) and webhook
// deliveries (the receiver gets the delivery's time in the webhook-timestamp header
// and the payload's timestamp). Ids whose time should stay private (consent requests,
// tokens, keys, sessions) stay random. 80 random bits keep ordered ids unguessable.
package ids
