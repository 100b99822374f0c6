package main

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// LivenessPlaceholder stands for the liveness attestation id when -liveness is not
// given. It is not a valid id, so a body that still holds it is refused with 400.
const LivenessPlaceholder = "att_REPLACE_WITH_LIVENESS_ATTESTATION_ID"

// chipVerifyPath is the route -post sends to when the URL has no path.
const chipVerifyPath = "/identity/chip-verify"

// dg2Content stands in for the facial image data group (tag 0x75): the service checks its
// hash against the SOD and nothing else.
var dg2Content = []byte("veriland sandbox DG2: no facial image")

type options struct {
	pki, save, cscaOut       string
	fresh                    bool
	mrz                      sandbox.MRZFields
	birth, expiry, digest    string
	faceDim                  int
	faceMismatch             bool
	liveness, postURL, token string
	timeout                  time.Duration
}

// run is the command without its process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("sandbox-sod", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o options
	fl.StringVar(&o.pki, "pki", "data", "directory holding "+binding.SandboxCSCAFile+" and "+binding.SandboxDSFile)
	fl.BoolVar(&o.fresh, "new", false, "generate a fresh sandbox CSCA and DS instead of reading -pki")
	fl.StringVar(&o.save, "save", "", "with -new: write the pair into this directory (which must not hold one)")
	fl.StringVar(&o.cscaOut, "csca-out", "", "write the CSCA certificate (PEM, no key) to this file, for a trust directory")
	fl.StringVar(&o.mrz.DocumentNumber, "doc-number", "L898902C3", "document number, up to 9 characters A-Z 0-9")
	fl.StringVar(&o.mrz.IssuingState, "issuing-state", "UTO", "ICAO issuing state code")
	fl.StringVar(&o.mrz.Nationality, "nationality", "", "ICAO nationality code (default: the issuing state)")
	fl.StringVar(&o.mrz.DocumentType, "doc-type", "P", "document type")
	fl.StringVar(&o.mrz.Surname, "surname", "ERIKSSON", "surname")
	fl.StringVar(&o.mrz.GivenNames, "given-names", "ANNA MARIA", "given names")
	fl.StringVar(&o.mrz.Sex, "sex", "<", "sex: F, M or <")
	fl.StringVar(&o.birth, "birth", "1974-08-12", "date of birth, YYYY-MM-DD")
	fl.StringVar(&o.expiry, "expiry", "", "date of expiry, YYYY-MM-DD (default: five years from today)")
	fl.StringVar(&o.digest, "digest", "sha256", "data group digest: sha256, sha384 or sha512")
	fl.IntVar(&o.faceDim, "face-dim", 0, "add face templates of this dimension (64..2048; 0: none)")
	fl.BoolVar(&o.faceMismatch, "face-mismatch", false, "make the two face templates unrelated")
	fl.StringVar(&o.liveness, "liveness", "", "livenessAttestationId (default: a placeholder)")
	fl.StringVar(&o.postURL, "post", "", "POST the body to this server (base URL, or the full route URL)")
	fl.StringVar(&o.token, "token", "", "holder bearer token for -post (default: $VERILAND_TOKEN)")
	fl.DurationVar(&o.timeout, "timeout", 30*time.Second, "timeout of -post")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "sandbox-sod: "+format+"\n", a...)
		return 2
	}
	if fl.NArg() > 0 {
		return usage("unexpected argument %q", fl.Arg(0))
	}
	if o.token == "" {
		o.token = os.Getenv("VERILAND_TOKEN")
	}
	if err := o.check(); err != nil {
		return usage("%v", err)
	}

	ds, err := o.signer()
	if err != nil {
		return usage("%v", err)
	}
	body, err := o.body(ds)
	if err != nil {
		return usage("%v", err)
	}
	out, err := json.MarshalIndent(body, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "sandbox-sod: %v\n", err)
		return 1
	}
	if o.postURL == "" {
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	return o.post(out, stdout, stderr)
}

// check validates the flags that need more than their type.
func (o *options) check() error {
	var err error
	if o.mrz.BirthDate, err = time.Parse(time.DateOnly, o.birth); err != nil {
		return fmt.Errorf("-birth must be YYYY-MM-DD")
	}
	if o.expiry == "" {
		o.mrz.Expiry = time.Now().UTC().AddDate(5, 0, 0).Truncate(24 * time.Hour)
	} else if o.mrz.Expiry, err = time.Parse(time.DateOnly, o.expiry); err != nil {
		return fmt.Errorf("-expiry must be YYYY-MM-DD")
	}
	o.mrz.DocumentNumber = strings.ToUpper(o.mrz.DocumentNumber)
	for name, v := range map[string]string{"-doc-number": o.mrz.DocumentNumber, "-issuing-state": o.mrz.IssuingState,
		"-nationality": o.mrz.Nationality, "-doc-type": o.mrz.DocumentType} {
		if strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<") != "" {
			return fmt.Errorf("%s may hold only A-Z, 0-9 and <", name)
		}
	}
	if o.mrz.Sex != "F" && o.mrz.Sex != "M" && o.mrz.Sex != "<" {
		return fmt.Errorf("-sex must be F, M or <")
	}
	if _, ok := digests[o.digest]; !ok {
		return fmt.Errorf("-digest must be sha256, sha384 or sha512")
	}
	if o.faceDim != 0 && (o.faceDim < binding.MinTemplateDimension || o.faceDim > binding.MaxTemplateDimension) {
		return fmt.Errorf("-face-dim must be 0 or %d..%d", binding.MinTemplateDimension, binding.MaxTemplateDimension)
	}
	if o.save != "" && !o.fresh {
		return fmt.Errorf("-save needs -new")
	}
	if o.postURL != "" {
		u, err := url.Parse(o.postURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("-post must be an http(s) URL")
		}
		if u.Path == "" || u.Path == "/" {
			u.Path = chipVerifyPath
		}
		o.postURL = u.String()
		if o.liveness == "" {
			return fmt.Errorf("-post needs -liveness (the id of your LIVENESS attestation)")
		}
		if o.token == "" {
			return fmt.Errorf("-post needs -token or $VERILAND_TOKEN")
		}
	}
	return nil
}

