package assistant_test

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/parcel"
)

// ownerWorld is the world plus a parcel whose owner holds a wallet, and a transfer of
// it waiting for the owner's signature (SPEC S13).
type ownerWorld struct {
	*world
	holder   veriland.Principal // signed in with the owner's wallet
	owned    *parcel.Parcel
	transfer *parcel.Transfer
}

func newOwnerWorld(t *testing.T) *ownerWorld {
	t.Helper()
	w := newWorld(t)
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	wallet := crypto.PubkeyToAddress(key.PublicKey).Hex()
	area := 640.0
	owned, err := w.parcels.Create(t.Context(), agency, parcel.CreateRequest{
		Owner:  &parcel.Owner{FullName: testOwner, IDDoc: testIDDoc, WalletAddress: wallet},
		Parcel: &parcel.ParcelInput{GPS: []float64{6.45, 7.51}, AreaM2: &area, City: "Enugu"}, Notary: "NOT-SBX-1"})
	require.NoError(t, err)
	require.Equal(t, parcel.StatusCertified, owned.Status)
	require.Equal(t, parcel.BindingNotaryVerified, owned.Owner.Binding)
	tr, err := w.parcels.RequestTransfer(t.Context(), agency, owned.ID, parcel.TransferRequest{
		NewOwner: &parcel.Owner{FullName: "Chukwuemeka Obi Nwankwo", IDDoc: "NIN-55501928374"}, Notary: "NOT-ABJ-7"})
	require.NoError(t, err)
	require.Equal(t, parcel.TransferPendingOwner, tr.Status)
	return &ownerWorld{world: w, owned: owned, transfer: tr,
		holder: veriland.Principal{Subject: "did:pkh:eip155:1:" + strings.ToLower(wallet), Role: veriland.RoleHolder,
			Env: veriland.Sandbox, Wallet: strings.ToLower(wallet)}}
}

// myParcelsQuestions ask, in each language, for the caller's own parcels or what waits
// for its signature.
var myParcelsQuestions = map[string][]string{
	"en": {"Which parcels do I own?", "Is there a transfer waiting for my signature?"},
	"fr": {"Quelles sont mes parcelles ?", "Ai-je une mutation à signer ?"},
	"es": {"¿Qué parcelas tengo a mi nombre?", "¿Tengo alguna transmisión que firmar?"},
	"pt": {"Quais são as minhas parcelas?", "Tenho alguma transferência para assinar?"},
	"ar": {"ما هي أملاكي المسجلة؟", "هل هناك نقل ملكية بانتظار توقيعي؟"},
	"de": {"Welche Grundstücke besitze ich?", "Muss ich eine Übertragung unterschreiben?"},
	"it": {"Quali sono le mie particelle?", "Quali trasferimenti devo firmare?"},
}

