package landtitle

import (
	"bytes"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
)

// The contract's own rules, checked on the simulated chain through eth_call and the
// generated binding; client_test.go checks the Go client.

func TestMintEmitsTransferLockedAndTitleMinted(t *testing.T) {
	ch := newChain(t)
	holder, h := addr(newKey(t)), hash("certificate 7")
	r := ch.mint(t, holder, 7, h)

	rcpt, err := ch.client.TransactionReceipt(t.Context(), r.TxHash)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewLandTitleFilterer(ch.c.Address(), ch.client)
	if err != nil {
		t.Fatal(err)
	}
	if len(rcpt.Logs) != 3 {
		t.Fatalf("mint logged %d events, want Transfer, Locked, TitleMinted", len(rcpt.Logs))
	}
	tr, err := f.ParseTransfer(*rcpt.Logs[0])
	if err != nil || tr.From != (common.Address{}) || tr.To != holder || tr.TokenId.Int64() != 7 {
		t.Errorf("Transfer = %+v, %v; want 0 -> %s, token 7", tr, err, holder.Hex())
	}
	lk, err := f.ParseLocked(*rcpt.Logs[1])
	if err != nil || lk.TokenId.Int64() != 7 {
		t.Errorf("Locked = %+v, %v; want token 7", lk, err)
	}
	tm, err := f.ParseTitleMinted(*rcpt.Logs[2])
	if err != nil || tm.TokenId.Int64() != 7 || tm.Holder != holder || tm.CertificateHash != h {
		t.Errorf("TitleMinted = %+v, %v", tm, err)
	}

	call := &bind.CallOpts{Context: t.Context()}
	lt, _ := NewLandTitleCaller(ch.c.Address(), ch.client)
	if owner, err := lt.OwnerOf(call, big.NewInt(7)); err != nil || owner != holder {
		t.Errorf("ownerOf(7) = %s, %v; want %s", owner.Hex(), err, holder.Hex())
	}
	if got, err := lt.CertificateHash(call, big.NewInt(7)); err != nil || got != h {
		t.Errorf("certificateHash(7) = %x, %v; want %s", got, err, h.Hex())
	}
	if locked, err := lt.Locked(call, big.NewInt(7)); err != nil || !locked {
		t.Errorf("locked(7) = %v, %v; want true", locked, err)
	}
	if n, err := lt.BalanceOf(call, holder); err != nil || n.Int64() != 1 {
		t.Errorf("balanceOf(holder) = %v, %v; want 1", n, err)
	}
}

func TestSupportsInterface(t *testing.T) {
	ch := newChain(t)
	lt, _ := NewLandTitleCaller(ch.c.Address(), ch.client)
	for _, tc := range []struct {
		name string
		id   uint32
		want bool
	}{
		{"ERC-5192", 0xb45a3c0e, true},
		{"ERC-721", 0x80ac58cd, true},
		{"ERC-721 Metadata", 0x5b5e139f, true},
		{"ERC-165", 0x01ffc9a7, true},
		{"ERC-721 Enumerable", 0x780e9d63, false},
		{"invalid", 0xffffffff, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := [4]byte{byte(tc.id >> 24), byte(tc.id >> 16), byte(tc.id >> 8), byte(tc.id)}
			got, err := lt.SupportsInterface(&bind.CallOpts{Context: t.Context()}, id)
			if err != nil || got != tc.want {
				t.Errorf("supportsInterface(%#08x) = %v, %v; want %v", tc.id, got, err, tc.want)
			}
		})
	}
	if id := crypto.Keccak256([]byte("locked(uint256)"))[:4]; !bytes.Equal(id, []byte{0xb4, 0x5a, 0x3c, 0x0e}) || InterfaceID != 0xb45a3c0e {
		t.Errorf("ERC-5192 interface id is %x", id)
	}
}

func TestTokenURIIsBaseURIAndDecimalID(t *testing.T) {
	ch := newChain(t)
	lt, _ := NewLandTitleCaller(ch.c.Address(), ch.client)
	maxID, _ := new(big.Int).SetString(strings.Repeat("f", 64), 16)
	for _, id := range []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(1000007), maxID} {
		if _, err := ch.c.Mint(t.Context(), addr(ch.stranger), id, hash(id.String())); err != nil {
			t.Fatalf("Mint(%s): %v", id, err)
		}
		got, err := lt.TokenURI(&bind.CallOpts{Context: t.Context()}, id)
		if want := testBaseURI + id.String(); err != nil || got != want {
			t.Errorf("tokenURI(%s) = %q, %v; want %q", id, got, err, want)
		}
	}
}