var digests = map[string]crypto.Hash{"sha256": crypto.SHA256, "sha384": crypto.SHA384, "sha512": crypto.SHA512}

// signer returns the DS that signs the SOD: read from -pki, or made fresh with -new.
func (o *options) signer() (*sandbox.DS, error) {
	var (
		csca *sandbox.CSCA
		ds   *sandbox.DS
		err  error
	)
	if o.fresh {
		if o.save != "" {
			if _, err := os.Stat(filepath.Join(o.save, binding.SandboxCSCAFile)); !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("-save: %s already holds a sandbox PKI (or cannot be read)", o.save)
			}
		}
		if csca, ds, err = binding.NewSandboxPKI(nil, nil); err != nil {
			return nil, err
		}
		if o.save != "" {
			if err := binding.SaveSandboxPKI(o.save, csca, ds); err != nil {
				return nil, err
			}
		}
	} else if csca, ds, err = binding.LoadSandboxPKI(o.pki); err != nil {
		return nil, fmt.Errorf("%w (start the server once with -data %s, or use -new)", err, o.pki)
	}
	if o.cscaOut != "" {
		if err := os.WriteFile(o.cscaOut, csca.PEM(), 0o644); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// body builds the request of POST /identity/chip-verify.
func (o *options) body(ds *sandbox.DS) (*binding.Request, error) {
	dg1, err := sandbox.BuildDG1(o.mrz)
	if err != nil {
		return nil, err
	}
	dg2 := append([]byte{0x75, byte(len(dg2Content))}, dg2Content...)
	scheme := sandbox.ECDSA
	if _, ok := ds.Key.Public().(*rsa.PublicKey); ok {
		scheme = sandbox.PKCS1v15
	}
	sod, err := sandbox.BuildSOD(ds, map[int][]byte{1: dg1, 2: dg2}, digests[o.digest], scheme,
		sandbox.SODOptions{SigningTime: time.Now().UTC().Add(-time.Minute), LDSVersion: 1})
	if err != nil {
		return nil, err
	}
	req := &binding.Request{
		SODBase64: base64.StdEncoding.EncodeToString(sod),
		DataGroups: []binding.DataGroup{
			{Number: 1, ContentBase64: base64.StdEncoding.EncodeToString(dg1)},
			{Number: 2, ContentBase64: base64.StdEncoding.EncodeToString(dg2)},
		},
		LivenessAttestationID: o.liveness,
	}
	if req.LivenessAttestationID == "" {
		req.LivenessAttestationID = LivenessPlaceholder
	}
	if o.faceDim > 0 {
		live, chip := faceTemplates(o.faceDim, o.faceMismatch)
		req.LiveFaceTemplate, req.ChipFaceTemplate = binding.EncodeTemplate(live), binding.EncodeTemplate(chip)
	}
	return req, nil
}

// faceTemplates makes a live and a chip face embedding: the second is the first
// with a little noise (cosine similarity above 0.99), or an unrelated vector.
func faceTemplates(dim int, mismatch bool) (live, chip []float32) {
	r := rand.New(rand.NewPCG(uint64(dim), 0x5eed))
	live, chip = make([]float32, dim), make([]float32, dim)
	for i := range live {
		live[i] = float32(r.NormFloat64())
	}
	for i := range chip {
		if mismatch {
			chip[i] = float32(r.NormFloat64())
		} else {
			chip[i] = live[i] + float32(0.05*r.NormFloat64())
		}
	}
	normalize(live)
	normalize(chip)
	return live, chip
}

func normalize(v []float32) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
}

// post sends body and prints the answer's body on stdout and its status on stderr.
func (o *options) post(body []byte, stdout, stderr io.Writer) int {
	req, err := http.NewRequest(http.MethodPost, o.postURL, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintf(stderr, "sandbox-sod: %v\n", err)
		return 1
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+o.token)
	client := &http.Client{Timeout: o.timeout}
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintf(stderr, "sandbox-sod: %v\n", err)
		return 1
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		fmt.Fprintf(stderr, "sandbox-sod: reading the answer: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "%s %s\n", resp.Proto, resp.Status)
	stdout.Write(answer)
	if len(answer) > 0 && answer[len(answer)-1] != '\n' {
		fmt.Fprintln(stdout)
	}
	if resp.StatusCode/100 != 2 {
		return 1
	}
	return 0
}
