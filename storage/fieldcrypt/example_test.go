package fieldcrypt_test

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"

	"github.com/veriland/veriland/storage/fieldcrypt"
)

// A field is sealed for its record, stored as JSON, and opened with the same AAD.
func Example() {
	dir, err := os.MkdirTemp("", "fieldcrypt")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	ring, err := fieldcrypt.LoadOrCreate(dir, rand.Reader) // dir/field.keys, mode 0600
	if err != nil {
		panic(err)
	}
	aad := []byte("parcel:SANDBOX:prc_01:owner.fullName")
	sealed, err := ring.Seal([]byte("Amina Diallo"), aad)
	if err != nil {
		panic(err)
	}
	stored, _ := json.Marshal(sealed) // {"kid":"fk_…","n":"…","c":"…"}

	var back fieldcrypt.Sealed
	if err := json.Unmarshal(stored, &back); err != nil {
		panic(err)
	}
	name, err := ring.Open(back, aad)
	fmt.Println(string(name), err)

	_, err = ring.Open(back, []byte("parcel:SANDBOX:prc_02:owner.fullName"))
	fmt.Println(err)
	// Output:
	// Amina Diallo <nil>
	// fieldcrypt: message authentication failed
}
