package httpserver

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// assistantWorld is a SANDBOX with real records for the assistant to talk about: a
// parcel waiting for its notary, a certified one, an approved verification request
// with its consent attestation, and a pending one.
type assistantWorld struct {
	h                     *harness
	agent, other          string // the parcels' account, and another account
	pending, certified    string // parcel ids
	hash                  string // the certified parcel's certificate hash
	approved, open        string // verification request ids
	attestation           string // the approved request's attestation
	pendingCity, certCity string
}

func newAssistantWorld(t *testing.T) *assistantWorld {
	// The questions of a test outrun the per-wallet burst on a frozen clock.
	h := newHarness(t, func(c *Config) { c.RateLimits.Disabled = true })
	env := veriland.Sandbox
	w := &assistantWorld{h: h,
		agent: h.token(veriland.RoleVerifier, env, "agency-1"),
		other: h.token(veriland.RoleVerifier, env, "agency-9", func(p *veriland.Principal) { p.Account = "acct_other" }),
	}
	create := func(notary, city string) map[string]any {
		body := fmt.Sprintf(`{"owner":{"fullName":%q,"id_doc":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":1200,"city":%q},"notary":%q}`,
			ownerName, ownerIDDoc, city, notary)
		r := h.do(request{method: "POST", path: "/v1/parcels", token: w.agent, body: body})
		require.Equal(t, 201, r.status, string(r.body))
		return attrs(t, r)
	}
	// The account's first request seeds its sandbox; the test's records come a minute
	// later, so that they are the newest.
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/parcels", token: w.agent}).status)
	h.clock.Advance(time.Minute)
	w.pendingCity, w.certCity = "Abuja", "Kano"
	w.pending = create(parcelNotary, w.pendingCity)["id"].(string)
	cert := create("NOT-SBX-1", w.certCity)
	require.Equal(t, "CERTIFIED", cert["status"])
	w.certified, w.hash = cert["id"].(string), cert["certificateHash"].(string)

	f := newConsentFlow(t, h)
	w.approved = f.request(t, nil)
	res := f.decide(t, w.approved, f.wallet, crypto.PubkeyToAddress(f.wallet.PublicKey), "APPROVED", []string{"is_adult", "nationality"})
	require.Equal(t, 201, res.status, string(res.body))
	w.attestation = res.json(t)["attestation"].(map[string]any)["id"].(string)
	w.open = f.request(t, nil)
	return w
}

// ask sends text as tok (no session) and returns the reply's attributes.
func (w *assistantWorld) ask(t *testing.T, tok string, body map[string]any) map[string]any {
	t.Helper()
	r := w.h.do(request{method: "POST", path: "/v1/assistant/messages", token: tok, body: body})
	require.Equal(t, 201, r.status, string(r.body))
	return attrs(t, r)
}

