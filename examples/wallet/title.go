package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/veriland/veriland/parcel/landtitle"
)

// readTitle reads a land title from its chain, as a wallet or an explorer would:
// ownerOf, locked (ERC-5192), certificateHash, tokenURI, and the estimate of the
// holder's own transferFrom, which the contract refuses (Soulbound). The contract and
// token id come from -contract and -token, or from the parcel (GET /v1/parcels/{id}) or
// verification (GET /v1/registry/verify/{hash}) JSON on stdin. It prints JSON.
func readTitle(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("title", flag.ContinueOnError)
	fs.SetOutput(stderr)
	endpoint := fs.String("rpc", "http://127.0.0.1:8080/v1/sandbox/chain", "the chain's JSON-RPC endpoint (the sandbox chain of the reference server, or a node of PRODUCTION's chain)")
	contract := fs.String("contract", "", "the LandTitle contract (default: the token's contract on stdin)")
	token := fs.String("token", "", "the token id, decimal (default: the token's id on stdin)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *contract == "" || *token == "" {
		c, t, err := tokenFromJSON(stdin)
		if err != nil {
			return err
		}
		*contract, *token = cmpOr(*contract, c), cmpOr(*token, t)
	}
	if !common.IsHexAddress(*contract) {
		return fmt.Errorf("-contract %q is not a 0x address", *contract)
	}
	id, ok := new(big.Int).SetString(*token, 10)
	if !ok || id.Sign() < 0 {
		return fmt.Errorf("-token %q is not a decimal token id", *token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rc, err := rpc.DialContext(ctx, *endpoint)
	if err != nil {
		return fmt.Errorf("-rpc: %w", err)
	}
	defer rc.Close()
	client := ethclient.NewClient(rc)
	addr := common.HexToAddress(*contract)
	caller, err := landtitle.NewLandTitleCaller(addr, client)
	if err != nil {
		return err
	}
	opts := &bind.CallOpts{Context: ctx}
	out := map[string]any{"contract": addr.Hex(), "tokenId": id.String()}
	if chain, err := client.ChainID(ctx); err == nil {
		out["chainId"] = chain.Uint64()
	}
	title, err := caller.TitleOf(opts, id)
	if err != nil {
		return fmt.Errorf("titleOf: %w", err)
	}
	out["certificateHash"] = common.Hash(title.CertificateHash).Hex()
	holder, err := caller.OwnerOf(opts, id)
	if err != nil {
		// ownerOf reverts for a token that does not exist, or no longer does.
		out["ownerOf"] = "reverted: " + revertName(err)
		out["exists"] = false
		return writeJSON(stdout, out)
	}
	out["exists"] = true
	out["ownerOf"] = holder.Hex()
	if locked, err := caller.Locked(opts, id); err == nil {
		out["locked"] = locked
	}
	if uri, err := caller.TokenURI(opts, id); err == nil {
		out["tokenURI"] = uri
	}
	// The holder's own transfer, estimated: a soulbound title refuses it.
	parsed, err := landtitle.LandTitleMetaData.GetAbi()
	if err != nil {
		return err
	}
	data, err := parsed.Pack("transferFrom", holder, common.HexToAddress("0x000000000000000000000000000000000000dEaD"), id)
	if err != nil {
		return err
	}
	if _, err := client.EstimateGas(ctx, ethereum.CallMsg{From: holder, To: &addr, Data: data}); err != nil {
		out["transferFromByHolder"] = "reverted: " + revertName(err)
	} else {
		out["transferFromByHolder"] = "would succeed"
	}
	return writeJSON(stdout, out)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// tokenFromJSON finds the token's contract and id in a parcel or verification
// document (JSON:API, data.attributes.token) or a bare token object.
func tokenFromJSON(r io.Reader) (contract, tokenID string, err error) {
	var doc struct {
		Data struct {
			Attributes struct {
				Token *struct {
					Contract string `json:"contract"`
					TokenID  string `json:"tokenId"`
				} `json:"token"`
			} `json:"attributes"`
		} `json:"data"`
		Contract string `json:"contract"`
		TokenID  string `json:"tokenId"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return "", "", fmt.Errorf("reading the parcel JSON on stdin (or pass -contract and -token): %w", err)
	}
	if t := doc.Data.Attributes.Token; t != nil {
		return t.Contract, t.TokenID, nil
	}
	if doc.TokenID != "" {
		return doc.Contract, doc.TokenID, nil
	}
	return "", "", errors.New("no token on stdin: pipe GET /v1/parcels/{id} or GET /v1/registry/verify/{hash}, or pass -contract and -token")
}

// revertName names the contract error in a node's revert, e.g. "Soulbound()".
func revertName(err error) string {
	if re := landtitle.DecodeRevert(err); re != nil {
		return re.Solidity()
	}
	return err.Error()
}
