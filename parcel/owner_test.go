package parcel_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ethsig/ethsigtest"
	"github.com/veriland/veriland/parcel"
)

// wallet is a test wallet: its key and its EIP-55 address.
type wallet struct {
	key  *ecdsa.PrivateKey
	addr string
}

func newWallet(tb testing.TB) wallet {
	tb.Helper()
	k, err := crypto.GenerateKey()
	require.NoError(tb, err)
	return wallet{key: k, addr: crypto.PubkeyToAddress(k.PublicKey).Hex()}
}

// lower is the wallet's address as the registry stores it.
func (w wallet) lower() string { return strings.ToLower(w.addr) }

// holderOf is a holder signed in with w (SIWE) in env.
func holderOf(w wallet, env veriland.Environment) veriland.Principal {
	return veriland.Principal{Subject: "did:pkh:eip155:1:" + w.lower(), Role: veriland.RoleHolder, Env: env, Wallet: w.lower()}
}

// identities is a fake IdentityLookup: wallet (lower case) → identity.
type identities map[string]*identity.Identity

func (m identities) ByWallet(_ context.Context, env veriland.Environment, address string) (*identity.Identity, error) {
	if id, ok := m[strings.ToLower(address)]; ok && id.Env == env {
		return id, nil
	}
	return nil, veriland.Errorf(veriland.CodeNotFound, "no identity with wallet %s", address)
}

// activeIdentity binds w to an ACTIVE identity in env and returns its DID.
func (m identities) activeIdentity(w wallet, env veriland.Environment, did string) string {
	m[w.lower()] = &identity.Identity{DID: did, Env: env, Status: identity.StatusActive, WalletAddress: w.lower()}
	return did
}

// walletParcel creates a parcel (as owner, the account's token) whose land owner
// holds w, and has the named notary certify it.
func (f *fixture) walletParcel(tb testing.TB, w wallet) *parcel.Parcel {
	tb.Helper()
	ctx := context.Background()
	req := validRequest()
	req.Owner.WalletAddress = w.addr
	p, err := f.svc.Create(ctx, owner, req)
	require.NoError(tb, err)
	p, err = f.svc.Certify(ctx, notary, p.ID)
	require.NoError(tb, err)
	return p
}

// ownerTransfer makes a certified parcel whose owner holds seller and asks for its
// transfer to a buyer (with buyer's wallet when buyer is not nil) before NOT-ABJ-2;
// mut changes the request first. The transfer is PENDING_OWNER.
func (f *fixture) ownerTransfer(tb testing.TB, seller wallet, buyer *wallet, mut func(*parcel.TransferRequest)) (*parcel.Parcel, *parcel.Transfer) {
	tb.Helper()
	p := f.walletParcel(tb, seller)
	req := transferReq("NOT-ABJ-2")
	if buyer != nil {
		req.NewOwner.WalletAddress = buyer.addr
	}
	if mut != nil {
		mut(&req)
	}
	tr, err := f.svc.RequestTransfer(context.Background(), owner, p.ID, req)
	require.NoError(tb, err)
	require.Equal(tb, parcel.TransferPendingOwner, tr.Status)
	return p, tr
}

// servedTypedData returns the TransferConsent of tr as a client reads it: the
// transfer's JSON, decoded into go-ethereum's apitypes.
func servedTypedData(tb testing.TB, tr *parcel.Transfer) apitypes.TypedData {
	tb.Helper()
	require.NotNil(tb, tr.OwnerConsent)
	require.NotNil(tb, tr.OwnerConsent.TypedData)
	b, err := json.Marshal(tr.OwnerConsent.TypedData)
	require.NoError(tb, err)
	var td apitypes.TypedData
	require.NoError(tb, json.Unmarshal(b, &td))
	return td
}

// signDecision plays the owner's wallet: it adds decision to the served typed data,
// hashes it with go-ethereum's EIP-712 code (eth_signTypedData_v4) and signs with key.
func signDecision(tb testing.TB, tr *parcel.Transfer, key *ecdsa.PrivateKey, decision string) parcel.OwnerDecision {
	tb.Helper()
	td := servedTypedData(tb, tr)
	td.Message["decision"] = decision
	digest, _, err := apitypes.TypedDataAndHash(td)
	require.NoError(tb, err)
	sig, err := ethsig.Sign(key, [32]byte(digest))
	require.NoError(tb, err)
	return parcel.OwnerDecision{Decision: decision, OwnerSignature: hexutil.Encode(sig), OwnerAddress: crypto.PubkeyToAddress(key.PublicKey).Hex()}
}

// signMessage signs m's digest over chainID with key.
func signMessage(tb testing.TB, m *parcel.TransferConsent, key *ecdsa.PrivateKey, chainID uint64) string {
	tb.Helper()
	sig, err := ethsig.Sign(key, m.Digest(chainID))
	require.NoError(tb, err)
	return hexutil.Encode(sig)
}

