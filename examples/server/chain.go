package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/landtitle"
	"github.com/veriland/veriland/storage"
)

// chains are the server's chains (SPEC S7, S14): SANDBOX's in-process simulated
// chain, always, and PRODUCTION's node of -eth-rpc, when set. On each, one key (the
// registry account) anchors attestations and mints and burns land titles.
type chains struct {
	sandbox     *anchor.Simulated
	sandboxLand *landtitle.Contract
	prod        *anchor.Ethereum    // nil without -eth-rpc
	prodLand    *landtitle.Contract // nil without -eth-rpc
	prodClient  *ethclient.Client
	ipcDir      string // the sandbox chain's socket directory
}

func (c *chains) anchors() map[veriland.Environment]anchor.Anchor {
	m := map[veriland.Environment]anchor.Anchor{veriland.Sandbox: c.sandbox}
	if c.prod != nil {
		m[veriland.Production] = c.prod
	}
	return m
}

// sandboxRPC is the sandbox chain's in-process JSON-RPC client, which
// POST /v1/sandbox/chain serves read-only.
func (c *chains) sandboxRPC() *rpc.Client { return c.sandbox.RPC() }

func (c *chains) titles() map[veriland.Environment]parcel.TitleChain {
	m := map[veriland.Environment]parcel.TitleChain{veriland.Sandbox: c.sandboxLand}
	if c.prodLand != nil {
		m[veriland.Production] = c.prodLand
	}
	return m
}

func (c *chains) Close() {
	if c.prodClient != nil {
		c.prodClient.Close()
	}
	if c.sandbox != nil {
		_ = c.sandbox.Close()
	}
	if c.ipcDir != "" {
		_ = os.RemoveAll(c.ipcDir)
	}
}

// tokenBase is the LandTitle contract's base URI: tokenURI(id) is
// {origin}/v1/tokens/{id}, the token's ERC-721 metadata.
func tokenBase(origin string) string { return origin + "/v1/tokens/" }

// openChains starts the SANDBOX chain with LandTitle deployed on it and, with
// -eth-rpc, connects to the PRODUCTION node: the contract of -land-title-contract,
// else the one this server deployed earlier (recorded in store), else a new
// deployment, recorded and logged.
func openChains(ctx context.Context, o *options, store storage.Store, origin string, log *slog.Logger) (*chains, error) {
	c := &chains{}
	// SANDBOX: a fresh key and chain at each start; the anchoring leader mints the
	// registry's current sandbox titles again on it (httpserver.Config.FreshChains).
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	// Its node listens on a Unix socket in a private temporary directory, which
	// POST /v1/sandbox/chain serves read-only.
	if c.ipcDir, err = os.MkdirTemp("", "veriland-chain-"); err != nil {
		return nil, err
	}
	if c.sandbox, err = anchor.NewSimulated(key, anchor.WithIPC(filepath.Join(c.ipcDir, "sandbox.ipc"))); err != nil {
		c.Close()
		return nil, err
	}
	b := c.sandbox.Backend()
	cfg := landtitle.Config{Key: key, PollInterval: 5 * time.Millisecond, ReceiptTimeout: 30 * time.Second, AfterSend: func() { b.Commit() }}
	if c.sandboxLand, _, err = landtitle.Deploy(ctx, b.Client(), cfg, tokenBase(origin)); err != nil {
		c.Close()
		return nil, fmt.Errorf("deploying LandTitle on the sandbox chain: %w", err)
	}
	if o.ethRPC == "" {
		return c, nil
	}
	if err := c.openProduction(ctx, o, store, origin, log); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *chains) openProduction(ctx context.Context, o *options, store storage.Store, origin string, log *slog.Logger) error {
	key, err := readAnchorKey(o.anchorKeyFile)
	if err != nil {
		return err
	}
	dialCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	client, err := ethclient.DialContext(dialCtx, o.ethRPC)
	if err != nil {
		return fmt.Errorf("-eth-rpc: cannot reach %s", redactURL(o.ethRPC))
	}
	c.prodClient = client
	id, err := client.ChainID(dialCtx)
	if err != nil {
		return fmt.Errorf("-eth-rpc: %s does not answer eth_chainId", redactURL(o.ethRPC))
	}
	if !id.IsUint64() || id.Uint64() != o.chainID {
		return fmt.Errorf("-chain-id %d does not match the chain id %s of the node at %s: the signatures and the chain must name the same chain", o.chainID, id, redactURL(o.ethRPC))
	}
	from := crypto.PubkeyToAddress(key.PublicKey)
	to := from // a self-send: the digest is the calldata
	if o.anchorAddress != "" {
		to = common.HexToAddress(o.anchorAddress)
	}
	if c.prod, err = anchor.NewEthereum(client, anchor.EthereumConfig{Key: key, To: to, ChainID: o.chainID}); err != nil {
		return err
	}
	c.prodLand, err = productionLandTitle(ctx, o, client, key, store, origin, log)
	return err
}

