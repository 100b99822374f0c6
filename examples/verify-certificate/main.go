package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, time.Now))
}

// issuerList collects -issuer flags, each one address or a comma-separated list.
type issuerList []common.Address

// String implements flag.Value.
func (l *issuerList) String() string { return fmt.Sprint(*l) }

// Set implements flag.Value.
func (l *issuerList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if !common.IsHexAddress(s) || !strings.HasPrefix(s, "0x") {
			return fmt.Errorf("%q is not a 0x address", s)
		}
		*l = append(*l, common.HexToAddress(s))
	}
	return nil
}

// maxFile bounds the files read: certificates, their PDFs and status lists are small.
const maxFile = 16 << 20

// run is the command without its process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer, now func() time.Time) int {
	fs := flag.NewFlagSet("verify-certificate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		issuers      issuerList
		certPath     = fs.String("cert", "", "signed certificate: JSON from GET /v1/parcels/{id}/certificate, or its PDF (required)")
		statusesPath = fs.String("statuses", "", "issuer-signed status list JSON from GET /v1/registry/statuses")
		chainID      = fs.Uint64("chain-id", parcel.DefaultChainID, "EIP-712 chainId of the certificate domain")
	)
	fs.Var(&issuers, "issuer", "trusted issuer address; repeat or separate with commas (required)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "verify-certificate: "+format+"\n", a...)
		fs.Usage()
		return 2
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if *certPath == "" {
		return usage("-cert is required")
	}
	if len(issuers) == 0 {
		return usage("at least one -issuer is required")
	}
	if *chainID == 0 {
		return usage("-chain-id must be a chain id, not 0")
	}
	certFile, err := readFile(*certPath)
	if err != nil {
		return usage("%v", err)
	}
	var statusesFile []byte
	if *statusesPath != "" {
		if statusesFile, err = readFile(*statusesPath); err != nil {
			return usage("%v", err)
		}
	}

	cert, err := decodeCertificate(certFile)
	if err != nil {
		return invalid(stdout, err)
	}
	opts := parcel.VerifyOptions{TrustedIssuers: issuers, ChainID: *chainID, Now: now()}
	if statusesFile != nil {
		var l parcel.StatusList
		if err := json.Unmarshal(attributes(statusesFile), &l); err != nil {
			return invalid(stdout, fmt.Errorf("the status list is not valid JSON: %w", err))
		}
		opts.Statuses = &l
	}
	res, err := parcel.VerifyCertificate(cert, opts)
	if err != nil {
		return invalid(stdout, err)
	}
	fmt.Fprintln(stdout, res.Status)
	describe(stderr, res, opts.Statuses)
	if res.Status != parcel.CertificateCurrent {
		return 1
	}
	return 0
}

// decodeCertificate reads a signed certificate from JSON or from a PDF's attachment.
func decodeCertificate(file []byte) (*parcel.SignedCertificate, error) {
	if bytes.HasPrefix(file, []byte("%PDF-")) {
		embedded, err := pdf.ExtractCertificate(file)
		if err != nil {
			return nil, fmt.Errorf("the PDF carries no readable certificate: %w", err)
		}
		file = embedded
	}
	body := attributes(file)
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(body, &probe); err != nil {
		return nil, fmt.Errorf("the certificate is not valid JSON: %w", err)
	}
	if _, ok := probe["certificate"]; !ok {
		if _, bare := probe["parcelId"]; bare {
			return nil, errors.New("the file is a certificate without its signature; use the signed certificate served by GET /v1/parcels/{id}/certificate")
		}
		return nil, errors.New("the file is not a signed parcel certificate (no certificate member)")
	}
	var c parcel.SignedCertificate
	if err := json.Unmarshal(body, &c); err != nil {
		return nil, fmt.Errorf("the signed certificate is malformed: %w", err)
	}
	return &c, nil
}

// attributes returns a JSON:API document's data.attributes, as the server wraps what it
// serves, or b itself when b is not such a document.
func attributes(b []byte) []byte {
	var doc struct {
		Data *struct {
			Attributes json.RawMessage `json:"attributes"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &doc) == nil && doc.Data != nil && len(doc.Data.Attributes) > 0 {
		return doc.Data.Attributes
	}
	return b
}

// describe writes what was checked, for the person reading the verdict.
func describe(w io.Writer, res *parcel.OfflineResult, list *parcel.StatusList) {
	if c := res.Certificate; c != nil {
		fmt.Fprintf(w, "parcel %s, certificate version %d, certified %s by notary %s\n",
			c.ParcelID, c.Version, c.CertifiedAt.UTC().Format(time.RFC3339), c.Notary)
	}
	fmt.Fprintf(w, "hash %s, signed by trusted issuer %s\n", parcel.HashString(res.Hash), res.Issuer.Hex())
	switch {
	case !res.StatusChecked:
		fmt.Fprintln(w, "no status list given: the certificate is authentic, but whether it was superseded or revoked is not checked")
	case res.StatusAt != nil:
		fmt.Fprintf(w, "%s since %s, per the status list issued %s\n", res.Status, res.StatusAt.UTC().Format(time.RFC3339), list.IssuedAt.UTC().Format(time.RFC3339))
	case list.Since != nil:
		fmt.Fprintf(w, "not in the status list issued %s, which covers changes since %s only\n", list.IssuedAt.UTC().Format(time.RFC3339), list.Since.UTC().Format(time.RFC3339))
	default:
		fmt.Fprintf(w, "not in the complete status list issued %s\n", list.IssuedAt.UTC().Format(time.RFC3339))
	}
}

func invalid(w io.Writer, err error) int {
	reason := err.Error()
	var e *veriland.Error
	if errors.As(err, &e) {
		reason = e.Message
		if e.Cause != nil {
			reason = e.Cause.Error() + ": " + e.Message
		}
	}
	fmt.Fprintf(w, "INVALID: %s\n", reason)
	return 1
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxFile)
	}
	return b, nil
}
