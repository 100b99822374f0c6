package jsonappend_test

import (
	"encoding/json"
	"fmt"

	"github.com/veriland/veriland/internal/jsonappend"
)

// A hand-written encoder of a small object, from the appenders: the same bytes as
// json.Marshal of the equivalent struct.
func Example() {
	b := append([]byte(nil), `{"id":`...)
	b = jsonappend.String(b, "att_<1>")
	b = append(b, `,"claims":`...)
	b, err := jsonappend.Raw(b, []byte(` {"is_adult": true} `))
	if err != nil {
		panic(err)
	}
	b = append(b, '}')
	fmt.Println(string(b))

	want, _ := json.Marshal(struct {
		ID     string          `json:"id"`
		Claims json.RawMessage `json:"claims"`
	}{"att_<1>", json.RawMessage(` {"is_adult": true} `)})
	fmt.Println(string(want) == string(b))
	// Output:
	// {"id":"att_\u003c1\u003e","claims":{"is_adult":true}}
	// true
}