// assistantQuestions are, per language, the questions of every tool (%s: the id or
// hash), written as a user of that language would.
var assistantQuestions = map[string]map[string]string{
	"en": {"parcel": "What is the status of parcel %s?", "certificate": "Is certificate %s authentic?", "transfer": "How do I transfer my land %s?",
		"request": "What is the status of verification request %s?", "attestation": "Is attestation %s still valid?"},
	"fr": {"parcel": "Quel est le statut de la parcelle %s ?", "certificate": "Le certificat %s est-il authentique ?", "transfer": "Comment transférer ma parcelle %s ?",
		"request": "Quel est le statut de la demande de vérification %s ?", "attestation": "L'attestation %s est-elle toujours valide ?"},
	"es": {"parcel": "¿Cuál es el estado de la parcela %s?", "certificate": "¿Es auténtico el certificado %s?", "transfer": "¿Cómo puedo transferir mi parcela %s?",
		"request": "¿Cuál es el estado de la solicitud de verificación %s?", "attestation": "¿La atestación %s sigue siendo válida?"},
	"pt": {"parcel": "Qual é a situação da minha parcela %s?", "certificate": "O certificado %s é autêntico?", "transfer": "Como posso transferir o meu terreno %s?",
		"request": "Qual é o estado do pedido de verificação %s?", "attestation": "O atestado %s ainda é válido?"},
	"ar": {"parcel": "ما هي حالة قطعة الأرض %s؟", "certificate": "هل الشهادة %s أصلية؟", "transfer": "كيف يمكنني نقل ملكية أرضي %s؟",
		"request": "ما هي حالة طلب التحقق %s؟", "attestation": "هل الإفادة %s لا تزال صالحة؟"},
	"de": {"parcel": "Wie ist der Status des Grundstücks %s?", "certificate": "Ist das Zertifikat %s echt?", "transfer": "Wie übertrage ich mein Grundstück %s?",
		"request": "Wie ist der Status der Verifizierungsanfrage %s?", "attestation": "Ist die Bescheinigung %s noch gültig?"},
	"it": {"parcel": "Qual è lo stato della mia particella %s?", "certificate": "Il certificato %s è autentico?", "transfer": "Come posso trasferire il mio terreno %s?",
		"request": "Qual è lo stato della richiesta di verifica %s?", "attestation": "L'attestazione %s è ancora valida?"},
}

// TestAssistantToolsInSevenLanguages asks every tool in every supported language
// about records made in the test, without naming the language: the detector, the
// router and the tools must each get it right, and the answer must cite the record's
// facts in that language.
func TestAssistantToolsInSevenLanguages(t *testing.T) {
	w := newAssistantWorld(t)
	english := map[string]string{}
	for _, lang := range []string{"en", "fr", "es", "pt", "ar", "de", "it"} {
		q := assistantQuestions[lang]
		cases := []struct {
			tool, entity, intent string
			facts                []string // strings the answer must contain
			refs                 []string
			rels                 []string
		}{
			{"parcel", w.pending, "parcel_status", []string{w.pending, w.pendingCity, parcelNotary}, []string{w.pending}, []string{"parcel"}},
			{"parcel", w.certified, "parcel_status", []string{w.certified, w.certCity, w.hash}, []string{w.certified, w.hash},
				[]string{"certificate_pdf", "verification_page", "parcel"}},
			{"certificate", w.hash, "certificate_check", []string{w.hash, w.certified, w.certCity, "NOT-SBX-1"}, []string{w.hash, w.certified},
				[]string{"verification_page"}},
			{"certificate", "0x" + strings.Repeat("ab", 32), "certificate_check", []string{"0x" + strings.Repeat("ab", 32)}, nil, nil},
			{"transfer", w.certified, "transfer_howto", []string{w.certified, "/v1/parcels/" + w.certified + "/transfer", "NOT-SBX-1"}, []string{w.certified},
				[]string{"transfer"}},
			{"transfer", w.pending, "transfer_howto", []string{w.pending, "PENDING_NOTARY"}, []string{w.pending}, nil},
			{"request", w.approved, "verification_request_status", []string{w.approved, w.attestation}, []string{w.approved, w.attestation},
				[]string{"attestation_status", "verification_request"}},
			{"request", w.open, "verification_request_status", []string{w.open, "is_adult, nationality"}, []string{w.open},
				[]string{"consent_page", "verification_request"}},
			{"attestation", w.attestation, "attestation_status", []string{w.attestation}, []string{w.attestation}, []string{"attestation_status"}},
		}
		for _, c := range cases {
			t.Run(lang+"/"+c.tool+"/"+c.entity[:6], func(t *testing.T) {
				text := fmt.Sprintf(q[c.tool], c.entity)
				a := w.ask(t, w.agent, map[string]any{"text": text})
				require.Equal(t, lang, a["language"], "answer language of %q: %v", text, a)
				require.Equal(t, lang, a["detectedLanguage"], text)
				require.Equal(t, c.intent, a["intent"], text)
				require.Equal(t, "assistant", a["role"])
				answer := a["text"].(string)
				for _, fact := range c.facts {
					require.Contains(t, answer, fact, "%s answer to %q", lang, text)
				}
				var refs, rels []string
				for _, r := range a["references"].([]any) {
					refs = append(refs, r.(map[string]any)["id"].(string))
				}
				for _, x := range a["actions"].([]any) {
					rels = append(rels, x.(map[string]any)["rel"].(string))
					require.True(t, strings.HasPrefix(x.(map[string]any)["href"].(string), "http://veriland.test/"))
				}
				for _, r := range c.refs {
					require.Contains(t, refs, r)
				}
				require.ElementsMatch(t, c.rels, rels)
				key := c.tool + c.entity
				if lang == "en" {
					english[key] = answer
				} else {
					require.NotEqual(t, english[key], answer, "the %s answer is the English one", lang)
				}
			})
		}
	}
}

