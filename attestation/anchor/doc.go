// Package anchor puts 32-byte digests (of attestations and revocations) on an
// Ethereum chain, as the calldata of a transaction to a configured address, so that
// anyone can later show that the digest existed by the block's time. Parcel
// certificates are anchored by their land titles instead: the LandTitle contract
// (parcel/landtitle) keeps each certificate hash as its token's certificateHash.
//
// Why attestation anchors stay calldata rather than events of LandTitle: an
// attestation's verifier checks it offline, against the issuer's signature and the
// signed revocation list; the anchor only dates it, and the transaction hash kept on
// the attestation finds it on any node without an index. Events would make digests
// searchable by topic, but would tie identity attestations to the land registry's
// contract, and its deployment, for no gain to the offline verifier.
//
// An Anchor is called by a background worker (the server's one chain-job worker,
// storage/chainjob, which also mints and burns land titles with the same key), never
// on the request path: anchoring is
// best-effort and its failures never fail issuance. Implementations: Disabled (no
// chain), Ethereum (a JSON-RPC node through go-ethereum's ethclient, signed with a
// configured key) and Simulated (go-ethereum's in-process simulated chain, for SANDBOX
// and tests). Anchor, Receipt and Disabled are aliases of attestation.Anchorer,
// attestation.AnchorReceipt and attestation.NoAnchor: package attestation declares the
// interface so that it, and an offline verifier, never link go-ethereum's clients.
//
// An Anchor trusts its node for the receipt it reports; it never holds more than the
// transaction key it is given.
//
// Ethereum allocates nonces in one process: two processes sending with one key race
// on the nonce, and one of their transactions is refused or replaced. Replicas of a
// server therefore anchor from one leader at a time (httpserver's "anchoring" lease,
// storage/lease); embedders that run several workers elsewhere give each its own key.
// A Simulated chain lives in its process: with replicas, each has its own, and a
// SANDBOX receipt comes from the chain of the replica that led at the time.
package anchor
