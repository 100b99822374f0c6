package assistant

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Real id shapes: a prefix and 26 characters of base32 ([a-z2-7]).
const (
	i18nParcel      = "prc_7kq2m4xw3z5n6b7c2d3e4f5g6h"
	i18nRequest     = "vrq_a2b3c4d5e6f7g2h3i4j5k6l7mn"
	i18nAttestation = "att_q2r3s4t5u6v7w2x3y4z5a6b7cd"
	i18nHash        = "0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
)

var templatePlaceholder = regexp.MustCompile(`\{[A-Za-z]+\}`)

func templatePlaceholders(t string) []string {
	ps := templatePlaceholder.FindAllString(t, -1)
	sort.Strings(ps)
	return slices.Compact(ps)
}

func catalogKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func TestAnswerCatalogs(t *testing.T) {
	want := catalogKeys(answersEN)
	for _, lang := range Languages {
		t.Run(lang, func(t *testing.T) {
			catalog, ok := answers[lang]
			if !ok {
				t.Fatalf("no catalog for %s", lang)
			}
			if got := catalogKeys(catalog); !slices.Equal(got, want) {
				for _, k := range want {
					if _, ok := catalog[k]; !ok {
						t.Errorf("missing key %q", k)
					}
				}
				for _, k := range got {
					if _, ok := answersEN[k]; !ok {
						t.Errorf("extra key %q", k)
					}
				}
			}
			for _, k := range want {
				tpl, en := catalog[k], answersEN[k]
				if strings.TrimSpace(tpl) == "" {
					t.Errorf("%s: empty template", k)
				}
				if strings.Contains(strings.ToUpper(tpl), "TODO") {
					t.Errorf("%s: contains TODO: %q", k, tpl)
				}
				if got, want := templatePlaceholders(tpl), templatePlaceholders(en); !slices.Equal(got, want) {
					t.Errorf("%s: placeholders %v, English has %v", k, got, want)
				}
				// A brace outside a placeholder would be a typo that fill leaves in the answer.
				if rest := templatePlaceholder.ReplaceAllString(tpl, ""); strings.ContainsAny(rest, "{}") {
					t.Errorf("%s: stray brace in %q", k, tpl)
				}
				// API paths, id prefixes and status enums are the same in every language.
				for _, literal := range []string{"POST /v1/parcels", "GET /v1/parcels", "/transfer", "prc_", "vrq_", "att_", "0x", "SUPERSEDED", "PDF",
					"GET /v1/me/parcels", "POST /auth/siwe", "PENDING_OWNER", "Sign-In with Ethereum"} {
					if strings.Contains(en, literal) && !strings.Contains(tpl, literal) {
						t.Errorf("%s: %q translated or lost", k, literal)
					}
				}
			}
		})
	}
}

func TestAnswerRender(t *testing.T) {
	vars := map[string]string{"id": i18nParcel, "city": "Lyon", "notary": "Maître Durand", "version": "2",
		"date": "2026-03-01", "hash": i18nHash, "token": "42", "created": "2026-02-01"}
	for _, lang := range Languages {
		got := render(lang, []sentence{{"parcel.status.CERTIFIED", vars}, {"parcel.mine", map[string]string{"count": "1"}},
			{"parcel.mine.item.CERTIFIED", vars}})
		for _, v := range []string{i18nParcel, i18nHash, "Lyon", "2026-03-01", "\n• " + i18nParcel} {
			if !strings.Contains(got, v) {
				t.Errorf("%s: answer %q does not cite %q", lang, got, v)
			}
		}
		if strings.ContainsAny(got, "{}") {
			t.Errorf("%s: unfilled placeholder in %q", lang, got)
		}
	}
}

// i18nQuestion is a question, its language and where the router must place it; long
// questions are also checked by the language detector.
type i18nQuestion struct {
	lang, text string
	want       Intent
}