// TestMyParcelsEveryLanguage: a holder signed in with the owner's wallet asks for its
// parcels in each language and gets them from MyParcels, in that language: the
// parcel's id, city, status, version and binding, and the transfer that waits for its
// signature with the owner's page; never a name or an identity document.
func TestMyParcelsEveryLanguage(t *testing.T) {
	w := newOwnerWorld(t)
	url := "https://registry.example/v1/transfers/" + w.transfer.ID + "/owner-consent"
	for _, lang := range assistant.Languages {
		for _, q := range myParcelsQuestions[lang] {
			t.Run(lang+"/"+q, func(t *testing.T) {
				reply, err := w.svc.Send(t.Context(), w.holder, assistant.MessageRequest{Text: q})
				require.NoError(t, err)
				require.Equal(t, assistant.IntentMyParcels, reply.Intent)
				require.Equal(t, lang, reply.Language, "answered in the question's language")
				for _, fact := range []string{w.owned.ID, "Enugu", "CERTIFIED", "NOTARY_VERIFIED", w.transfer.ID, url,
					"2026-11-30 12:00 UTC", w.holder.Wallet} {
					require.Contains(t, reply.Text, fact)
				}
				for _, secret := range []string{testOwner, testIDDoc, "Chukwuemeka", "NIN-555", w.pending.ID, w.certified.ID} {
					require.NotContains(t, reply.Text, secret)
				}
				// One line per parcel and per transfer awaiting the owner.
				require.Equal(t, 2, strings.Count(reply.Text, "\n• "), reply.Text)
				var rels []string
				for _, a := range reply.Actions {
					rels = append(rels, a.Rel)
					switch a.Rel {
					case "owner_consent":
						require.Equal(t, url, a.Href)
						require.Equal(t, "text/html", a.Accept)
					case "parcels":
						require.Equal(t, "https://registry.example/v1/me/parcels", a.Href)
					}
					require.NotEmpty(t, a.Label)
				}
				require.ElementsMatch(t, []string{"owner_consent", "parcels"}, rels)
				var refs []string
				for _, r := range reply.References {
					refs = append(refs, r.ID)
				}
				require.Equal(t, []string{w.owned.ID, w.transfer.ID}, refs)
			})
		}
	}
}

// TestMyParcelsStates: what the list says as the transfer moves on, and for a holder
// who owns nothing.
func TestMyParcelsStates(t *testing.T) {
	w := newOwnerWorld(t)
	ask := func(p veriland.Principal, text string) *assistant.Message {
		t.Helper()
		reply, err := w.svc.Send(t.Context(), p, assistant.MessageRequest{Text: text})
		require.NoError(t, err)
		return reply
	}
	// A holder's parcel status question without an id is about the parcels it owns.
	reply := ask(w.holder, "What is the status of my parcel?")
	require.Equal(t, assistant.IntentMyParcels, reply.Intent)
	require.Contains(t, reply.Text, w.owned.ID)

	// Once the transfer is cancelled, the parcel is listed without it.
	_, err := w.parcels.CancelTransfer(t.Context(), agency, w.transfer.ID)
	require.NoError(t, err)
	reply = ask(w.holder, "Which parcels do I own?")
	require.Contains(t, reply.Text, w.owned.ID)
	require.NotContains(t, reply.Text, w.transfer.ID)
	require.Equal(t, 1, strings.Count(reply.Text, "\n• "))
	for _, a := range reply.Actions {
		require.NotEqual(t, "owner_consent", a.Rel)
	}

	// Another wallet owns nothing: it is told so, with its wallet.
	stranger := veriland.Principal{Subject: "did:pkh:eip155:1:0x00000000000000000000000000000000000000aa", Role: veriland.RoleHolder,
		Env: veriland.Sandbox, Wallet: "0x00000000000000000000000000000000000000aa"}
	reply = ask(stranger, "Which parcels do I own?")
	require.Equal(t, assistant.IntentMyParcels, reply.Intent)
	require.Contains(t, reply.Text, stranger.Wallet)
	require.NotContains(t, reply.Text, w.owned.ID)
	require.Empty(t, reply.References)

	// The same wallet in PRODUCTION owns nothing there.
	prod := w.holder
	prod.Env = veriland.Production
	reply = ask(prod, "Which parcels do I own?")
	require.NotContains(t, reply.Text, w.owned.ID)
}