// highS returns the high-s twin of a low-s signature: the same signer recovers from
// it, and a malleable verifier would take it.
func highS(tb testing.TB, sigHex string) string {
	tb.Helper()
	return hexutil.Encode(ethsigtest.HighS(hexutil.MustDecode(sigHex)))
}

// count returns how many events of action concern transfer (or, for "", any).
func (f *fixture) count(action parcel.Action, transferID string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, e := range f.events {
		if e.Action == action && (transferID == "" || e.TransferID == transferID) {
			n++
		}
	}
	return n
}

// lastEvent returns the last event of action.
func (f *fixture) lastEvent(tb testing.TB, action parcel.Action) parcel.Event {
	tb.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.events) - 1; i >= 0; i-- {
		if f.events[i].Action == action {
			return f.events[i]
		}
	}
	tb.Fatalf("no %s event", action)
	return parcel.Event{}
}

// metaOf returns the meta member key of err's first error.
func metaOf(err error, key string) any {
	list := veriland.ErrorList(err)
	if len(list) == 0 {
		return nil
	}
	return list[0].Meta[key]
}

func TestOwnerWalletValidation(t *testing.T) {
	good := newWallet(t).addr
	lower := strings.ToLower(good)
	upper := "0x" + strings.ToUpper(good[2:])
	// Flip the case of one letter of the checksummed address: a typo EIP-55 catches.
	bad := []byte(good)
	for i := 2; i < len(bad); i++ {
		if c := bad[i]; (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') {
			bad[i] ^= 0x20
			break
		}
	}
	tests := []struct {
		name, address string
		ok            bool
	}{
		{"EIP-55", good, true},
		{"all lower case", lower, true},
		{"all upper case", upper, true},
		{"mixed case with a bad checksum", string(bad), false},
		{"no 0x", good[2:], false},
		{"0X prefix", "0X" + good[2:], false},
		{"39 digits", good[:41], false},
		{"41 digits", good + "0", false},
		{"not hex", "0x" + strings.Repeat("g", 40), false},
		{"spaces", " " + good, false},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			req := validRequest()
			req.Owner.WalletAddress = tt.address
			p, err := f.svc.Create(ctx, owner, req)
			treq := transferReq("NOT-ABJ-2")
			treq.NewOwner.WalletAddress = tt.address
			terr := treq.Validate()
			if !tt.ok {
				require.Equal(t, veriland.CodeValidationFailed, codeOf(err), "%v", err)
				require.Equal(t, []string{"/owner/walletAddress"}, pointersOf(err))
				require.Equal(t, []string{"/newOwner/walletAddress"}, pointersOf(terr))
				require.Empty(t, f.actions(), "nothing stored")
				return
			}
			require.NoError(t, err)
			require.NoError(t, terr)
			require.Equal(t, lower, p.Owner.WalletAddress, "stored in lower case")
			require.Equal(t, parcel.BindingNone, p.Owner.Binding, "no notary has bound it yet")
			require.Empty(t, p.Owner.DID)
		})
	}
	// The body decoders say the same.
	body := `{"owner":{"fullName":"A B","id_doc":"X1","walletAddress":"` + string(bad) + `"},"parcel":{"gps":[9,7],"area_m2":5,"city":"Abuja"},"notary":"NOT-ABJ-1"}`
	_, err := parcel.DecodeCreateRequest([]byte(body))
	require.Equal(t, []string{"/owner/walletAddress"}, pointersOf(err))
	_, err = parcel.DecodeTransferRequest([]byte(`{"newOwner":{"fullName":"A B","id_doc":"X1","walletAddress":"0x12"},"notary":"NOT-ABJ-1"}`))
	require.Equal(t, []string{"/newOwner/walletAddress"}, pointersOf(err))
	_, err = parcel.DecodeTransferRequest([]byte(`{"newOwner":{"fullName":"A B","id_doc":"X1","walletAddress":12},"notary":"NOT-ABJ-1"}`))
	require.Equal(t, veriland.CodeValidationFailed, codeOf(err))
}

