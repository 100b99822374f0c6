package chipauth

import (
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/veriland/veriland"
)

// maxSODSize bounds the EF.SOD accepted; real ones are a few kilobytes.
const maxSODSize = 256 << 10

// Options tunes Verify. The zero value is the strict policy.
type Options struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// AllowExpired accepts a DS certificate that was not valid at the signing
	// time (or now, when the SOD has no signing time). Result reports it either way.
	AllowExpired bool
	// WithoutDataGroups verifies the SOD's signature and DS chain and parses its
	// hash list without requiring DG1, for SODs whose data groups the caller does
	// not have. Data groups that are supplied are still checked.
	WithoutDataGroups bool
	// Pepper, when set, makes Result carry DocumentKey(Pepper, mrz).
	Pepper []byte
}

// Verify performs ICAO Doc 9303-11 passive authentication of a chip: sod is
// EF.SOD (with or without its 0x77 wrapper), dataGroups maps data group numbers
// to the raw files read from the chip (DG1 required unless
// Options.WithoutDataGroups), and trust holds the CSCAs.
//
// It checks that the SOD parses; that its single signer's certificate is
// embedded; that the signature over the original signed attributes verifies
// and messageDigest is the hash of the LDSSecurityObject; that the DS
// certificate carries digitalSignature and was signed by a CSCA of trust; that
// the DS was valid at the signing time (or now); that every supplied data
// group's hash equals the SOD's; and that DG1 holds a well-formed MRZ.
//
// Errors are *veriland.Error with code passive_auth_failed, Meta["step"] set to
// the failed step and a *StepError cause, matched with errors.Is against the
// Err* sentinels. The Result is never nil, on failure too: its HashCheck,
// SignatureCheck, ChainCheck and DataGroups report each check that could run,
// whichever step failed (so a document from an unknown CSCA still shows whether
// its data groups and signature are intact).
func Verify(sod []byte, dataGroups map[int][]byte, trust *TrustStore, opts Options) (*Result, error) {
	res := &Result{HashCheck: Check{Status: CheckNotChecked}, SignatureCheck: Check{Status: CheckNotChecked},
		ChainCheck: Check{Status: CheckNotChecked}, Passed: make([]Step, 0, 14)}
	if err := verify(res, sod, dataGroups, trust, opts); err != nil {
		res.FailedStep, _ = err.Meta["step"].(string)
		return res, err
	}
	res.Verified = true
	return res, nil
}

func verify(res *Result, sod []byte, dataGroups map[int][]byte, trust *TrustStore, opts Options) *veriland.Error {
	at := now(opts.Now)
	if len(sod) > maxSODSize {
		return fail(StepSODParse, 0, nil, "SOD larger than %d bytes", maxSODSize)
	}
	ci, err := unwrapSOD(sod)
	if err != nil {
		return fail(StepSODParse, 0, err, "EF.SOD is malformed")
	}
	var signers *signerCache
	if trust != nil {
		signers = &trust.signers
	}
	sd, err := parseSignedDataWith(ci, signers)
	if err != nil {
		return fail(StepSODParse, 0, err, "CMS SignedData is malformed")
	}
	if !sd.contentType.Equal(oidLDSSecurityObject) {
		return fail(StepSODParse, 0, nil, "content type %s is not an LDSSecurityObject", sd.contentType)
	}
	lds, err := parseLDSSecurityObject(sd.content)
	if err != nil {
		return fail(StepSODParse, 0, err, "LDSSecurityObject is malformed")
	}
	res.LDSVersion, res.LDSVersionInfo = lds.version, lds.ldsVersion
	res.DataGroupsInSOD = slices.Sorted(slices.Values(lds.order))
	res.pass(StepSODParse)
	if lds.hash == 0 {
		return fail(StepUnsupportedAlgorithm, 0, nil, "data group hash algorithm %s is not supported", lds.hashOID)
	}
	res.DigestAlgorithm = lds.hash.String()
	checkHashes(res, lds, dataGroups)

	sc, verr := checkSigner(sd)
	if verr != nil {
		res.SignatureCheck = checkOf(verr)
		return verr
	}
	res.SignatureCheck = Check{Status: CheckSucceeded}
	ds := sc.cert
	res.SignatureAlgorithm = sc.sigAlg.String()
	res.SignerKey = ds.key.String()
	res.SigningTime = sd.signers[0].signingTime
	res.DSFingerprint = hex.EncodeToString(ds.fingerprint[:])
	res.pass(StepUnsupportedAlgorithm)
	res.pass(StepSignerNotFound)
	res.pass(StepSignatureInvalid)
	res.pass(StepSignedAttributes)
	res.pass(StepMessageDigestMismatch)

	if verr := checkChain(res, ds, trust, at, opts); verr != nil {
		res.ChainCheck = checkOf(verr)
		return verr
	}
	res.ChainCheck = Check{Status: CheckSucceeded}

	if _, ok := dataGroups[1]; !ok && !opts.WithoutDataGroups {
		return fail(StepDG1Missing, 0, nil, "DG1 not supplied")
	}
	if _, ok := lds.hashes[1]; !ok && !opts.WithoutDataGroups {
		return fail(StepDG1Missing, 0, nil, "the SOD has no DG1 hash")
	}
	res.pass(StepDG1Missing)
	// checkHashes compared every supplied data group already (a face image in
	// DG2 is tens of kilobytes); its outcomes, in data group order, decide.
	for _, dg := range res.DataGroups {
		switch dg.Status {
		case DataGroupNotInSOD:
			return fail(StepDataGroupNotInSOD, dg.DG, nil, "the SOD has no hash for DG%d", dg.DG)
		case DataGroupMismatch:
			return fail(StepDigestMismatch, dg.DG, nil, "DG%d does not match its hash in the SOD", dg.DG)
		case DataGroupOK:
			res.DataGroupsVerified = append(res.DataGroupsVerified, dg.DG)
		}
	}
	res.pass(StepDataGroupNotInSOD)
	res.pass(StepDigestMismatch)

	if dg1, ok := dataGroups[1]; ok {
		mrz, err := ParseDG1(dg1)
		if err != nil {
			return fail(StepMRZInvalid, 0, err, "DG1 MRZ is invalid")
		}
		res.MRZFormat, res.IssuingState, res.DocumentType = mrz.Format, mrz.IssuingState, mrz.DocumentType
		res.Nationality = mrz.Nationality
		if age, ok := mrz.AgeAt(at); ok {
			res.Age = &age
		}
		res.DocumentExpired = mrz.Expiry.AddDate(0, 0, 1).Before(at) // valid through the day of expiry
		if len(opts.Pepper) > 0 {
			k := DocumentKey(opts.Pepper, mrz)
			res.DocumentKey = k[:]
		}
		res.pass(StepMRZInvalid)
	}
	return nil
}

