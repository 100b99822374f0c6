// Package ownerconsentpage is the hosted owner-consent page of SPEC S13: what the
// current owner of a land parcel sees when a browser opens
// GET /v1/transfers/{id}/owner-consent (Accept preferring text/html to
// application/json). There the owner reviews a requested transfer of their parcel
// and approves or refuses it by signing the TransferConsent typed data (EIP-712,
// domain "Land Transfer") with their wallet.
//
// The server renders what does not depend on the transfer's live state: the page's
// language and direction (catalogue.Negotiate: Accept-Language, or the ?lang= its
// language switcher sets; the seven languages of the consent page, Arabic right to
// left), its static labels in that language, what signing does and does not do, the
// QR code of the page's own address and the wallets' "open in wallet browser" links
// (consentpage.QRSVG, consentpage.WalletLinks), or a 404 page for an unknown id. The
// page's one script then reads the transfer from its own URL with
// Accept: application/vnd.api+json (the JSON:API document's data.attributes: the
// parcel, the notary, who asked, the new owner's identity document ending and
// wallet, the deadline, the liveness requirement, the status and the owner's
// recorded answer), keeps the status live, connects an EIP-1193 wallet
// (window.ethereum), warns when the connected account is not the owner's wallet,
// signs the served typed data with the decision added (eth_signTypedData_v4), and
// posts {decision, ownerSignature, ownerAddress} back to the same URL.
//
// What it trusts: nothing the server sends is markup; every value reaches the page
// through textContent only. What it never shows: a name of the new owner or of the
// current owner (the server serves neither; the page has no slot for one). What it
// never does: sign anything but the typed data served for this transfer (it checks
// the primary type, the domain name and the transfer id first), keep anything in
// storage or cookies, or load a resource from anywhere.
//
// The page has one inline script and one inline style, neither holding a template
// action, so every rendering has the same two elements; the Content-Security-Policy
// (htmlpage.InlinePolicy) allows exactly those two by their SHA-256 hashes, computed
// at start-up from a rendering, and enforces Trusted Types. The labels of every
// language are in the message catalogue (internal/catalogue/ownerconsent.json), embedded in the page as a JSON data block; the
// package panics at start-up when a language lacks a label or has one too many.
package ownerconsentpage