// TestAssistantNeverLeaksAnotherAccountsParcel: another account's token asks about
// the parcels by id; the assistant answers exactly as for an id that does not exist.
func TestAssistantNeverLeaksAnotherAccountsParcel(t *testing.T) {
	w := newAssistantWorld(t)
	for _, lang := range []string{"en", "fr", "es", "pt", "ar", "de", "it"} {
		for _, id := range []string{w.pending, w.certified} {
			a := w.ask(t, w.other, map[string]any{"text": fmt.Sprintf(assistantQuestions[lang]["parcel"], id)})
			answer := a["text"].(string)
			require.Equal(t, "parcel_status", a["intent"])
			require.Contains(t, answer, id)
			for _, secret := range []string{w.pendingCity, w.certCity, w.hash, parcelNotary, "NOT-SBX-1", ownerName} {
				require.NotContains(t, answer, secret, "%s: the other account learnt %q", lang, secret)
			}
			require.Empty(t, a["actions"])
			unknown := w.ask(t, w.other, map[string]any{"text": fmt.Sprintf(assistantQuestions[lang]["parcel"], "prc_"+strings.Repeat("a", 26))})
			require.Equal(t, strings.ReplaceAll(unknown["text"].(string), "prc_"+strings.Repeat("a", 26), id), answer,
				"%s: a foreign parcel must read exactly like a missing one", lang)
			// Nor through the transfer tool.
			tr := w.ask(t, w.other, map[string]any{"text": fmt.Sprintf(assistantQuestions[lang]["transfer"], id)})
			require.NotContains(t, tr["text"], w.certCity)
			require.NotContains(t, tr["text"], "PENDING_NOTARY")
		}
		// "My parcels" lists the caller's own parcels only.
		mine := w.ask(t, w.other, map[string]any{"text": "what is the status of my parcel", "language": lang})
		require.NotContains(t, mine["text"], w.pending)
		require.NotContains(t, mine["text"], w.certified)
	}
	own := w.ask(t, w.agent, map[string]any{"text": "what is the status of my parcel"})
	require.Equal(t, "parcel_status", own["intent"])
	require.Contains(t, own["text"], w.pending)
	require.Contains(t, own["text"], w.certified)
}

