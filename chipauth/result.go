package chipauth

import (
	"time"
)

// Result is what passive authentication established. Verify returns it on
// success and on failure alike; on failure FailedStep names the step that failed
// and the fields of later steps are zero, except the three checks below.
//
// HashCheck, SignatureCheck and ChainCheck (with DataGroups) report the data-group
// hashes, the SOD signature and the certificate chain separately, like JMRTD's
// verification status, whatever the outcome of the others: an intact document from
// an unknown issuer shows hashes and signature succeeded and the chain failed with
// csca_not_found, a tampered one also shows the mismatch. Verified, and the error,
// still require all of them.
type Result struct {
	Verified   bool   // every step passed
	Passed     []Step // steps that passed, in order (steps are named by how they fail)
	FailedStep string // "" on success, else e.g. "digest_mismatch:DG2", as in Meta["step"]

	// HashCheck compares every supplied data group with its hash in the SOD: it
	// succeeds when each matches (data groups the SOD lists but that were not
	// supplied do not fail it); not_checked when the SOD could not be parsed or
	// uses an unsupported hash algorithm. Its hash list is signed data only once
	// SignatureCheck succeeded.
	HashCheck Check
	// SignatureCheck covers the signer's certificate, the signature over the signed
	// attributes and messageDigest = hash of the LDSSecurityObject.
	SignatureCheck Check
	// ChainCheck covers the DS key usage, a trusted CSCA that signed the DS (and its
	// key usage) and the DS validity; not_checked when the signature check failed.
	ChainCheck Check
	// DataGroups is the outcome per data group, supplied or listed in the SOD,
	// sorted by number; nil when HashCheck is not_checked.
	DataGroups []DataGroupCheck

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
}

func (r *Result) pass(s Step) { r.Passed = append(r.Passed, s) }

// CheckStatus is the outcome of one of the checks a Result reports separately.
type CheckStatus string

// Check outcomes.
const (
	CheckNotChecked CheckStatus = "not_checked" // an earlier step failed before it could run
	CheckSucceeded  CheckStatus = "succeeded"
	CheckFailed     CheckStatus = "failed"
)

// Check is the outcome of the hash, signature or chain check.
type Check struct {
	Status CheckStatus
	// Failure names the failed step as in Result.FailedStep, e.g. "csca_not_found"
	// or "digest_mismatch:DG1"; "" unless Status is CheckFailed.
	Failure string
}

// DataGroupStatus is the hash-check outcome of one data group.
type DataGroupStatus string

// Data group outcomes.
const (
	DataGroupOK          DataGroupStatus = "ok"           // supplied, and its hash matches the SOD
	DataGroupMismatch    DataGroupStatus = "mismatch"     // supplied, and its hash differs from the SOD
	DataGroupNotInSOD    DataGroupStatus = "not_in_sod"   // supplied, but the SOD has no hash for it
	DataGroupNotSupplied DataGroupStatus = "not_supplied" // listed in the SOD, but not supplied
)

// DataGroupCheck is the hash-check outcome of data group DG.
type DataGroupCheck struct {
	DG     int
	Status DataGroupStatus
}

func failedCheck(err *StepError) Check {
	return Check{Status: CheckFailed, Failure: err.Name()}
}