func TestTransfersAndApprovalsRevertWithSoulbound(t *testing.T) {
	ch := newChain(t)
	holder := addr(ch.stranger)
	other := addr(newKey(t))
	ch.mint(t, holder, 1, hash("one"))
	id := big.NewInt(1)
	for _, tc := range []struct {
		method string
		args   []any
	}{
		{"approve", []any{other, id}},
		{"approve", []any{common.Address{}, id}},
		{"setApprovalForAll", []any{other, true}},
		{"setApprovalForAll", []any{other, false}},
		{"transferFrom", []any{holder, other, id}},
		{"safeTransferFrom", []any{holder, other, id}},
		{"safeTransferFrom0", []any{holder, other, id, []byte("data")}},
	} {
		for _, from := range []common.Address{holder, ch.c.Registry()} {
			if got := ch.callAs(t, from, tc.method, tc.args...); got != "Soulbound" {
				t.Errorf("%s%v from %s reverted with %q, want Soulbound", tc.method, tc.args, from.Hex(), got)
			}
		}
	}
	// Sent as a transaction through the binding, the node refuses it at estimation.
	opts, err := bind.NewKeyedTransactorWithChainID(ch.stranger, big.NewInt(1337))
	if err != nil {
		t.Fatal(err)
	}
	opts.Context = t.Context()
	lt, _ := NewLandTitleTransactor(ch.c.Address(), ch.client)
	_, err = lt.TransferFrom(opts, holder, other, id)
	if r := revertOf(ch.c.abi, err); r == nil || r.Name != "Soulbound" {
		t.Errorf("transferFrom transaction: %v, want Soulbound()", err)
	}
	soulbound := crypto.Keccak256([]byte("Soulbound()"))[:4]
	if id := ch.c.abi.Errors["Soulbound"].ID; !bytes.Equal(id[:4], soulbound) {
		t.Errorf("Soulbound selector %x, want %x", id[:4], soulbound)
	}
}

func TestOnlyTheRegistryMintsAndBurns(t *testing.T) {
	ch := newChain(t)
	stranger := addr(ch.stranger)
	ch.mint(t, stranger, 1, hash("one"))
	for _, tc := range []struct {
		method string
		args   []any
	}{
		{"mint", []any{stranger, big.NewInt(2), hash("two")}},
		{"mint", []any{stranger, big.NewInt(1), hash("one")}},
		{"burn", []any{big.NewInt(1)}},
		{"burn", []any{big.NewInt(2)}},
	} {
		if got := ch.callAs(t, stranger, tc.method, tc.args...); got != "NotRegistry" {
			t.Errorf("%s%v by a stranger reverted with %q, want NotRegistry", tc.method, tc.args, got)
		}
	}
	// The holder of a title cannot burn it either.
	data, _ := ch.c.abi.Pack("burn", big.NewInt(1))
	to := ch.c.Address()
	_, err := ch.client.EstimateGas(t.Context(), callMsg(stranger, to, data))
	if r := revertOf(ch.c.abi, err); r == nil || r.Name != "NotRegistry" || r.Args[0] != stranger {
		t.Errorf("burn by the holder: %v, want NotRegistry(%s)", err, stranger.Hex())
	}
}

func TestRegistryRefusals(t *testing.T) {
	ch, holder := newChainWithTitles(t)
	registry := ch.c.Registry()
	for _, tc := range []struct {
		name   string
		method string
		args   []any
		want   string
	}{
		{"mint of a held id", "mint", []any{holder, big.NewInt(1), hash("one")}, "TitleAlreadyMinted"},
		{"mint of a held id, other holder", "mint", []any{registry, big.NewInt(1), hash("other")}, "TitleAlreadyMinted"},
		{"mint of a burned id", "mint", []any{holder, big.NewInt(2), hash("two")}, "TitleAlreadyBurned"},
		{"mint with a zero hash", "mint", []any{holder, big.NewInt(3), common.Hash{}}, "ZeroCertificateHash"},
		{"mint to the zero address", "mint", []any{common.Address{}, big.NewInt(3), hash("three")}, "ERC721InvalidReceiver"},
		{"burn of a burned id", "burn", []any{big.NewInt(2)}, "TitleAlreadyBurned"},
		{"burn of an unminted id", "burn", []any{big.NewInt(3)}, "ERC721NonexistentToken"},
		{"locked of an unminted id", "locked", []any{big.NewInt(3)}, "ERC721NonexistentToken"},
		{"locked of a burned id", "locked", []any{big.NewInt(2)}, "ERC721NonexistentToken"},
		{"tokenURI of a burned id", "tokenURI", []any{big.NewInt(2)}, "ERC721NonexistentToken"},
		{"ownerOf of a burned id", "ownerOf", []any{big.NewInt(2)}, "ERC721NonexistentToken"},
		{"mint of a fresh id", "mint", []any{holder, big.NewInt(3), hash("three")}, ""},
		{"burn of a held id", "burn", []any{big.NewInt(1)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ch.callAs(t, registry, tc.method, tc.args...); got != tc.want {
				t.Errorf("%s%v reverted with %q, want %q", tc.method, tc.args, got, tc.want)
			}
		})
	}
}

