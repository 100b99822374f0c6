package landtitle

import (
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// The Go client: idempotent Mint and Burn, At's checks, concurrent senders.

func TestMintIsIdempotent(t *testing.T) {
	ch := newChain(t)
	holder, h := addr(ch.stranger), hash("one")
	first := ch.mint(t, holder, 1, h)
	nonce := ch.nonce(t)
	again := ch.mint(t, holder, 1, h)
	if again != first {
		t.Errorf("second Mint = %+v, want the original %+v", again, first)
	}
	if n := ch.nonce(t); n != nonce {
		t.Errorf("the second Mint sent a transaction: nonce %d -> %d", nonce, n)
	}
}

func TestBurnIsIdempotent(t *testing.T) {
	ch := newChain(t)
	ch.mint(t, addr(ch.stranger), 1, hash("one"))
	first, err := ch.c.Burn(t.Context(), big.NewInt(1))
	if err != nil {
		t.Fatal(err)
	}
	nonce := ch.nonce(t)
	again, err := ch.c.Burn(t.Context(), big.NewInt(1))
	if err != nil || again != first {
		t.Errorf("second Burn = %+v, %v; want the original %+v", again, err, first)
	}
	if n := ch.nonce(t); n != nonce {
		t.Errorf("the second Burn sent a transaction: nonce %d -> %d", nonce, n)
	}
}

func TestMintAndBurnRefusals(t *testing.T) {
	ch, holder := newChainWithTitles(t)
	nonce := ch.nonce(t)
	for _, tc := range []struct {
		name string
		do   func() error
		want error // nil: any error
	}{
		{"mint of a held id to another holder", func() error {
			_, err := ch.c.Mint(t.Context(), addr(ch.registry), big.NewInt(1), hash("one"))
			return err
		}, ErrConflict},
		{"mint of a held id with another hash", func() error {
			_, err := ch.c.Mint(t.Context(), holder, big.NewInt(1), hash("other"))
			return err
		}, ErrConflict},
		{"mint of a burned id, same title", func() error {
			_, err := ch.c.Mint(t.Context(), holder, big.NewInt(2), hash("two"))
			return err
		}, ErrConflict},
		{"burn of an unminted id", func() error {
			_, err := ch.c.Burn(t.Context(), big.NewInt(3))
			return err
		}, ErrNotMinted},
		{"mint with a zero hash", func() error {
			_, err := ch.c.Mint(t.Context(), holder, big.NewInt(3), common.Hash{})
			return err
		}, nil},
		{"mint to the zero address", func() error {
			_, err := ch.c.Mint(t.Context(), common.Address{}, big.NewInt(3), hash("three"))
			return err
		}, nil},
		{"mint of a negative id", func() error {
			_, err := ch.c.Mint(t.Context(), holder, big.NewInt(-1), hash("three"))
			return err
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do()
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	if n := ch.nonce(t); n != nonce {
		t.Errorf("refused calls sent transactions: nonce %d -> %d", nonce, n)
	}
}

// TestConcurrentMintsOfOneTitle: racing Mints of one title send one transaction and
// all return its receipt (the losers' estimation reverts, they read the chain again).
func TestConcurrentMintsOfOneTitle(t *testing.T) {
	ch := newChain(t)
	nonce := ch.nonce(t)
	holder, h := addr(ch.stranger), hash("one")
	const n = 6
	receipts, errs := make([]Receipt, n), make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { receipts[i], errs[i] = ch.c.Mint(t.Context(), holder, big.NewInt(1), h) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || receipts[i] != receipts[0] {
			t.Errorf("Mint %d = %+v, %v; want %+v", i, receipts[i], errs[i], receipts[0])
		}
	}
	if got := ch.nonce(t); got != nonce+1 {
		t.Errorf("nonce %d -> %d, want one transaction", nonce, got)
	}
}

// TestTwoClientsOneKey: two Contracts on one key race on the nonce; the loser reads the
// chain again and returns the winner's receipt.
func TestTwoClientsOneKey(t *testing.T) {
	ch := newChain(t)
	other, err := At(t.Context(), ch.client, ch.c.Address(), ch.config(ch.registry))
	if err != nil {
		t.Fatal(err)
	}
	holder := addr(ch.stranger)
	for id := int64(1); id <= 4; id++ {
		var a, b Receipt
		var errA, errB error
		var wg sync.WaitGroup
		wg.Go(func() { a, errA = ch.c.Mint(t.Context(), holder, big.NewInt(id), hash("t")) })
		wg.Go(func() { b, errB = other.Mint(t.Context(), holder, big.NewInt(id), hash("t")) })
		wg.Wait()
		if errA != nil || errB != nil || a != b {
			t.Errorf("token %d: %+v, %v and %+v, %v; want one receipt", id, a, errA, b, errB)
		}
	}
}

func TestAt(t *testing.T) {
	ch := newChain(t)
	// A LandTitle whose registry is the stranger.
	theirs, _, err := Deploy(t.Context(), ch.client, ch.config(ch.stranger), testBaseURI)
	if err != nil {
		t.Fatal(err)
	}
	wrongChain := ch.config(ch.registry)
	wrongChain.ChainID = 1
	rightChain := ch.config(ch.registry)
	rightChain.ChainID = 1337
	for _, tc := range []struct {
		name string
		addr common.Address
		cfg  Config
		want string // "" for success
	}{
		{"own deployment", ch.c.Address(), ch.config(ch.registry), ""},
		{"own deployment, chain id set", ch.c.Address(), rightChain, ""},
		{"no code", common.HexToAddress("0x00000000000000000000000000000000000000aa"), ch.config(ch.registry), "no contract"},
		{"not ERC-5192 (an account)", addr(ch.stranger), ch.config(ch.registry), "no contract"},
		{"another registry", theirs.Address(), ch.config(ch.registry), "the registry of"},
		{"wrong chain", ch.c.Address(), wrongChain, "not the configured 1"},
		{"no key", ch.c.Address(), Config{}, "registry key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := At(t.Context(), ch.client, tc.addr, tc.cfg)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("At: %v", err)
			case tc.want == "":
				if c.Address() != tc.addr || c.Registry() != addr(ch.registry) || c.ChainID() != 1337 {
					t.Errorf("At = %s, registry %s, chain %d", c.Address().Hex(), c.Registry().Hex(), c.ChainID())
				}
			case err == nil || !strings.Contains(err.Error(), tc.want):
				t.Errorf("At: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestAtFindsPastMintsFromFromBlock: a client bound with At returns the original
// receipts when FromBlock is the deployment block.
func TestAtFindsPastMintsFromFromBlock(t *testing.T) {
	ch := newChain(t)
	first := ch.mint(t, addr(ch.stranger), 5, hash("five"))
	cfg := ch.config(ch.registry)
	cfg.FromBlock = ch.deploy.BlockNumber
	c, err := At(t.Context(), ch.client, ch.c.Address(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Mint(t.Context(), addr(ch.stranger), big.NewInt(5), hash("five"))
	if err != nil || again != first {
		t.Errorf("Mint through At = %+v, %v; want %+v", again, err, first)
	}
}

func TestStateString(t *testing.T) {
	for s, want := range map[State]string{Unminted: "unminted", Minted: "minted", Burned: "burned", 9: "State(9)"} {
		if got := s.String(); got != want {
			t.Errorf("State(%d).String() = %q, want %q", uint8(s), got, want)
		}
	}
}