// TestOwnerBinding: a wallet is bound when the named notary certifies (NONE before,
// NOTARY_VERIFIED after, IDENTITY_VERIFIED with the DID when an ACTIVE identity holds
// the wallet in the parcel's environment), and then the token is minted to it and the
// certificate, its typed data, the history and the public verification carry it.
func TestOwnerBinding(t *testing.T) {
	ctx := context.Background()
	const did = "did:veriland:owner-1"
	tests := []struct {
		name     string
		wallet   bool
		identity func(ids identities, w wallet)
		binding  parcel.OwnerBinding
		did      string
	}{
		{"no wallet", false, nil, parcel.BindingNone, ""},
		{"wallet, no identity", true, nil, parcel.BindingNotaryVerified, ""},
		{"wallet of an ACTIVE identity", true, func(ids identities, w wallet) { ids.activeIdentity(w, veriland.Production, did) }, parcel.BindingIdentityVerified, did},
		{"wallet of a PENDING_KYC identity", true, func(ids identities, w wallet) {
			ids[w.lower()] = &identity.Identity{DID: did, Env: veriland.Production, Status: identity.StatusPendingKYC, WalletAddress: w.lower()}
		}, parcel.BindingNotaryVerified, ""},
		{"wallet of a SANDBOX identity", true, func(ids identities, w wallet) { ids.activeIdentity(w, veriland.Sandbox, did) }, parcel.BindingNotaryVerified, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			ids := identities{}
			f.svc.Identities = ids
			w := newWallet(t)
			if tt.identity != nil {
				tt.identity(ids, w)
			}
			req := validRequest()
			if tt.wallet {
				req.Owner.WalletAddress = w.addr
			}
			p, err := f.svc.Create(ctx, owner, req)
			require.NoError(t, err)
			require.Equal(t, parcel.BindingNone, p.Owner.Binding, "before certification")
			require.Empty(t, p.Owner.DID)

			p, err = f.svc.Certify(ctx, notary, p.ID)
			require.NoError(t, err)
			require.Equal(t, tt.binding, p.Owner.Binding)
			require.Equal(t, tt.did, p.Owner.DID)
			got, err := f.svc.Get(ctx, owner, p.ID)
			require.NoError(t, err)
			require.Equal(t, p.Owner, got.Owner, "stored as returned")

			sc, err := f.svc.Certificate(ctx, owner, p.ID)
			require.NoError(t, err)
			cert, err := sc.Parsed()
			require.NoError(t, err)
			hist, err := f.svc.History(ctx, owner, p.ID)
			require.NoError(t, err)
			require.Len(t, hist, 1)
			h, _ := parcel.ParseHash(p.CertificateHash)
			v, err := f.svc.VerifyHash(ctx, veriland.Production, h)
			require.NoError(t, err)
			ev := f.lastEvent(t, parcel.ActionCertified)
			if !tt.wallet {
				require.Empty(t, p.Owner.WalletAddress)
				require.Empty(t, p.Token.Holder, "no chain here, so no custody account either")
				require.Equal(t, parcel.HolderRegistryCustody, p.Token.HolderKind)
				require.Equal(t, parcel.CertificateOwner{FullName: "Amina Bello-Okafor", IDDocHash: p.Owner.IDDocHash}, cert.Owner, "S9's members only")
				require.NotContains(t, sc.TypedData.Message, "ownerWallet")
				require.Empty(t, hist[0].OwnerWallet)
				require.Empty(t, v.OwnerWallet)
				require.Empty(t, ev.OwnerWallet)
				return
			}
			require.Equal(t, w.lower(), p.Owner.WalletAddress)
			require.Equal(t, w.lower(), p.Token.Holder, "the token is minted to the owner's wallet")
			require.Equal(t, parcel.HolderOwnerWallet, p.Token.HolderKind)
			require.Equal(t, parcel.CertificateOwner{FullName: "Amina Bello-Okafor", IDDocHash: p.Owner.IDDocHash,
				WalletAddress: w.lower(), Binding: tt.binding, DID: tt.did}, cert.Owner)
			require.Equal(t, w.addr, sc.TypedData.Message["ownerWallet"], "the signed typed data names the wallet")
			require.Equal(t, w.lower(), hist[0].OwnerWallet)
			require.Equal(t, tt.binding, hist[0].OwnerBinding)
			require.Equal(t, w.lower(), v.OwnerWallet)
			require.Equal(t, tt.binding, v.OwnerBinding)
			require.Equal(t, w.lower(), ev.OwnerWallet)
			vj, err := json.Marshal(v)
			require.NoError(t, err)
			require.NotContains(t, string(vj), "Amina", "the public verification names the wallet, never the owner")
		})
	}
}

// TestSandboxNotaryBindsAtOnce: NOT-SBX-1 certifies at once and binds the wallet, to
// its ACTIVE identity when there is one.
func TestSandboxNotaryBindsAtOnce(t *testing.T) {
	f := newFixture(t, nil)
	ids := identities{}
	f.svc.Identities = ids
	w := newWallet(t)
	did := ids.activeIdentity(w, veriland.Sandbox, "did:veriland:sbx-owner")
	req := validRequest()
	req.Notary = parcel.NotarySandboxSuccess
	req.Owner.WalletAddress = w.addr
	p, err := f.svc.Create(context.Background(), sbxOwner, req)
	require.NoError(t, err)
	require.Equal(t, parcel.StatusCertified, p.Status)
	require.Equal(t, parcel.BindingIdentityVerified, p.Owner.Binding)
	require.Equal(t, did, p.Owner.DID)
	require.Equal(t, w.lower(), p.Token.Holder)
	mine, _, err := f.svc.MyParcels(context.Background(), holderOf(w, veriland.Sandbox), "", 0)
	require.NoError(t, err)
	require.Len(t, mine, 1)
	require.Equal(t, p.ID, mine[0].ID)
}

// week is the owner's default deadline.
var week = time.Duration(parcel.DefaultOwnerDeadline) * time.Second