var i18nRouteCases = []i18nQuestion{
	{"en", "What is the status of my parcel?", IntentParcelStatus},
	{"en", "What is the status of " + i18nParcel + "?", IntentParcelStatus},
	{"en", "Is certificate " + i18nHash + " authentic?", IntentCertificateCheck},
	{"en", "How do I transfer my land?", IntentTransferHowTo},
	{"en", "Can I sell " + i18nParcel + " now?", IntentTransferHowTo},
	{"en", "What is the status of " + i18nRequest + "?", IntentVerificationStatus},
	{"en", "Is " + i18nAttestation + " still valid?", IntentAttestationStatus},
	{"en", "Is my certificate genuine?", IntentCertificateCheck},
	{"en", "help", IntentHelp},
	{"en", "Hello!", IntentHelp},
	{"en", "Which parcels do I own?", IntentMyParcels},
	{"en", "Is there a transfer waiting for my signature?", IntentMyParcels},
	{"en", "Show me my lands", IntentMyParcels},

	{"fr", "Quel est le statut de ma parcelle ?", IntentParcelStatus},
	{"fr", "Quel est le statut de la parcelle " + i18nParcel + " ?", IntentParcelStatus},
	{"fr", "Le certificat " + i18nHash + " est-il authentique ?", IntentCertificateCheck},
	{"fr", "Comment transférer mon terrain ?", IntentTransferHowTo},
	{"fr", "Je veux vendre mon terrain, comment faire ?", IntentTransferHowTo},
	{"fr", "Où en est la demande de vérification " + i18nRequest + " ?", IntentVerificationStatus},
	{"fr", "L'attestation " + i18nAttestation + " est-elle toujours valable ?", IntentAttestationStatus},
	{"fr", "Mon titre de propriété est-il authentique ?", IntentCertificateCheck},
	{"fr", "Où en est l'attestation ?", IntentAttestationStatus},
	{"fr", "Aide", IntentHelp},
	{"fr", "Bonjour", IntentHelp},
	{"fr", "Quelles sont mes parcelles ?", IntentMyParcels},
	{"fr", "Ai-je une mutation à signer ?", IntentMyParcels},

	{"es", "¿Cuál es el estado de mi parcela?", IntentParcelStatus},
	{"es", "¿Cuál es el estado de la parcela " + i18nParcel + "?", IntentParcelStatus},
	{"es", "¿Es auténtico el certificado " + i18nHash + "?", IntentCertificateCheck},
	{"es", "¿Cómo transfiero mi terreno?", IntentTransferHowTo},
	{"es", "¿Cuál es el estado de la solicitud " + i18nRequest + "?", IntentVerificationStatus},
	{"es", "¿Sigue siendo válida la atestación " + i18nAttestation + "?", IntentAttestationStatus},
	{"es", "Ayuda", IntentHelp},
	{"es", "Hola", IntentHelp},
	{"es", "¿Qué parcelas tengo a mi nombre?", IntentMyParcels},
	{"es", "¿Tengo alguna transmisión que firmar?", IntentMyParcels},

	{"pt", "Qual é o estado da minha parcela?", IntentParcelStatus},
	{"pt", "Qual é a situação da parcela " + i18nParcel + "?", IntentParcelStatus},
	{"pt", "O certificado " + i18nHash + " é autêntico?", IntentCertificateCheck},
	{"pt", "Como transfiro o meu terreno?", IntentTransferHowTo},
	{"pt", "Como faço para transferir a minha terra?", IntentTransferHowTo},
	{"pt", "Qual é o estado do pedido " + i18nRequest + "?", IntentVerificationStatus},
	{"pt", "O atestado " + i18nAttestation + " ainda é válido?", IntentAttestationStatus},
	{"pt", "Ajuda", IntentHelp},
	{"pt", "Olá", IntentHelp},
	{"pt", "Quais são as minhas parcelas?", IntentMyParcels},
	{"pt", "Tenho alguma transferência para assinar?", IntentMyParcels},

	{"de", "Wie ist der Status meines Grundstücks?", IntentParcelStatus},
	{"de", "Wie ist der Status von " + i18nParcel + "?", IntentParcelStatus},
	{"de", "Ist das Zertifikat " + i18nHash + " echt?", IntentCertificateCheck},
	{"de", "Wie übertrage ich mein Grundstück?", IntentTransferHowTo},
	{"de", "Was ist der Stand der Anfrage " + i18nRequest + "?", IntentVerificationStatus},
	{"de", "Ist die Bescheinigung " + i18nAttestation + " noch gültig?", IntentAttestationStatus},
	{"de", "Ist mein Grundbuchauszug echt?", IntentCertificateCheck},
	{"de", "Hilfe", IntentHelp},
	{"de", "Guten Tag", IntentHelp},
	{"de", "Welche Grundstücke besitze ich?", IntentMyParcels},
	{"de", "Muss ich eine Übertragung unterschreiben?", IntentMyParcels},

	{"it", "Qual è lo stato della mia particella?", IntentParcelStatus},
	{"it", "Qual è lo stato della particella " + i18nParcel + "?", IntentParcelStatus},
	{"it", "Il certificato " + i18nHash + " è autentico?", IntentCertificateCheck},
	{"it", "Come trasferisco il mio terreno?", IntentTransferHowTo},
	{"it", "Qual è lo stato della richiesta " + i18nRequest + "?", IntentVerificationStatus},
	{"it", "L'attestazione " + i18nAttestation + " è ancora valida?", IntentAttestationStatus},
	{"it", "Verifica lo stato della mia particella", IntentParcelStatus},
	{"it", "Aiuto", IntentHelp},
	{"it", "Buongiorno", IntentHelp},
	{"it", "Quali sono le mie particelle?", IntentMyParcels},
	{"it", "Quali trasferimenti devo firmare?", IntentMyParcels},

	{"ar", "ما هي حالة قطعة أرضي؟", IntentParcelStatus},
	{"ar", "ما هي حالة قطعة الأرض " + i18nParcel + "؟", IntentParcelStatus},
	{"ar", "هل الشهادة " + i18nHash + " أصلية؟", IntentCertificateCheck},
	{"ar", "كيف أنقل ملكية أرضي؟", IntentTransferHowTo},
	{"ar", "كَيْفَ أَنْقُلُ مِلْكِيَّةَ أَرْضِي؟", IntentTransferHowTo},
	{"ar", "ما هي حالة طلب التحقق " + i18nRequest + "؟", IntentVerificationStatus},
	{"ar", "هل الإفادة " + i18nAttestation + " لا تزال صالحة؟", IntentAttestationStatus},
	{"ar", "أريد التحقق من حالة أرضي", IntentParcelStatus},
	{"ar", "مساعدة", IntentHelp},
	{"ar", "مرحبا", IntentHelp},
	{"ar", "ما هي أملاكي المسجلة؟", IntentMyParcels},
	{"ar", "هل هناك نقل ملكية بانتظار توقيعي؟", IntentMyParcels},
}

