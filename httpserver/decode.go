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
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err // *http.MaxBytesError → 413
	}
	return decodeStrict(body, dst)
}

func decodeStrict(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return invalidJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return veriland.Errorf(veriland.CodeInvalidJSON, "the body holds data after the JSON value")
	}
	if _, ok := tree.(map[string]any); !ok {
		return veriland.Errorf(veriland.CodeInvalidJSON, "the body must be a JSON object")
	}
	var unknown veriland.Errors
	findUnknown(tree, reflect.TypeOf(dst), "", &unknown)
	if len(unknown) > 0 {
		return unknown.Err()
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			ptr := "/" + strings.ReplaceAll(typeErr.Field, ".", "/")
			return veriland.Invalid(ptr, "must be %s, not a JSON %s", typeName(typeErr.Type), typeErr.Value)
		}
		return invalidJSON(err)
	}
	return nil
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

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// findUnknown walks a decoded JSON tree alongside the Go type it will decode into
// and records every object member the type does not declare.
func findUnknown(v any, t reflect.Type, ptr string, out *veriland.Errors) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawMessageType || t.Kind() == reflect.Interface {
		return
	}
	if t.Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) ||
		reflect.PointerTo(t).Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) {
		return // custom decoding validates itself
	}
	switch node := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			for k, child := range node {
				findUnknown(child, t.Elem(), ptr+"/"+escapePointer(k), out)
			}
		case reflect.Struct:
			fields := jsonFields(t)
			for k, child := range node {
				ft, ok := fields[k]
				if !ok {
					*out = append(*out, &veriland.Error{Code: veriland.CodeUnknownField,
						Message: fmt.Sprintf("unknown member %q", k), Pointer: ptr + "/" + escapePointer(k)})
					continue
				}
				findUnknown(child, ft, ptr+"/"+escapePointer(k), out)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, child := range node {
				findUnknown(child, t.Elem(), fmt.Sprintf("%s/%d", ptr, i), out)
			}
		}
	}
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
