package chipauth

import (
	"time"
)

// Result is what passive authentication established. Verify returns it on
// success and on failure alike; on failure FailedStep names the step that failed
// and the fields of later steps are zero.
type Result struct {
	Verified   bool   // every step passed
	Passed     []Step // steps that passed, in order (steps are named by how they fail)
	FailedStep string // "" on success, else e.g. "digest_mismatch:DG2", as in Meta["step"]

	// From the DG1 MRZ (empty when DG1 was not supplied).
	MRZFormat    MRZFormat
	IssuingState string // ICAO code, e.g. "D", "UTO"
	DocumentType string // e.g. "P", "ID"
	Nationality  string // ICAO code of the holder's nationality, e.g. "UTO", "D"; "" if blank
	// Age is the holder's age in whole years at the verification time, from the
	// MRZ date of birth (MRZ.AgeAt), which itself is not returned; nil when the MRZ
	// holds no usable date of birth.
	Age             *int
	DocumentExpired bool   // the MRZ date of expiry is before the verification time (reported, not enforced)
	DocumentKey     []byte // HMAC-SHA256(pepper, issuingState || documentNumber); nil without a pepper

	// From the SOD and its signer.
	LDSVersion         int       // LDSSecurityObject version, 0 or 1
	LDSVersionInfo     string    // ldsVersion of a v1 object, e.g. "0108"
	DigestAlgorithm    string    // data-group hash algorithm, e.g. "SHA-256"
	SignatureAlgorithm string    // e.g. "ECDSA-SHA-384", "RSASSA-PSS-SHA-256", "RSA-PKCS1v15-SHA-256"
	SignerKey          string    // e.g. "EC brainpoolP384r1 (explicit)", "RSA-2048"
	SigningTime        time.Time // signingTime attribute; zero when the SOD has none
	DataGroupsInSOD    []int     // data groups the SOD lists a hash for
	DataGroupsVerified []int     // supplied data groups whose hash matched

	// The certificates.
	DSFingerprint   string    // hex SHA-256 of the DS certificate DER
	CSCAFingerprint string    // hex SHA-256 of the trust anchor that signed it
	ValidityTime    time.Time // when DS validity was checked: signing time, else now
	DSExpired       bool      // DS not valid at ValidityTime (fails unless Options.AllowExpired)
	DSExpiredNow    bool      // DS not valid at verification time
	CSCAExpiredNow  bool      // CSCA not valid at verification time (reported, not enforced)

	envelope string // which reader read the CMS envelope: "pkcs7" or "asn1"
}

func (r *Result) pass(s Step) { r.Passed = append(r.Passed, s) }