// i18nRouteOnlyCases are terse questions that the router must place although they are
// too short for the language detector to be sure of (the session's language decides).
var i18nRouteOnlyCases = []i18nQuestion{
	{"fr", "Statut de " + i18nRequest + " ?", IntentVerificationStatus},
	{"es", "Estado de " + i18nRequest, IntentVerificationStatus},
	{"pt", "Estado de " + i18nRequest + "?", IntentVerificationStatus},
	{"de", "Status von " + i18nRequest + "?", IntentVerificationStatus},
	{"it", "Stato di " + i18nRequest + "?", IntentVerificationStatus},
	{"ar", "حالة " + i18nRequest + "؟", IntentVerificationStatus},
	{"fr", i18nAttestation + " est-elle toujours valable ?", IntentAttestationStatus},
	{"es", "¿" + i18nAttestation + " sigue siendo válida?", IntentAttestationStatus},
	{"pt", i18nAttestation + " ainda é válido?", IntentAttestationStatus},
	{"de", "Ist " + i18nAttestation + " noch gültig?", IntentAttestationStatus},
	{"it", i18nAttestation + " è ancora valida?", IntentAttestationStatus},
	{"fr", "Quel est le statut de " + i18nParcel + " ?", IntentParcelStatus},
	{"es", "¿Cuál es el estado de " + i18nParcel + "?", IntentParcelStatus},
	{"pt", "Qual é o estado de " + i18nParcel + "?", IntentParcelStatus},
	{"it", "Qual è lo stato di " + i18nParcel + "?", IntentParcelStatus},
	{"de", "Wie verkaufe ich mein Grundstück?", IntentTransferHowTo},
	{"it", "Come posso vendere il mio terreno?", IntentTransferHowTo},
	{"es", "¿Cómo vendo mi finca?", IntentTransferHowTo},
	{"ar", "كيف أبيع أرضي؟", IntentTransferHowTo},
	{"ar", "هل شهادتي أصلية؟", IntentCertificateCheck},
	{"pt", "O meu certificado é autêntico?", IntentCertificateCheck},
	{"fr", "Comment vérifier mon certificat ?", IntentCertificateCheck},
	{"en", "Do I have a transfer to sign?", IntentMyParcels},
	{"en", "How do I sign in?", IntentUnknown},
	{"en", "I want to sign up", IntentUnknown},
	{"es", "¿Cuáles son mis parcelas?", IntentMyParcels},
	{"it", "Ho un trasferimento da firmare?", IntentMyParcels},
	{"de", "Zeige meine Grundstücke", IntentMyParcels},
	{"pt", "Que terrenos tenho em meu nome?", IntentMyParcels},
	{"ar", "ما هي العقارات باسمي؟", IntentMyParcels},
}

