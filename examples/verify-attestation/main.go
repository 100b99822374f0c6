package main

import (
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
	"github.com/veriland/veriland/attestation"
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

// maxFile bounds the files read: attestations and lists are small.
const maxFile = 16 << 20

// run is the command without its process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer, now func() time.Time) int {
	fs := flag.NewFlagSet("verify-attestation", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		issuers  issuerList
		attPath  = fs.String("att", "", "attestation JSON file (required)")
		revPath  = fs.String("revocations", "", "signed revocation list JSON file")
		chainID  = fs.Uint64("chain-id", 0, "expected EIP-712 chainId (0: the attestation's own)")
		atFlag   = fs.String("at", "", "check validity at this RFC 3339 time (default now)")
		leewayFl = fs.Duration("leeway", 0, "tolerated clock skew")
	)
	fs.Var(&issuers, "issuer", "trusted issuer address; repeat or separate with commas (required)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "verify-attestation: "+format+"\n", a...)
		fs.Usage()
		return 2
	}
	if fs.NArg() > 0 {
		return usage("unexpected argument %q", fs.Arg(0))
	}
	if *attPath == "" {
		return usage("-att is required")
	}
	if len(issuers) == 0 {
		return usage("at least one -issuer is required")
	}
	at := now()
	if *atFlag != "" {
		t, err := time.Parse(time.RFC3339, *atFlag)
		if err != nil {
			return usage("-at: %v", err)
		}
		at = t
	}

	attJSON, err := readFile(*attPath)
	if err != nil {
		return usage("%v", err)
	}
	var revJSON []byte
	if *revPath != "" {
		if revJSON, err = readFile(*revPath); err != nil {
			return usage("%v", err)
		}
	}

	var att attestation.Attestation
	if err := json.Unmarshal(attJSON, &att); err != nil {
		return invalid(stdout, fmt.Errorf("the attestation is not valid JSON: %w", err))
	}
	opts := attestation.VerifyOptions{TrustedIssuers: issuers, ChainID: *chainID, Now: at, Leeway: *leewayFl}
	if revJSON != nil {
		var l attestation.RevocationList
		if err := json.Unmarshal(revJSON, &l); err != nil {
			return invalid(stdout, fmt.Errorf("the revocation list is not valid JSON: %w", err))
		}
		opts.Revocations = &l
	}
	if err := attestation.Verify(&att, opts); err != nil {
		return invalid(stdout, err)
	}
	fmt.Fprintln(stdout, "VALID")
	return 0
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
