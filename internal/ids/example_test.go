package ids_test

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"github.com/veriland/veriland/internal/ids"
)

func Example() {
	id, _ := ids.New(rand.Reader, "att")
	did, _ := ids.NewDID(rand.Reader)
	fmt.Println(ids.Valid(id, "att"), len(id), strings.HasPrefix(did, "did:veriland:"), len(did))
	// Output: true 30 true 35
}

func ExampleNewOrdered() {
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	first, _ := ids.NewOrdered(rand.Reader, "msg", at)
	second, _ := ids.NewOrdered(rand.Reader, "msg", at.Add(time.Millisecond))
	fmt.Println(ids.Valid(first, "msg"), first < second)
	// Output: true true
}
