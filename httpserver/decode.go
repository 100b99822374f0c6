package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/veriland/veriland"
)

// Body limits (SPEC S2.1).
const (
	limitJSON       = 1 << 20
	limitChipVerify = 2 << 20
	limitVoice      = 25 << 20
)

// checkContentType refuses request bodies that are not application/json (415).
func checkContentType(r *http.Request, want string) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != want && !(want == mediaJSON && mt == mediaJSONAPI)) {
		return veriland.Errorf(veriland.CodeUnsupportedMediaType, "Content-Type must be %s", want)
	}
	return nil
}

// decodeJSON reads the request body into dst strictly: malformed JSON, trailing data,
// members dst does not declare (matched exactly, not case-insensitively) and wrong
// types are refused with 400 and a JSON pointer to each offending member. An empty
// body decodes as {}.
func decodeJSON(r *http.Request, dst any) error {
	body, err := readBody(r, nil)
	if err != nil {
		// *http.MaxBytesError → 413; a *bodyReadError (broken framing, a body cut
		// short) → 400 invalid_json; never 500 (SPEC S2.2).
		return err
	}
	return decodeStrict(body, dst)
}

// readBody reads r's body as io.ReadAll does, appending to b (its length ignored),
// which it first sizes from Content-Length when the client sent one: io.ReadAll
// starts at 512 bytes and grows the buffer about twenty times, copying, for a 200 kB
// body. The declared length only sizes the buffer, up to maxBodyPresize so that a
// client declaring more than it sends pins no more than that; what is read is what
// the body holds, and its errors are io.ReadAll's.
func readBody(r *http.Request, b []byte) ([]byte, error) {
	b = b[:0]
	n := int64(512)
	if r.ContentLength > 0 {
		n = min(r.ContentLength, maxBodyPresize) + 1 // +1: room to see io.EOF without growing
	}
	if int64(cap(b)) < n {
		b = make([]byte, 0, n)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Body.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
	}
}

// maxBodyPresize bounds the buffer readBody allocates before any byte arrives: a
// verification body with 10,000 timestamps of up to 25 characters (a larger body,
// up to its route's limit, grows the buffer as io.ReadAll would).
const maxBodyPresize = 256 << 10

func decodeStrict(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	// Decode first: json.Unmarshal checks the syntax of the whole body before it
	// decodes anything, so unless it reports a syntax error the body is one valid
	// JSON value, which the member check below walks without decoding it again into
	// a tree (a body of 10,000 frame timestamps costs about one decoding; SPEC S4).
	// dst is the caller's scratch value: nothing uses it when an error is returned.
	decErr := json.Unmarshal(body, dst)
	var typeErr *json.UnmarshalTypeError
	var syn *json.SyntaxError
	if errors.As(decErr, &syn) {
		return syntaxError(body, decErr)
	}
	if i := skipSpace(body, 0); body[i] != '{' {
		return veriland.Errorf(veriland.CodeInvalidJSON, "the body must be a JSON object")
	}
	var unknown veriland.Errors
	w := memberWalker{data: body, out: &unknown, seen: map[string]bool{}}
	w.value(skipSpace(body, 0), reflect.TypeOf(dst), "")
	if len(unknown) > 0 {
		return unknown.Err()
	}
	switch {
	case decErr == nil:
		return nil
	case errors.As(decErr, &typeErr):
		ptr := "/" + strings.ReplaceAll(typeErr.Field, ".", "/")
		return veriland.Invalid(ptr, "must be %s, not a JSON %s", typeName(typeErr.Type), typeErr.Value)
	}
	return invalidJSON(decErr)
}

// syntaxError classifies a body that is not one valid JSON value: invalid JSON (with
// the offset of the error) or data after the JSON value.
func syntaxError(body []byte, err error) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var first json.RawMessage
	if derr := dec.Decode(&first); derr != nil {
		return invalidJSON(derr)
	}
	if _, terr := dec.Token(); terr != io.EOF {
		return veriland.Errorf(veriland.CodeInvalidJSON, "the body holds data after the JSON value")
	}
	return invalidJSON(err)
}

