package landtitle

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

const testBaseURI = "https://registry.example/v1/tokens/"

// chain is a simulated chain with LandTitle deployed by registry; stranger is funded
// too, and is not the registry.
type chain struct {
	backend  *simulated.Backend
	client   simulated.Client
	registry *ecdsa.PrivateKey
	stranger *ecdsa.PrivateKey
	c        *Contract
	deploy   Receipt
	// commitMu serialises the commits of several Contracts on the chain: concurrent
	// Commits can wedge the simulated beacon in its txpool sync.
	commitMu sync.Mutex
}

func newChain(t *testing.T, options ...func(*node.Config, *ethconfig.Config)) *chain {
	t.Helper()
	registry, stranger := newKey(t), newKey(t)
	funds := new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether))
	backend := simulated.NewBackend(types.GenesisAlloc{
		crypto.PubkeyToAddress(registry.PublicKey): {Balance: funds},
		crypto.PubkeyToAddress(stranger.PublicKey): {Balance: funds},
	}, options...)
	t.Cleanup(func() { _ = backend.Close() })
	ch := &chain{backend: backend, client: backend.Client(), registry: registry, stranger: stranger}
	c, r, err := Deploy(t.Context(), ch.client, ch.config(registry), testBaseURI)
	if err != nil {
		t.Fatalf("Deploy: %v", err)
	}
	ch.c, ch.deploy = c, r
	return ch
}

// config is the configuration of a Contract sending from key on ch.
func (ch *chain) config(key *ecdsa.PrivateKey) Config {
	return Config{
		Key: key, ReceiptTimeout: 30 * time.Second, PollInterval: 5 * time.Millisecond,
		AfterSend: func() {
			ch.commitMu.Lock()
			defer ch.commitMu.Unlock()
			ch.backend.Commit()
		},
	}
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// nonce is the registry's pending nonce.
func (ch *chain) nonce(t *testing.T) uint64 {
	t.Helper()
	n, err := ch.client.PendingNonceAt(t.Context(), addr(ch.registry))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// mint mints through the client and fails the test on an error.
func (ch *chain) mint(t *testing.T, to common.Address, id int64, hash common.Hash) Receipt {
	t.Helper()
	r, err := ch.c.Mint(t.Context(), to, big.NewInt(id), hash)
	if err != nil {
		t.Fatalf("Mint(%d): %v", id, err)
	}
	return r
}

// callAs runs method(args) as an eth_call from from and returns the name of the error
// it reverts with ("" when it does not revert).
func (ch *chain) callAs(t *testing.T, from common.Address, method string, args ...any) string {
	t.Helper()
	data, err := ch.c.abi.Pack(method, args...)
	if err != nil {
		t.Fatalf("packing %s: %v", method, err)
	}
	to := ch.c.Address()
	_, err = ch.client.CallContract(context.Background(), ethereum.CallMsg{From: from, To: &to, Data: data}, nil)
	if err == nil {
		return ""
	}
	var re *RevertError
	if r := revertOf(ch.c.abi, err); r != nil {
		re = r
	}
	if re == nil {
		var de rpc.DataError
		if errors.As(err, &de) {
			t.Fatalf("%s: undecoded revert %v (data %v)", method, err, de.ErrorData())
		}
		t.Fatalf("%s: %v", method, err)
	}
	return re.Name
}

// hash returns a certificate hash for tests.
func hash(s string) common.Hash { return crypto.Keccak256Hash([]byte(s)) }

// callMsg is a call from from to to with data.
func callMsg(from, to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &to, Data: data}
}

// osaka makes the simulated chain stop at Osaka, mainnet's fork, instead of the dev
// chain's every fork (whose EIP-8037 state gas makes new storage dearer).
func osaka(_ *node.Config, eth *ethconfig.Config) {
	cfg := *eth.Genesis.Config
	cfg.BogotaTime = nil
	eth.Genesis.Config = &cfg
}

// newChainWithTitles is newChain with token 1 held by the stranger (certificate
// hash("one")) and token 2 minted to the stranger (hash("two")) and burned.
func newChainWithTitles(t *testing.T) (*chain, common.Address) {
	t.Helper()
	ch := newChain(t)
	holder := addr(ch.stranger)
	ch.mint(t, holder, 1, hash("one"))
	ch.mint(t, holder, 2, hash("two"))
	if _, err := ch.c.Burn(t.Context(), big.NewInt(2)); err != nil {
		t.Fatal(err)
	}
	return ch, holder
}
