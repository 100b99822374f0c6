package assistant

// keywords are the words (folded; a trailing * matches any ending) that place a
// message without an id, in every supported language. Route tries the topics in a
// fixed order (sign, transfer, certificate, request, attestation, mine, parcel,
// help), so a keyword only needs to be specific against the topics tried before it:
// "titre de propriété" is a certificate although "propriété" alone is a parcel, and
// "mes parcelles" (mine: the parcels an owner holds with its wallet) is tried before
// "parcelle*". "sign" is the owner's signature that a transfer waits for; it comes
// first, so its words are the owner's own ("my signature", "have to sign"), never the
// bare "sign" or "signature" ("sign in", "sign up").
//
// What is left out on purpose: words that are common outside the topic (fr "bien",
// pt "passar", it "passaggio" and "verifica" alone, de "gültig", ar bare "التحقق",
// which is the everyday "to check"), and short words of another language ("de", "la").
//
// The router keeps an ASCII apostrophe inside a word ("l'attestation" is one word), so
// the elided French and Italian forms of the nouns that begin with a vowel are listed
// as well; a typographic apostrophe (’) splits the word and needs no entry.
//
// Arabic is folded without its harakat and hamza marks (أ, إ and آ become ا), so one
// entry covers both spellings; the forms with the article ال and the first-person
// verbs (أنقل, أبيع) are listed because words are matched from their start.
var keywords = map[string][]string{
	"sign": {
		"my signature", "need to sign", "have to sign", "must i sign", "should i sign", "anything to sign", "transfer to sign", "transfers to sign", "awaiting my", "waiting for me", // en
		"ma signature", "a signer", "je dois signer", "dois je signer", // fr (à signer)
		"mi firma", "que firmar", "debo firmar", "por firmar", // es
		"minha assinatura", "para assinar", "que assinar", "de assinar", "devo assinar", "por assinar", // pt
		"meine unterschrift", "unterschreib*", "unterzeichn*", "signieren", // de
		"mia firma", "da firmare", "devo firmare", // it
		"توقيعي", "للتوقيع", "اوقع", // ar
	},
	"mine": {
		"my parcels", "my lands", "my plots", "my properties", "i own", "owned by me", "in my name", "my wallet", // en
		"mes parcelles", "mes terrains", "mes proprietes", "je possede", "a mon nom", "mon portefeuille", // fr
		"mis parcelas", "mis terrenos", "mis fincas", "mis predios", "mis propiedades", "mis tierras", "poseo", "a mi nombre", "mi cartera", "mi billetera", // es
		"minhas parcelas", "meus terrenos", "meus lotes", "minhas terras", "minhas propriedades", "meus imoveis", "possuo", "em meu nome", "no meu nome", "minha carteira", // pt
		"meine grundstucke", "meine flurstucke", "meine parzellen", "besitze", "gehoren mir", "auf meinen namen", "meine wallet", "mein wallet", // de
		"mie particelle", "miei terreni", "miei immobili", "mie proprieta", "possiedo", "a mio nome", "mio portafoglio", // it
		"املاكي", "ممتلكاتي", "املك", "املكها", "باسمي", "محفظتي", // ar
	},
	"transfer": {
		"transfer*", "sell", "selling", "sold", "sale", "ownership change", "change of ownership", "conveyance", // en
		"vendre", "vends", "vente", "vendu", "ceder", "cession", "mutation", "acte de vente", "changement de proprietaire", // fr (transférer, transfert: transfer*)
		"transfier*", "vender", "vendo", "venta", "compraventa", "ceder", "cesion", "traspas*", "cambio de titular", // es (transferir, transferencia: transfer*)
		"transfir*", "vender", "venda", "vendo", "compra e venda", "trespasse", "passar a propriedade", "passar o terreno", "passar o lote", "passar a parcela", // pt
		"ubertrag*", "uebertrag*", "uberschreib*", "umschreib*", "verkauf*", "ubereign*", "auflassung", "eigentumsubergang", "eigentumswechsel", "eigentumsumschreibung", "eigentumerwechsel", // de
		"trasferi*", "vendere", "vendo", "vendita", "compravendita", "cedere", "cessione", "rogito", "voltura", "passaggio di proprieta", // it
		"نقل", "النقل", "انقل", "بنقل", "لنقل", "ونقل", "تحويل", "بيع", "البيع", "ابيع", "التنازل", "تنازل", "افراغ", "الافراغ", // ar
	},
	"certificate": {
		"certificate*", "authentic*", "genuine", "forged", "forgery", "fake", "title deed", "deed", // en
		"certificat*", "authentique", "authenticite", "l'authenticite", "d'authenticite", "faux", "falsifie", "titre de propriete", // fr
		"certificado*", "autentico", "autentica", "autenticidad", "falso", "falsificado", "titulo de propiedad", "escritura*", // es
		"certificado*", "autentico", "autentica", "autenticidade", "falso", "falsificado", "titulo de propriedade", "escritura*", // pt
		"zertifikat*", "urkunde*", "echt", "echtheit", "gefalscht", "falschung", "grundbuchauszug*", // de
		"certificato", "certificati", "autentico", "autentica", "autenticita", "l'autenticita", "falso", "falsificato", "contraffatto", // it
		"شهادة", "الشهادة", "شهادتي", "شهاده", "الشهاده", "اصلية", "اصلي", "مزورة", "مزور", "سند", "السند", "صك", "الصك", // ar
	},
	"request": {
		"verification request*", "verification", // en
		"demande de verification", "verification", // fr
		"solicitud de verificacion", "verificacion", // es
		"pedido de verificacao", "solicitacao de verificacao", "verificacao", // pt
		"verifizierungsanfrage*", "uberprufungsanfrage*", "prufanfrage*", "verifizierung", // de
		"richiesta di verifica", "richieste di verifica", // it
		"طلب التحقق", "طلب تحقق", "طلبات التحقق", // ar
	},
	"attestation": {
		"attestation*", "l'attestation*", "d'attestation*", // en, fr
		"atestacion*", "atestado*", // es
		"atestacao", "atestacoes", "atestado*", // pt
		"attestierung*", "bescheinigung*", "nachweis*", // de
		"attestazione", "attestazioni", "l'attestazione", "dell'attestazione", "un'attestazione", // it
		"افادة", "الافادة", "افادتي", "افادات", "الافادات", // ar
	},
	"parcel": {
		"parcel*", "land", "lands", "plot", "plots", "property", // en
		"parcelle*", "terrain*", "propriete", // fr
		"parcela*", "terreno*", "finca*", "predio*", "tierra", "tierras", "propiedad", // es
		"lote", "lotes", "terreno*", "parcela*", "terra", "terras", "imovel", "imoveis", "propriedade", // pt
		"grundstuck*", "flurstuck*", "parzelle*", "grundbuch*", // de
		"particella", "particelle", "terreno", "terreni", "lotto", "immobile", "immobili", "catasto", "visura", // it
		"قطعة", "القطعة", "قطعه", "قطعتي", "ارض", "ارضي", "الارض", "لارضي", "بارضي", "اراضي", "الاراضي", "عقار", "العقار", "عقاري", // ar
	},
	"help": {
		"help", "hello", "hi", "hey", "what can you do", "thanks", "thank you", // en
		"aide", "aidez", "bonjour", "bonsoir", "salut", "merci", "que peux tu faire", "que pouvez vous faire", // fr
		"ayuda", "ayudame", "hola", "buenos dias", "buenas tardes", "gracias", "que puedes hacer", // es
		"ajuda", "ajude", "ola", "oi", "bom dia", "boa tarde", "obrigado", "obrigada", "o que voce pode fazer", "o que pode fazer", // pt
		"hilfe", "hallo", "guten tag", "danke", "was kannst du", "was konnen sie", // de
		"aiuto", "aiutami", "ciao", "salve", "buongiorno", "buonasera", "grazie", "cosa puoi fare", // it
		"مساعدة", "المساعدة", "ساعدني", "مرحبا", "اهلا", "السلام", "شكرا", // ar
	},
}
