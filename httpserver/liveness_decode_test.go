package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/liveness"
)

// decodeStrict no longer decodes the whole body into a generic tree to find unknown
// members (10,000 frame timestamps made 50,000 allocations). These tests check it
// against that tree-based implementation, kept here as the oracle.

func oracleDecodeStrict(body []byte, dst any) error {
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
	oracleFindUnknown(tree, reflect.TypeOf(dst), "", &unknown)
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

func oracleFindUnknown(v any, t reflect.Type, ptr string, out *veriland.Errors) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t == rawMessageType || t.Kind() == reflect.Interface {
		return
	}
	if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	switch node := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			for k, child := range node {
				oracleFindUnknown(child, t.Elem(), ptr+"/"+escapePointer(k), out)
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
				oracleFindUnknown(child, ft, ptr+"/"+escapePointer(k), out)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, child := range node {
				oracleFindUnknown(child, t.Elem(), fmt.Sprintf("%s/%d", ptr, i), out)
			}
		}
	}
}

// decodeProbe has every shape findUnknown walks.
type decodeProbe struct {
	Name    string                        `json:"name"`
	Items   []decodeProbeItem             `json:"items"`
	PItems  []*decodeProbeItem            `json:"pItems"`
	Grid    [][]decodeProbeItem           `json:"grid"`
	ByKey   map[string]decodeProbe        `json:"byKey"`
	Arr     [2]decodeProbeItem            `json:"arr"`
	Inner   *decodeProbeItem              `json:"inner"`
	Raw     json.RawMessage               `json:"raw"`
	Any     any                           `json:"any"`
	When    time.Time                     `json:"when"`
	Nums    []int64                       `json:"nums"`
	Bytes   []byte                        `json:"bytes"`
	Free    map[string]any                `json:"free"`
	Deep    map[string][]*decodeProbeItem `json:"deep"`
	Skipped string                        `json:"-"`
	decodeProbeEmbedded
}

type decodeProbeItem struct {
	X int    `json:"x"`
	Y string `json:"y,omitempty"`
}

type decodeProbeEmbedded struct {
	Promoted bool `json:"promoted"`
}

var decodeProbeBodies = []string{
	``, `   `, `{}`, `null`, `[]`, `[1]`, `5`, `"s"`, `{} {}`, `{} x`, `{`, `{"name":}`, `{"name": "a"}`,
	`{"nope": 1}`, `{"Name": "case"}`, `{"name": 5}`, `{"nope": 1, "name": 5}`,
	`{"items": [{"x": 1}, {"x": 2, "z": 3}]}`, `{"items": [1, {"q": 1}]}`, `{"items": {"x": 1}}`,
	`{"pItems": [null, {"x": 1, "w": 0}]}`, `{"grid": [[{"x": 1}], [{"x": 1, "k": 2}]]}`,
	`{"byKey": {"a/b": {"name": "x", "u~v": 1}}}`, `{"arr": [{"x": 1}, {"x": 2}, {"x": 3, "o": 1}]}`,
	`{"inner": {"x": 1, "evil": {"deep": 1}}}`, `{"inner": null}`, `{"raw": {"anything": [1, {"goes": 2}]}}`,
	`{"any": {"free": 1}}`, `{"when": "2026-11-21T12:00:00Z"}`, `{"when": {"x": 1}}`,
	`{"nums": [1, 2, 3, {"a": 1}]}`, `{"nums": [1.5]}`, `{"bytes": "AAEC"}`, `{"free": {"a": {"b": 1}}}`,
	`{"deep": {"k": [null, {"x": 1}, {"zz": 1}]}}`, `{"Skipped": 1}`, `{"-": 1}`, `{"promoted": true}`,
	`{"decodeProbeEmbedded": {}}`, `{"name": "a", "name": "b"}`, `{"inner": {"zz": 1}, "inner": {"x": 1}}`,
	`{"na\u006de": "escaped key"}`, "{\"name\":\"a\"}\n", `{"items": [{"x": 1}]} `, `  {"items":[]}  `,
	`{"image": "AAAA", "frames": ["a"], "faceTemplate": [0.1]}`, `{"image": 1, "image": 2}`,
	`{"camera": {"frame": "AAAA", "physicalSensorId": "x"}, "camera": {"physicalSensorId": "x"}}`,
	`{"items": [{"x": 1, "x": 2}]}`, `{"na\\me": 1}`, `{"\u00e9": 1, "é": 2}`, "{\"\xff\": 1}",
	`{"inner": {"x": 1}} `, `{"nums": [1e400]}`, `{"when": "yesterday"}`, `{"when": "yesterday", "zz": 1}`,
	`{"frameTimestamps": [1, 2.5, 1e3, -0]}`, `{"frameTimestamps": [1, null]}`, `{"frameTimestamps": [1, "2"]}`, `{"frameTimestamps": 5}`,
	`{"evidence": {"timing": {"frameCount": 1.5, "sessionDurationMs": "x"}, "camera": {"frame": 1}}}`,
	`{"attestation": {"type": "MOCK", "token": 12345678}}`, `{"evidence": {"sensor": {"imuCorrelation": -1}, "challenge": []}}`,
}