func invalidJSON(err error) error {
	e := veriland.Errorf(veriland.CodeInvalidJSON, "the body is not valid JSON")
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		e = e.WithMeta("offset", syn.Offset)
	}
	return e
}

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.Kind().String()
}

var (
	rawMessageType  = reflect.TypeOf(json.RawMessage(nil))
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

// checked reports whether values of type t need their members checked: t (through
// pointers) is a struct, a map or a slice or array of such, and neither
// json.RawMessage nor a json.Unmarshaler (custom decoding validates itself).
func checked(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawMessageType || t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return true
	case reflect.Slice, reflect.Array:
		return checked(t.Elem())
	}
	return false
}

// memberWalker walks a syntactically valid JSON value alongside the Go type it
// decodes into and records every object member the type does not declare, with its
// JSON pointer. It checks every occurrence of a repeated member (json.Unmarshal keeps
// the last one, but the client sent them all), and it only scans what cannot hold an
// object member of a declared type (strings, numbers, arrays of them, json.RawMessage,
// interfaces, custom decoders), without decoding it.
type memberWalker struct {
	data []byte
	out  *veriland.Errors
	seen map[string]bool // pointers already reported
}

// value walks the value starting at data[i] (not a space) and returns the index
// after it.
func (w *memberWalker) value(i int, t reflect.Type, ptr string) int {
	if checked(t) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case w.data[i] == '{' && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map):
			return w.object(i, t, ptr)
		case w.data[i] == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			return w.array(i, t.Elem(), ptr)
		}
	}
	return skipValue(w.data, i)
}

func (w *memberWalker) object(i int, t reflect.Type, ptr string) int {
	var fields map[string]reflect.Type
	if t.Kind() == reflect.Struct {
		fields = jsonFields(t)
	}
	i = skipSpace(w.data, i+1)
	if w.data[i] == '}' {
		return i + 1
	}
	for {
		end := skipString(w.data, i)
		key := memberName(w.data[i:end])
		i = skipSpace(w.data, end)
		i = skipSpace(w.data, i+1) // ':'
		var child reflect.Type
		if fields == nil {
			child = t.Elem()
		} else if ft, ok := fields[key]; ok {
			child = ft
		} else if p := ptr + "/" + escapePointer(key); !w.seen[p] {
			w.seen[p] = true
			*w.out = append(*w.out, &veriland.Error{Code: veriland.CodeUnknownField,
				Message: fmt.Sprintf("unknown member %q", key), Pointer: p})
		}
		if checked(child) {
			i = w.value(i, child, ptr+"/"+escapePointer(key))
		} else {
			i = skipValue(w.data, i)
		}
		i = skipSpace(w.data, i)
		if w.data[i] == '}' {
			return i + 1
		}
		i = skipSpace(w.data, i+1) // ','
	}
}

func (w *memberWalker) array(i int, elem reflect.Type, ptr string) int {
	if !checked(elem) {
		return skipValue(w.data, i)
	}
	i = skipSpace(w.data, i+1)
	if w.data[i] == ']' {
		return i + 1
	}
	for n := 0; ; n++ {
		i = skipSpace(w.data, w.value(i, elem, fmt.Sprintf("%s/%d", ptr, n)))
		if w.data[i] == ']' {
			return i + 1
		}
		i = skipSpace(w.data, i+1) // ','
	}
}

// memberName decodes a member name (a quoted JSON string) as encoding/json does.
func memberName(quoted []byte) string {
	plain := true
	for _, c := range quoted {
		if c == '\\' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	_ = json.Unmarshal(quoted, &s) // valid JSON: cannot fail
	return s
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// skipString returns the index after the JSON string starting at data[i].
func skipString(data []byte, i int) int {
	for i++; ; i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
}

// skipValue returns the index after the valid JSON value starting at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for {
			switch data[i] {
			case '"':
				i = skipString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// jsonFields lists the JSON member names of struct type t, with promoted fields of
// embedded structs.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					fields[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