// TestAssistantSessions: create, converse, read with pagination, sticky language,
// erase; nobody else can read the session; the store holds no message text in clear.
func TestAssistantSessions(t *testing.T) {
	w := newAssistantWorld(t)
	h := w.h
	r := h.do(request{method: "POST", path: "/v1/assistant/sessions", token: w.agent, body: map[string]any{"title": "Questions sur Kano"}})
	require.Equal(t, 201, r.status, string(r.body))
	sess := attrs(t, r)
	id := sess["id"].(string)
	require.Regexp(t, `^ses_[a-z2-7]{26}$`, id)
	require.Nil(t, sess["language"])
	require.EqualValues(t, 0, sess["messageCount"])
	require.Equal(t, "/v1/assistant/sessions/"+id, r.header.Get("Location"))

	// No body at all is a session too.
	require.Equal(t, 201, h.do(request{method: "POST", path: "/v1/assistant/sessions", token: w.agent}).status)

	secretQuestion := "Quel est le statut de la parcelle " + w.certified + " ?"
	first := w.ask(t, w.agent, map[string]any{"sessionId": id, "text": secretQuestion})
	require.Equal(t, "fr", first["language"])
	require.Equal(t, id, first["sessionId"])
	// A short follow-up in no particular language keeps the session's French, and
	// "can I transfer it?" follows the parcel of the previous answer.
	short := w.ask(t, w.agent, map[string]any{"sessionId": id, "text": w.hash})
	require.Equal(t, "fr", short["language"])
	require.Equal(t, "certificate_check", short["intent"])
	follow := w.ask(t, w.agent, map[string]any{"sessionId": id, "text": "transférer ?"})
	require.Equal(t, "transfer_howto", follow["intent"])

	// Another account, another sub of the same account, and the other environment
	// see nothing.
	sameAcct := h.token(veriland.RoleVerifier, veriland.Sandbox, "agency-2")
	prod := h.token(veriland.RoleVerifier, veriland.Production, "agency-1")
	for _, tok := range []string{w.other, sameAcct, prod} {
		require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/assistant/sessions/" + id, token: tok}).status)
		require.Equal(t, 404, h.do(request{method: "POST", path: "/v1/assistant/messages", token: tok, body: map[string]any{"sessionId": id, "text": "hello"}}).status)
		require.Equal(t, 404, h.do(request{method: "DELETE", path: "/v1/assistant/sessions/" + id, token: tok}).status)
	}

	// Read back, two messages a page.
	var texts []string
	path := "/v1/assistant/sessions/" + id + "?limit=2"
	for pages := 0; path != ""; pages++ {
		require.Less(t, pages, 4)
		doc := h.do(request{method: "GET", path: path, token: w.agent}).json(t)
		a := doc["data"].(map[string]any)["attributes"].(map[string]any)
		require.EqualValues(t, 6, a["messageCount"])
		require.Equal(t, "fr", a["language"])
		require.Equal(t, "Questions sur Kano", a["title"])
		for _, m := range a["messages"].([]any) {
			texts = append(texts, m.(map[string]any)["role"].(string)+": "+m.(map[string]any)["text"].(string))
		}
		next, _ := doc["links"].(map[string]any)["next"].(string)
		require.Equal(t, next != "", doc["meta"].(map[string]any)["has_more"])
		path = next
	}
	require.Len(t, texts, 6)
	require.Equal(t, "user: "+secretQuestion, texts[0])
	require.Equal(t, "assistant: "+first["text"].(string), texts[1])

	// Nothing of the conversation is in the database file in clear.
	require.NoError(t, h.store.Close())
	raw, err := os.ReadFile(h.storePath)
	require.NoError(t, err)
	for _, s := range []string{"Quel est le statut", "Questions sur Kano", "transférer", first["text"].(string)[:40]} {
		require.NotContains(t, string(raw), s)
	}
}

