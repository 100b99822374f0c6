package main

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, time.Now))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, now func() time.Time) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: wallet new | siwe | consent | transfer | title (see go doc ./examples/wallet)")
		return 2
	}
	var err error
	switch args[0] {
	case "new":
		err = newKey(stdout)
	case "siwe":
		err = signIn(args[1:], stdout, stderr, now)
	case "consent":
		err = signConsent(args[1:], stdin, stdout, stderr)
	case "transfer":
		err = signTransfer(args[1:], stdin, stdout, stderr)
	case "title":
		err = readTitle(args[1:], stdin, stdout, stderr)
	default:
		err = fmt.Errorf("unknown command %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(stderr, "wallet:", err)
		return 1
	}
	return 0
}

func newKey(stdout io.Writer) error {
	k, err := crypto.GenerateKey()
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]string{
		"privateKey": hexutil.Encode(crypto.FromECDSA(k)),
		"address":    crypto.PubkeyToAddress(k.PublicKey).Hex(),
	})
}

func signIn(args []string, stdout, stderr io.Writer, now func() time.Time) error {
	fs := flag.NewFlagSet("siwe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyHex := fs.String("key", "", "private key, hex")
	nonce := fs.String("nonce", "", "nonce from POST /auth/siwe/nonce")
	origin := fs.String("origin", "http://127.0.0.1:8080", "the server's public origin")
	chain := fs.Uint64("chain-id", 1, "chain id")
	env := fs.String("env", "SANDBOX", "environment to sign in to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(*keyHex, "0x"))
	if err != nil {
		return fmt.Errorf("-key: %w", err)
	}
	u, err := url.Parse(*origin)
	if err != nil || u.Host == "" {
		return errors.New("-origin must be scheme://host[:port]")
	}
	msg := siwe.Message{
		Domain: u.Host, Address: crypto.PubkeyToAddress(key.PublicKey).Hex(), Statement: "Sign in to veriland",
		URI: *origin, Version: "1", ChainID: *chain, Nonce: *nonce, IssuedAt: now().UTC().Truncate(time.Second),
	}
	text := msg.String()
	sig, err := ethsig.Sign(key, ethsig.PersonalDigest([]byte(text)))
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]string{"message": text, "signature": hexutil.Encode(sig), "environment": *env})
}

// signConsent reads a consent context, completes its typed data with the decision and
// the hash of the disclosed scope, hashes it with go-ethereum's EIP-712 code and signs.
// It prints the body for POST /consent/{requestId}.
func signConsent(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("consent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyHex := fs.String("key", "", "private key, hex")
	decision := fs.String("decision", "APPROVED", "APPROVED or REJECTED")
	disclose := fs.String("disclose", "", "comma-separated scope items to disclose (default: the whole scope when approving)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(*keyHex, "0x"))
	if err != nil {
		return fmt.Errorf("-key: %w", err)
	}
	var ctx struct {
		Scope     []string           `json:"scope"`
		TypedData apitypes.TypedData `json:"typedData"`
	}
	if err := json.NewDecoder(stdin).Decode(&ctx); err != nil {
		return fmt.Errorf("reading the consent context on stdin: %w", err)
	}
	disclosed := []string{}
	switch {
	case *disclose != "":
		disclosed = strings.Split(*disclose, ",")
	case *decision == "APPROVED":
		disclosed = ctx.Scope
	}
	var items []byte
	for _, d := range disclosed {
		items = append(items, crypto.Keccak256([]byte(d))...)
	}
	if ctx.TypedData.Message == nil {
		return errors.New("the input has no typedData.message")
	}
	ctx.TypedData.Message["decision"] = *decision
	ctx.TypedData.Message["disclosedScopeHash"] = hexutil.Encode(crypto.Keccak256(items))
	sig, err := signTypedData(key, ctx.TypedData)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]any{
		"holderAddress": crypto.PubkeyToAddress(key.PublicKey).Hex(), "decision": *decision,
		"disclosedScope": disclosed, "holderSignature": hexutil.Encode(sig),
	})
}

// signTransfer reads a transfer's owner-consent context (the JSON:API document of GET
// /v1/transfers/{id}/owner-consent, or of the transfer itself), adds the decision to
// its TransferConsent typed data, hashes it with go-ethereum's EIP-712 code and signs
// as the parcel's owner. It prints the body for POST /v1/transfers/{id}/owner-consent.
func signTransfer(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("transfer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	keyHex := fs.String("key", "", "the owner's private key, hex")
	decision := fs.String("decision", "APPROVED", "APPROVED or REJECTED")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(*keyHex, "0x"))
	if err != nil {
		return fmt.Errorf("-key: %w", err)
	}
	var doc struct {
		Data struct {
			Attributes struct {
				TypedData    *apitypes.TypedData `json:"typedData"`
				OwnerConsent *struct {
					TypedData *apitypes.TypedData `json:"typedData"`
				} `json:"ownerConsent"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.NewDecoder(stdin).Decode(&doc); err != nil {
		return fmt.Errorf("reading the owner-consent document on stdin: %w", err)
	}
	td := doc.Data.Attributes.TypedData
	if oc := doc.Data.Attributes.OwnerConsent; td == nil && oc != nil {
		td = oc.TypedData
	}
	if td == nil || td.Message == nil {
		return errors.New("the input has no data.attributes.typedData (or ownerConsent.typedData): is the owner's signature asked for?")
	}
	td.Message["decision"] = *decision
	sig, err := signTypedData(key, *td)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(map[string]any{
		"decision": *decision, "ownerSignature": hexutil.Encode(sig),
		"ownerAddress": crypto.PubkeyToAddress(key.PublicKey).Hex(),
	})
}

// signTypedData hashes td with go-ethereum's EIP-712 code (as a wallet's
// eth_signTypedData_v4 does) and signs the digest with key.
func signTypedData(key *ecdsa.PrivateKey, td apitypes.TypedData) ([]byte, error) {
	digest, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return nil, err
	}
	return ethsig.Sign(key, [32]byte(digest))
}
