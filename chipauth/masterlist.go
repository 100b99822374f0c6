package chipauth

import (
	"errors"
	"time"
)

// AddMasterList adds the certificates of an ICAO CSCA master list (CMS
// SignedData with content type 2.23.136.1.1.2, Doc 9303-12 section 9) after
// checking that its signer certificate verifies its signature and is itself
// signed by one of opts.MasterListRoots, valid at the list's signing time (or
// now). Certificates chipauth cannot use (unsupported curves, malformed DER) are
// skipped and counted in Skipped. It returns how many certificates were new.
func (t *TrustStore) AddMasterList(data []byte, opts TrustOptions) (int, error) {
	roots := NewTrustStore()
	for _, r := range opts.MasterListRoots {
		if _, err := roots.AddCertificates(r); err != nil {
			return 0, err
		}
	}
	return t.addMasterList(data, roots, opts)
}

func (t *TrustStore) addMasterList(data []byte, roots *TrustStore, opts TrustOptions) (int, error) {
	sd, err := parseSignedData(data)
	if err != nil {
		return 0, configError(StepTrustStore, err, "master list is not CMS SignedData")
	}
	if !sd.contentType.Equal(oidCscaMasterList) {
		return 0, configError(StepTrustStore, nil, "content type %s is not a CSCA master list", sd.contentType)
	}
	sc, verr := checkSigner(sd)
	if verr != nil {
		return 0, configError(StepMasterListSignature, verr, "master list signature: %s", verr.Message)
	}
	if roots.Len() == 0 {
		return 0, configError(StepMasterListSignature, nil, "no master list root configured")
	}
	if _, err := roots.issuerOf(sc.cert); err != nil {
		return 0, configError(StepMasterListSignature, err, "master list signer is not issued by a configured root")
	}
	at := sd.signers[0].signingTime
	if at.IsZero() {
		at = now(opts.Now)
	}
	if !sc.cert.validAt(at) && !opts.AllowExpiredMasterListSigner {
		return 0, configError(StepMasterListSignature, nil, "master list signer certificate not valid at %s", at.UTC().Format(time.RFC3339))
	}
	certs, err := masterListCertificates(sd.content)
	if err != nil {
		return 0, configError(StepTrustStore, err, "master list content is malformed")
	}
	n := 0
	for _, der := range certs {
		c, err := parseCertificate(der)
		if err != nil || c.keyErr != nil {
			t.skipped++
			continue
		}
		if t.add(c) {
			n++
		}
	}
	return n, nil
}

// masterListCertificates splits CscaMasterList ::= SEQUENCE { version, certList SET OF Certificate }.
func masterListCertificates(content []byte) ([][]byte, error) {
	e, rest, err := readElement(content)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, errors.New("trailing data")
	}
	if err := e.expect(classUniversal, tagSequence, true, "CscaMasterList SEQUENCE"); err != nil {
		return nil, err
	}
	f, err := e.children()
	if err != nil {
		return nil, err
	}
	if len(f) != 2 || !f[0].is(classUniversal, tagInteger) || !f[1].is(classUniversal, tagSet) {
		return nil, errors.New("CscaMasterList: expected version and certList")
	}
	items, err := f[1].children()
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(items))
	for _, it := range items {
		der, err := it.der()
		if err != nil {
			return nil, err
		}
		out = append(out, der)
	}
	return out, nil
}

// now reads the injected clock.
func now(clock func() time.Time) time.Time {
	if clock == nil {
		return time.Now()
	}
	return clock()
}