// TestAssistantSessionErasure: DELETE removes the session and every message; the
// id is then unknown.
func TestAssistantSessionErasure(t *testing.T) {
	w := newAssistantWorld(t)
	h := w.h
	first := w.ask(t, w.agent, map[string]any{"text": "What is the status of parcel " + w.pending + "?"})
	id := first["sessionId"].(string)
	w.ask(t, w.agent, map[string]any{"sessionId": id, "text": "help"})
	r := h.do(request{method: "DELETE", path: "/v1/assistant/sessions/" + id, token: w.agent})
	require.Equal(t, 204, r.status, string(r.body))
	require.Empty(t, r.body)
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/assistant/sessions/" + id, token: w.agent}).status)
	require.Equal(t, 404, h.do(request{method: "DELETE", path: "/v1/assistant/sessions/" + id, token: w.agent}).status)
	n := 0
	require.NoError(t, h.store.View(t.Context(), func(tx storage.Tx) error {
		for _, b := range []string{"SANDBOX/assistant_sessions", "SANDBOX/assistant_messages", "SANDBOX/assistant_owners"} {
			if err := tx.Scan(b, storage.Range{}, func(k, _ []byte) error {
				if strings.Contains(string(k), id) {
					n++
				}
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	}))
	require.Zero(t, n, "records of the erased session remain")
}

// TestAssistantMessageValidation: bad bodies are 400 with a pointer per member.
func TestAssistantMessageValidation(t *testing.T) {
	w := newAssistantWorld(t)
	cases := []struct {
		name     string
		body     any
		status   int
		pointers []string
	}{
		{"empty text", map[string]any{"text": ""}, 400, []string{"/text"}},
		{"spaces", map[string]any{"text": "   "}, 400, []string{"/text"}},
		{"too long", map[string]any{"text": strings.Repeat("é", 4001)}, 400, []string{"/text"}},
		{"4000 characters", map[string]any{"text": strings.Repeat("é", 4000)}, 201, nil},
		{"no text", map[string]any{}, 400, []string{"/text"}},
		{"bad language", map[string]any{"text": "hi", "language": "french!"}, 400, []string{"/language"}},
		{"bad session", map[string]any{"text": "hi", "sessionId": "nope"}, 400, []string{"/sessionId"}},
		{"unknown session", map[string]any{"text": "hi", "sessionId": "ses_" + strings.Repeat("a", 26)}, 404, nil},
		{"unknown member", map[string]any{"text": "hi", "lang": "fr"}, 400, []string{"/lang"}},
		{"wrong type", map[string]any{"text": 42}, 400, []string{"/text"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := w.h.do(request{method: "POST", path: "/v1/assistant/messages", token: w.agent, body: c.body})
			require.Equal(t, c.status, r.status, string(r.body))
			if c.pointers != nil {
				require.Equal(t, c.pointers, errorPointers(t, r))
			}
		})
	}
	r := w.h.do(request{method: "POST", path: "/v1/assistant/sessions", token: w.agent, body: map[string]any{"language": "ja", "title": ""}})
	require.Equal(t, 400, r.status)
	require.Equal(t, []string{"/language", "/title"}, errorPointers(t, r))
	require.Equal(t, 401, w.h.do(request{method: "POST", path: "/v1/assistant/messages", body: map[string]any{"text": "hi"}}).status)
}

// TestAssistantUnsupportedLanguage: a language outside the seven gets an English
// answer that says so, and still answers a lookup it can place.
func TestAssistantUnsupportedLanguage(t *testing.T) {
	w := newAssistantWorld(t)
	nl := w.ask(t, w.agent, map[string]any{"text": "Kunt u mij vertellen hoe het gaat met mijn aanvraag voor het kadaster van vorige week?"})
	require.Equal(t, "en", nl["language"])
	require.Equal(t, "nl", nl["detectedLanguage"])
	require.Equal(t, "unsupported_language", nl["intent"])
	require.Contains(t, nl["text"], "Dutch")
	ru := w.ask(t, w.agent, map[string]any{"text": "Скажите, пожалуйста, какой сейчас статус у моего земельного участка " + w.certified + "?"})
	require.Equal(t, "en", ru["language"])
	require.Equal(t, "ru", ru["detectedLanguage"])
	require.Equal(t, "parcel_status", ru["intent"])
	require.Contains(t, ru["text"], "Russian")
	require.Contains(t, ru["text"], w.hash)
	// Swahili, Hausa, Yoruba, Igbo: recognised, answered in English with the list of
	// the languages spoken; never taken for Italian.
	for lang, text := range map[string]string{"sw": "Hali ya kiwanja changu ni nini?", "ha": "Menene matsayin filina?",
		"yo": "Kí ni ipò ilẹ̀ mi?", "ig": "Kedu ka m ga-esi nyefee ala m nye onye ọzọ?"} {
		a := w.ask(t, w.agent, map[string]any{"text": text})
		require.Equal(t, "en", a["language"], text)
		require.Equal(t, lang, a["detectedLanguage"], text)
		require.Equal(t, "unsupported_language", a["intent"], text)
		require.Contains(t, a["text"], "I answer in English, French, Spanish, Portuguese, Arabic, German and Italian", text)
	}
	// A short text no language can be told from is English, not a guess.
	si := w.ask(t, w.agent, map[string]any{"text": "si"})
	require.Equal(t, "en", si["language"])
	require.Equal(t, "und", si["detectedLanguage"])
	ja := w.ask(t, w.agent, map[string]any{"text": "help", "language": "ja"})
	require.Equal(t, "en", ja["language"])
	require.Contains(t, ja["text"], "Japanese")
	pt := w.ask(t, w.agent, map[string]any{"text": "help", "language": "pt-BR"})
	require.Equal(t, "pt", pt["language"])
	require.Equal(t, "help", pt["intent"])
}

// TestAssistantIdempotency: a retried message with the same Idempotency-Key gets the
// first reply back and is not answered (nor stored) twice.
func TestAssistantIdempotency(t *testing.T) {
	w := newAssistantWorld(t)
	h := w.h
	send := func(key, text string) response {
		return h.do(request{method: "POST", path: "/v1/assistant/messages", token: w.agent,
			body: map[string]any{"text": text}, header: map[string]string{"Idempotency-Key": key}})
	}
	first := send("q-1", "What is the status of parcel "+w.pending+"?")
	require.Equal(t, 201, first.status)
	again := send("q-1", "What is the status of parcel "+w.pending+"?")
	require.Equal(t, 201, again.status)
	require.Equal(t, string(first.body), string(again.body))
	sid := attrs(t, first)["sessionId"].(string)
	page := attrs(t, h.do(request{method: "GET", path: "/v1/assistant/sessions/" + sid, token: w.agent}))
	require.EqualValues(t, 2, page["messageCount"])
	other := send("q-1", "help")
	require.Equal(t, 422, other.status)
	require.Equal(t, "idempotency_key_reused", other.errorCode(t))
}

// TestAssistantSessionList: the caller's sessions, newest first, paginated; nobody
// else's; an erased session leaves the list.
func TestAssistantSessionList(t *testing.T) {
	w := newAssistantWorld(t)
	h := w.h
	var ids []string
	for i := range 3 {
		h.clock.Advance(time.Second)
		r := h.do(request{method: "POST", path: "/v1/assistant/sessions", token: w.agent, body: map[string]any{"title": fmt.Sprintf("session %d", i)}})
		require.Equal(t, 201, r.status)
		ids = append(ids, attrs(t, r)["id"].(string))
	}
	require.Equal(t, 201, h.do(request{method: "POST", path: "/v1/assistant/sessions", token: w.other}).status)
	var got []string
	path := "/v1/assistant/sessions?limit=2"
	for path != "" {
		doc := h.do(request{method: "GET", path: path, token: w.agent}).json(t)
		for _, it := range doc["data"].([]any) {
			got = append(got, it.(map[string]any)["id"].(string))
		}
		path, _ = doc["links"].(map[string]any)["next"].(string)
	}
	require.Equal(t, []string{ids[2], ids[1], ids[0]}, got)
	require.Equal(t, 204, h.do(request{method: "DELETE", path: "/v1/assistant/sessions/" + ids[1], token: w.agent}).status)
	doc := h.do(request{method: "GET", path: "/v1/assistant/sessions", token: w.agent}).json(t)
	require.Len(t, doc["data"], 2)
	require.Equal(t, false, doc["meta"].(map[string]any)["has_more"])
	// A cursor of another owner is refused, not followed.
	other := h.do(request{method: "GET", path: "/v1/assistant/sessions?cursor=" + "b3RoZXI", token: w.agent})
	require.Equal(t, 400, other.status)
}