// TestMyParcelsNotForOthers: a token that is not a holder signed in with a wallet (an
// account's API key, a holder token without a wallet) gets a short answer in its
// language that the list is for owners signed in with their wallet, and nothing else.
func TestMyParcelsNotForOthers(t *testing.T) {
	w := newOwnerWorld(t)
	noWallet := veriland.Principal{Subject: "user-1", Role: veriland.RoleHolder, Env: veriland.Sandbox, Account: "acct_1"}
	for _, p := range []veriland.Principal{agency, outside, noWallet} {
		for _, lang := range assistant.Languages {
			q := myParcelsQuestions[lang][0]
			t.Run(p.Subject+"/"+lang, func(t *testing.T) {
				reply, err := w.svc.Send(t.Context(), p, assistant.MessageRequest{Text: q})
				require.NoError(t, err)
				require.Equal(t, assistant.IntentMyParcels, reply.Intent)
				require.Equal(t, lang, reply.Language)
				require.Contains(t, reply.Text, "POST /auth/siwe")
				require.Contains(t, reply.Text, "GET /v1/parcels")
				require.NotContains(t, reply.Text, "prc_")
				require.Less(t, len([]rune(reply.Text)), 320, "short")
				require.Empty(t, reply.Actions)
				require.Empty(t, reply.References)
			})
		}
	}
	// The account's own list is still what it gets for the status of "my parcel".
	reply, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "What is the status of my parcel?"})
	require.NoError(t, err)
	require.Equal(t, assistant.IntentParcelStatus, reply.Intent)
	require.Contains(t, reply.Text, w.owned.ID)
}

// TestTransferAnswersNameTheOwnersSignature: the how-to says, in every language, that
// an owner with a wallet signs and that a notary never requests a transfer; a parcel
// whose transfer waits for its owner says so, with the owner's page.
func TestTransferAnswersNameTheOwnersSignature(t *testing.T) {
	w := newOwnerWorld(t)
	howTo := map[string]string{
		"en": "How do I transfer my land?", "fr": "Comment transférer mon terrain ?", "es": "¿Cómo transfiero mi terreno?",
		"pt": "Como transfiro o meu terreno?", "ar": "كيف أنقل ملكية أرضي؟", "de": "Wie übertrage ich mein Grundstück?",
		"it": "Come trasferisco il mio terreno?",
	}
	// Each language's words for the owner's wallet and the notary, as its catalog
	// writes them.
	wallet := map[string]string{"en": "wallet", "fr": "portefeuille", "es": "cartera", "pt": "carteira", "ar": "محفظة", "de": "Wallet", "it": "portafoglio"}
	notary := map[string]string{"en": "never a notary", "fr": "jamais un notaire", "es": "nunca un notario", "pt": "nunca um notário",
		"ar": "وليس كاتب العدل أبدًا", "de": "nie ein Notar", "it": "mai un notaio"}
	url := "https://registry.example/v1/transfers/" + w.transfer.ID + "/owner-consent"
	for _, lang := range assistant.Languages {
		t.Run(lang, func(t *testing.T) {
			reply, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: howTo[lang]})
			require.NoError(t, err)
			require.Equal(t, assistant.IntentTransferHowTo, reply.Intent)
			require.Equal(t, lang, reply.Language)
			for _, s := range []string{"PENDING_OWNER", "POST /v1/parcels/prc_…/transfer", wallet[lang], notary[lang], "SUPERSEDED"} {
				require.Contains(t, reply.Text, s)
			}

			// The parcel whose transfer waits for its owner.
			l := lang
			reply, err = w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "transfer " + w.owned.ID, Language: &l})
			require.NoError(t, err)
			require.Equal(t, assistant.IntentTransferHowTo, reply.Intent)
			for _, s := range []string{w.owned.ID, w.transfer.ID, "2026-11-30 12:00 UTC", url} {
				require.Contains(t, reply.Text, s)
			}
			require.NotContains(t, reply.Text, "NOT-ABJ-7", "it waits for the owner, not the notary")
			var rels []string
			for _, a := range reply.Actions {
				rels = append(rels, a.Rel)
			}
			require.Contains(t, rels, "owner_consent")

			// Its status says the same.
			reply, err = w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: w.owned.ID + " ?", Language: &l})
			require.NoError(t, err)
			require.Equal(t, assistant.IntentParcelStatus, reply.Intent)
			require.Contains(t, reply.Text, w.transfer.ID)
			require.Contains(t, reply.Text, "2026-11-30 12:00 UTC")
		})
	}
}