// checkChain checks the DS key usage, the CSCA that signed the DS and the DS
// validity, recording the passed steps in res.
func checkChain(res *Result, ds *certificate, trust *TrustStore, at time.Time, opts Options) *veriland.Error {
	if !ds.hasKeyUsage || ds.keyUsage&keyUsageDigitalSignature == 0 {
		return fail(StepDSKeyUsage, 0, nil, "DS certificate key usage lacks digitalSignature")
	}
	csca, err := trust.issuerOf(ds)
	if err != nil {
		return fail(StepCSCANotFound, 0, err, "no trusted CSCA signed the DS certificate")
	}
	if csca.hasKeyUsage && csca.keyUsage&keyUsageCertSign == 0 {
		return fail(StepDSKeyUsage, 0, nil, "CSCA certificate key usage lacks keyCertSign")
	}
	res.CSCAFingerprint = hex.EncodeToString(csca.fingerprint[:])
	res.CSCAExpiredNow = !csca.validAt(at)
	res.pass(StepCSCANotFound)
	res.pass(StepDSKeyUsage)

	res.ValidityTime = at
	if !res.SigningTime.IsZero() {
		res.ValidityTime = res.SigningTime
	}
	res.DSExpired = !ds.validAt(res.ValidityTime)
	res.DSExpiredNow = !ds.validAt(at)
	if res.DSExpired && !opts.AllowExpired {
		return fail(StepDSExpired, 0, nil, "DS certificate not valid at %s", res.ValidityTime.UTC().Format(time.RFC3339))
	}
	res.pass(StepDSExpired)
	return nil
}

// checkHashes fills res.DataGroups and res.HashCheck: every supplied data group
// against the SOD, and every data group the SOD lists but that was not supplied.
// The first failure, in data group order, names HashCheck.Failure.
func checkHashes(res *Result, lds *ldsSecurityObject, dataGroups map[int][]byte) {
	res.HashCheck = Check{Status: CheckSucceeded}
	numbers := slices.Collect(maps.Keys(dataGroups))
	for n := range lds.hashes {
		if _, ok := dataGroups[n]; !ok {
			numbers = append(numbers, n)
		}
	}
	slices.Sort(numbers)
	for _, n := range numbers {
		data, supplied := dataGroups[n]
		want, listed := lds.hashes[n]
		st := DataGroupOK
		switch {
		case !supplied:
			st = DataGroupNotSupplied
		case !listed:
			st = DataGroupNotInSOD
			if res.HashCheck.Status == CheckSucceeded {
				res.HashCheck = failedCheck(&StepError{Step: StepDataGroupNotInSOD, DG: n})
			}
		default:
			h := lds.hash.New()
			h.Write(data)
			if subtle.ConstantTimeCompare(h.Sum(nil), want) != 1 {
				st = DataGroupMismatch
				if res.HashCheck.Status == CheckSucceeded {
					res.HashCheck = failedCheck(&StepError{Step: StepDigestMismatch, DG: n})
				}
			}
		}
		res.DataGroups = append(res.DataGroups, DataGroupCheck{DG: n, Status: st})
	}
}

// checkOf is the failed Check for an error of fail.
func checkOf(err *veriland.Error) Check {
	var se *StepError
	if errors.As(err, &se) {
		return failedCheck(se)
	}
	step, _ := err.Meta["step"].(string)
	return Check{Status: CheckFailed, Failure: step}
}
