package assistant_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// The router places a question in any supported language by its entities and
// keywords.
func ExampleRoute() {
	for _, q := range []string{
		"Wie übertrage ich mein Grundstück?",
		"Le certificat 0x" + fmt.Sprintf("%064x", 7) + " est-il authentique ?",
		"ما هي حالة طلب التحقق vrq_abcdefghijklmnopqrstuvwxyz؟",
	} {
		intent, e := assistant.Route(q)
		fmt.Println(intent, assistant.DetectLanguage(q).Language, len(e.Hashes)+len(e.Requests))
	}
	// Output:
	// transfer_howto de 0
	// certificate_check fr 1
	// verification_request_status ar 1
}

// A session: a question in Portuguese, answered in Portuguese, stored sealed.
func Example() {
	dir, _ := os.MkdirTemp("", "assistant-example")
	defer os.RemoveAll(dir)
	store, _ := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	defer store.Close()
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	fields, _ := fieldcrypt.NewKeyring("k1", map[string][]byte{"k1": key}, rand.Reader)
	svc := &assistant.Service{Store: store, Fields: fields}

	holder := veriland.Principal{Subject: "user-1", Role: veriland.RoleHolder, Env: veriland.Sandbox, Account: "acct_1"}
	reply, err := svc.Send(context.Background(), holder, assistant.MessageRequest{Text: "Como posso transferir o meu terreno?"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Language, reply.Intent)
	page, _ := svc.GetSession(context.Background(), holder, reply.SessionID, "", 10)
	fmt.Println(page.MessageCount, *page.Language)
	// Output:
	// pt transfer_howto
	// 2 pt
}
