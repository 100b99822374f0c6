// Package chipauth performs ICAO Doc 9303 passive authentication of ePassport and
// eID chips (SPEC S6): it proves that the data groups read from a chip were
// signed by a Document Signer (DS) whose certificate was issued by a trusted
// Country Signing CA (CSCA), and turns DG1's MRZ into a pseudonymous document key.
//
// Verify is the entry point. It parses EF.SOD (with or without the 0x77 wrapper,
// BER indefinite lengths included) as CMS SignedData over an LDSSecurityObject,
// finds the signer's certificate (by issuer and serial number, names compared by
// meaning; by subject key identifier; or the single embedded certificate),
// verifies the signature over the signed attributes exactly as encoded, the
// messageDigest attribute, the DS certificate's key usage, its signature by a
// CSCA in the TrustStore and its validity at the signing time (or now), every
// supplied data group's hash, and DG1's MRZ check digits. Algorithms: SHA-1/224/
// 256/384/512; RSA PKCS#1 v1.5 and RSASSA-PSS; ECDSA over NIST P-256/384/521 and
// brainpoolP256r1/P384r1/P512r1, with named or explicit curve parameters.
// Failures are *veriland.Error with code passive_auth_failed and Meta["step"]
// naming the failed Step; errors.Is matches the Err* sentinels. The Result comes
// back with the error too, and reports the hash check (per data group: ok,
// mismatch, not in the SOD, not supplied), the SOD signature check and the chain
// check separately, like JMRTD's verification status, whatever the chain outcome:
// a document from an unknown CSCA still shows whether it is intact, though
// Verified stays false and the error stays csca_not_found.
//
// What it trusts: only the certificates put in a TrustStore, by AddCertificates,
// AddMasterList (whose signer must chain to a configured root) or LoadTrustDir.
// Every CSCA and link certificate in the store is a trust anchor; no path is
// built, so a DS is accepted when any one of them signed it. The injected clock
// (Options.Now) decides validity.
//
// What it never does: keep or return the document number, names or birth date
// (the number leaves only as DocumentKey, HMAC-SHA256 with the embedder's
// pepper; the birth date only as Result.Age, whole years at verification time,
// with the two-digit year's century resolved as MRZ.AgeAt documents); re-encode
// signed data before verifying it; fetch anything from the network (no CRLs, no
// PKD); perform active, chip or terminal authentication (those need the chip, not
// just its files); or panic on malformed input; or print them: an MRZ formatted
// with fmt or logged with slog shows only format, document type, issuing state and
// expiry, with the rest "[redacted]". Result also reports the MRZ nationality,
// issuing state and document type.
//
// What it keeps between documents: the CSCA keys of the TrustStore, prepared
// once, and the Document Signer certificates of the documents it verified, read
// and with their keys prepared (DefaultSignerCacheSize of them, content-addressed;
// TrustStore.SetSignerCacheSize). A DS certificate signs every passport of its
// signing period, so in service nearly every document's DS certificate has been
// seen before; reading one costs about as much as one of the document's two
// signature verifications. The checks themselves (both signatures, key usage,
// validity) run for every document.
//
// Not enforced, but reported in Result: the MRZ date of expiry
// (DocumentExpired) and the CSCA's validity today (CSCAExpiredNow).
//
// chipauth reads the CMS envelope once, with its own DER/BER reader: crypto/x509,
// and so github.com/digitorus/pkcs7, reject the certificates with explicit EC
// parameters that ICAO requires. The tests and fuzz targets check that the
// reader agrees with digitorus/pkcs7 on every envelope pkcs7 can read. Test
// documents for any algorithm are issued by the chipauth/sandbox package.
package chipauth