// metaBucket keeps what the server learnt about its chains (not per environment:
// PRODUCTION only).
const metaBucket = "server_chain"

func contractKey(chainID uint64, registry common.Address) []byte {
	return fmt.Appendf(nil, "land_title/%d/%s", chainID, registry.Hex())
}

// productionLandTitle binds the PRODUCTION LandTitle contract: -land-title-contract,
// else the recorded deployment of this chain and registry account, else a new one.
func productionLandTitle(ctx context.Context, o *options, client *ethclient.Client, key *ecdsa.PrivateKey, store storage.Store, origin string, log *slog.Logger) (*landtitle.Contract, error) {
	cfg := landtitle.Config{Key: key, ChainID: o.chainID}
	registry := crypto.PubkeyToAddress(key.PublicKey)
	if o.landTitleContract != "" {
		lt, err := landtitle.At(ctx, client, common.HexToAddress(o.landTitleContract), cfg)
		if err != nil {
			return nil, fmt.Errorf("-land-title-contract: %w", err)
		}
		log.Info("land title contract", "contract", lt.Address().Hex(), "chainId", o.chainID, "registry", registry.Hex(), "deployed", "given")
		return lt, nil
	}
	k := contractKey(o.chainID, registry)
	var recorded string
	err := store.View(ctx, func(tx storage.Tx) error {
		v, err := tx.Get(metaBucket, k)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		recorded = string(v)
		return err
	})
	if err != nil {
		return nil, err
	}
	if recorded != "" {
		var rec struct {
			Address   string `json:"address"`
			FromBlock uint64 `json:"fromBlock"`
		}
		if err := json.Unmarshal([]byte(recorded), &rec); err != nil {
			return nil, fmt.Errorf("the recorded LandTitle deployment: %w", err)
		}
		cfg.FromBlock = rec.FromBlock
		lt, err := landtitle.At(ctx, client, common.HexToAddress(rec.Address), cfg)
		if err != nil {
			return nil, fmt.Errorf("the LandTitle contract this server deployed at %s: %w (pass -land-title-contract to use another)", rec.Address, err)
		}
		log.Info("land title contract", "contract", rec.Address, "chainId", o.chainID, "registry", registry.Hex(), "deployed", "earlier")
		return lt, nil
	}
	lt, rc, err := landtitle.Deploy(ctx, client, cfg, tokenBase(origin))
	if err != nil {
		return nil, fmt.Errorf("deploying LandTitle on chain %d: %w", o.chainID, err)
	}
	rec := fmt.Sprintf(`{"address":%q,"fromBlock":%d,"tx":%q}`, lt.Address().Hex(), rc.BlockNumber, rc.TxHash.Hex())
	if err := store.Update(ctx, func(tx storage.Tx) error { return tx.Put(metaBucket, k, []byte(rec)) }); err != nil {
		return nil, fmt.Errorf("recording the LandTitle deployment %s: %w", lt.Address().Hex(), err)
	}
	log.Info("land title contract", "contract", lt.Address().Hex(), "chainId", o.chainID, "registry", registry.Hex(),
		"deployed", "now", "tx", rc.TxHash.Hex(), "block", rc.BlockNumber, "gas", rc.GasUsed)
	return lt, nil
}