func sortedErrs(err error) []string {
	if err == nil {
		return nil
	}
	list := veriland.ErrorList(err)
	if list == nil {
		return []string{err.Error()}
	}
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = string(e.Code) + " " + e.Pointer
	}
	slices.Sort(out)
	return out
}

// checkDecodeAgainstOracle: the same errors (codes and pointers) and the same value,
// except that a body repeating a member may also be refused for the unknown members
// of an occurrence the oracle never looked at (it kept only the last one).
func checkDecodeAgainstOracle(t *testing.T, body []byte, newDst func() any) {
	t.Helper()
	got, want := newDst(), newDst()
	gotErr, wantErr := decodeStrict(body, got), oracleDecodeStrict(body, want)
	if hasRepeatedMember(body) && !slices.Equal(sortedErrs(wantErr), sortedErrs(gotErr)) {
		require.Error(t, gotErr, "body %q", body)
		for _, e := range sortedErrs(gotErr) {
			require.True(t, strings.HasPrefix(e, "unknown_field "), "body %q: %v", body, gotErr)
		}
		return
	}
	require.Equal(t, sortedErrs(wantErr), sortedErrs(gotErr), "body %q", body)
	if wantErr == nil {
		require.Equal(t, want, got, "body %q", body)
	}
}

// hasRepeatedMember reports whether some object of a valid JSON body repeats a member.
func hasRepeatedMember(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		obj    bool
		keys   map[string]bool
		expect bool // next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.expect {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return true
				}
				top.keys[k] = true
				top.expect = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, expect: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].expect = true // a value ended: a key comes next
		}
	}
}

func TestDecodeStrictMatchesTreeOracle(t *testing.T) {
	dsts := map[string]func() any{
		"probe":    func() any { return &decodeProbe{} },
		"verify":   func() any { return &liveness.VerifyRequest{} },
		"enroll":   func() any { return &liveness.EnrollRequest{} },
		"consent":  func() any { return &consent.CreateRequest{} },
		"struct{}": func() any { return &struct{}{} },
	}
	for name, newDst := range dsts {
		t.Run(name, func(t *testing.T) {
			for _, b := range decodeProbeBodies {
				checkDecodeAgainstOracle(t, []byte(b), newDst)
			}
		})
	}
	// The liveness privacy rule: nested and top-level extras, each with its pointer.
	err := decodeStrict([]byte(`{"image":"AAAA","evidence":{"faceEmbedding":[1],"camera":{"frame":"x"},"sensor":{"depthMap":"AA"},`+
		`"challenge":{"faceTemplate":[1]},"timing":{"frames":["AA"]}},"attestation":{"selfie":"AA"},"frameTimestamps":[1,2.5]}`), &liveness.VerifyRequest{})
	require.Equal(t, []string{"unknown_field /attestation/selfie", "unknown_field /evidence/camera/frame", "unknown_field /evidence/challenge/faceTemplate",
		"unknown_field /evidence/faceEmbedding", "unknown_field /evidence/sensor/depthMap", "unknown_field /evidence/timing/frames", "unknown_field /image"}, sortedErrs(err))
	// A repeated member cannot hide one: the tree-based decoder kept only the last
	// "camera" and let a frame through.
	body := []byte(`{"evidence": {"camera": {"frame": "AAAA", "virtualSourceSuspected": false, "physicalSensorId": "x"}, "camera": {"virtualSourceSuspected": false, "physicalSensorId": "x"}}}`)
	require.NoError(t, oracleDecodeStrict(body, &liveness.VerifyRequest{}))
	require.Equal(t, []string{"unknown_field /evidence/camera/frame"}, sortedErrs(decodeStrict(body, &liveness.VerifyRequest{})))
	// A bad timestamp is named by its index, once.
	require.Equal(t, []string{"validation_failed /frameTimestamps/3"}, sortedErrs(decodeStrict([]byte(`{"frameTimestamps":[1,2.5,3,"x"]}`), &liveness.VerifyRequest{})))
}

func FuzzDecodeStrictMatchesTreeOracle(f *testing.F) {
	for _, b := range decodeProbeBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkDecodeAgainstOracle(t, body, func() any { return &decodeProbe{} })
		checkDecodeAgainstOracle(t, body, func() any { return &liveness.VerifyRequest{} })
	})
}