func TestBurnClearsHolderKeepsHash(t *testing.T) {
	ch := newChain(t)
	holder, h := addr(ch.stranger), hash("nine")
	ch.mint(t, holder, 9, h)
	r, err := ch.c.Burn(t.Context(), big.NewInt(9))
	if err != nil {
		t.Fatal(err)
	}
	rcpt, err := ch.client.TransactionReceipt(t.Context(), r.TxHash)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := NewLandTitleFilterer(ch.c.Address(), ch.client)
	if len(rcpt.Logs) != 2 {
		t.Fatalf("burn logged %d events, want Transfer, TitleBurned", len(rcpt.Logs))
	}
	tr, err := f.ParseTransfer(*rcpt.Logs[0])
	if err != nil || tr.From != holder || tr.To != (common.Address{}) || tr.TokenId.Int64() != 9 {
		t.Errorf("Transfer = %+v, %v; want %s -> 0, token 9", tr, err, holder.Hex())
	}
	tb, err := f.ParseTitleBurned(*rcpt.Logs[1])
	if err != nil || tb.Holder != holder || tb.CertificateHash != h {
		t.Errorf("TitleBurned = %+v, %v", tb, err)
	}
	lt, _ := NewLandTitleCaller(ch.c.Address(), ch.client)
	call := &bind.CallOpts{Context: t.Context()}
	if got, err := lt.CertificateHash(call, big.NewInt(9)); err != nil || got != h {
		t.Errorf("certificateHash after burn = %x, %v; want %s", got, err, h.Hex())
	}
	if n, err := lt.BalanceOf(call, holder); err != nil || n.Sign() != 0 {
		t.Errorf("balanceOf(holder) after burn = %v, %v; want 0", n, err)
	}
}

func TestTitleOfInEachState(t *testing.T) {
	ch, holder := newChainWithTitles(t)
	for _, tc := range []struct {
		id   int64
		want Title
	}{
		{1, Title{State: Minted, Holder: holder, CertificateHash: hash("one")}},
		{2, Title{State: Burned, CertificateHash: hash("two")}},
		{3, Title{State: Unminted}},
	} {
		got, err := ch.c.Title(t.Context(), big.NewInt(tc.id))
		if err != nil || got != tc.want {
			t.Errorf("Title(%d) = %+v, %v; want %+v", tc.id, got, err, tc.want)
		}
		if got.State.String() != [...]string{"unminted", "minted", "burned"}[tc.want.State] {
			t.Errorf("State.String() = %q", got.State)
		}
	}
}

func TestConstructorRefusesZeroRegistry(t *testing.T) {
	ch := newChain(t)
	opts, _ := bind.NewKeyedTransactorWithChainID(ch.registry, big.NewInt(1337))
	opts.Context = t.Context()
	_, _, _, err := DeployLandTitle(opts, ch.client, common.Address{}, testBaseURI)
	if r := revertOf(ch.c.abi, err); r == nil || r.Name != "ZeroRegistry" {
		t.Errorf("deploying with a zero registry: %v, want ZeroRegistry()", err)
	}
}

// TestDeployedCodeIsTheCommittedRuntime checks that the chain runs LandTitle.bin-runtime:
// the deployed code differs from it only where the registry is filled in as an immutable.
func TestDeployedCodeIsTheCommittedRuntime(t *testing.T) {
	ch := newChain(t)
	hexCode, err := os.ReadFile("LandTitle.bin-runtime")
	if err != nil {
		t.Fatal(err)
	}
	want := common.FromHex(strings.TrimSpace(string(hexCode)))
	got, err := ch.client.CodeAt(t.Context(), ch.c.Address(), nil)
	if err != nil {
		t.Fatal(err)
	}
	registry := common.LeftPadBytes(ch.c.Registry().Bytes(), 32)
	if n := bytes.Count(got, registry); n == 0 {
		t.Errorf("the registry is nowhere in the deployed code")
	}
	got = bytes.ReplaceAll(got, registry, make([]byte, 32))
	if !bytes.Equal(got, want) {
		t.Errorf("deployed code (%d bytes) differs from LandTitle.bin-runtime (%d bytes)", len(got), len(want))
	}
}

// TestGas measures deploy, mint and burn on the simulated chain as it comes (every fork,
// as geth --dev) and stopped at Osaka (mainnet's rules); doc.go quotes the numbers.
func TestGas(t *testing.T) {
	for _, tc := range []struct {
		name               string
		options            []func(*node.Config, *ethconfig.Config)
		deploy, mint, burn uint64 // upper bounds, a little above the measured numbers
	}{
		{"dev chain", nil, 1_600_000, 380_000, 50_000},
		{"osaka", []func(*node.Config, *ethconfig.Config){osaka}, 1_200_000, 130_000, 50_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := newChain(t, tc.options...)
			mint := ch.mint(t, addr(ch.stranger), 1, hash("one"))
			burn, err := ch.c.Burn(t.Context(), big.NewInt(1))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("gas used: deploy %d, mint %d, burn %d", ch.deploy.GasUsed, mint.GasUsed, burn.GasUsed)
			for _, g := range []struct {
				what      string
				used, max uint64
			}{{"deploy", ch.deploy.GasUsed, tc.deploy}, {"mint", mint.GasUsed, tc.mint}, {"burn", burn.GasUsed, tc.burn}} {
				if g.used == 0 || g.used > g.max {
					t.Errorf("%s used %d gas, want at most %d", g.what, g.used, g.max)
				}
			}
		})
	}
}