func TestRouteEveryLanguage(t *testing.T) {
	seen := map[string]map[Intent]bool{}
	for _, c := range append(slices.Clone(i18nRouteCases), i18nRouteOnlyCases...) {
		got, e := Route(c.text)
		if got != c.want {
			t.Errorf("%s: Route(%q) = %s, want %s", c.lang, c.text, got, c.want)
		}
		if strings.Contains(c.text, i18nParcel) && (len(e.Parcels) != 1 || e.Parcels[0] != i18nParcel) {
			t.Errorf("%s: Route(%q) parcels %v", c.lang, c.text, e.Parcels)
		}
		if seen[c.lang] == nil {
			seen[c.lang] = map[Intent]bool{}
		}
		seen[c.lang][got] = true
	}
	// Every language covers every intent of the embedded router.
	for _, lang := range Languages {
		for _, in := range []Intent{IntentParcelStatus, IntentMyParcels, IntentCertificateCheck, IntentTransferHowTo,
			IntentVerificationStatus, IntentAttestationStatus, IntentHelp} {
			if !seen[lang][in] {
				t.Errorf("%s: no question routed to %s", lang, in)
			}
		}
	}
}

func TestDetectLanguageOfQuestions(t *testing.T) {
	for _, c := range i18nRouteCases {
		if len(wordsOf(noise.ReplaceAllString(c.text, " "))) < 3 {
			continue // greetings and one-word questions yield to the session's language
		}
		if d := DetectLanguage(c.text); d.Language != c.lang {
			t.Errorf("DetectLanguage(%q) = %+v, want %s", c.text, d, c.lang)
		}
	}
}

// Keywords are matched against folded text, so one not in folded form never matches,
// and one listed under two topics would be decided by the order of Route alone.
func TestRouteKeywordsFolded(t *testing.T) {
	topic := map[string]string{}
	for tp, ks := range keywords {
		for _, k := range ks {
			if f := fold(k); f != k {
				t.Errorf("%s: keyword %q is not folded (%q)", tp, k, f)
			}
			if strings.TrimSpace(k) != k || k == "" || strings.Contains(k, "  ") {
				t.Errorf("%s: keyword %q has stray spaces", tp, k)
			}
			if other, ok := topic[k]; ok && other != tp {
				t.Errorf("keyword %q is in %s and %s", k, other, tp)
			}
			topic[k] = tp
		}
	}
	// The Arabic hamza forms fold onto the bare alef, so one entry covers both.
	for _, pair := range [][2]string{{"أرض", "ارض"}, {"إفادة", "افادة"}, {"آراضي", "اراضي"}, {"أَنْقُلُ", "انقل"}} {
		if got := fold(pair[0]); got != pair[1] {
			t.Errorf("fold(%q) = %q, want %q", pair[0], got, pair[1])
		}
	}
}
