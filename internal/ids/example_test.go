package ids_test

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/veriland/veriland/internal/ids"
)

func Example() {
	id, _ := ids.New(rand.Reader, "att")
	did, _ := ids.NewDID(rand.Reader)
	fmt.Println(ids.Valid(id, "att"), len(id), strings.HasPrefix(did, "did:veriland:"), len(did))
	// Output: true 30 true 35
}
