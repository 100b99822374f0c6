package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/internal/jsonscan"
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

// verifyBodyBase is a verification body with every member, as a client sends it.
const verifyBodyBase = `{"sessionId":"lvs_01jb2k4rgm6w8x0v9c3ezfkq7t","devicePublicKey":"0xAbCdEf0123456789abcdef0123456789ABCDEF01",` +
	`"attestation":{"type":"MOCK","token":"mock-attestation-token"},"merkleRoot":"0x2222222222222222222222222222222222222222222222222222222222222222",` +
	`"frameTimestamps":[1795000000000.125,1795000000010.375,1795000000020],"deviceSignature":"0x` + "1111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111" + `",` +
	`"evidence":{"challenge":{"hueScore":0.9,"latencyMs":420},"sensor":{"parallaxScore":0.9,"imuCorrelation":0.8},` +
	`"camera":{"physicalSensorId":"0","virtualSourceSuspected":false},"timing":{"frameJitterMs":12,"sessionDurationMs":2900,"frameCount":30}}}`

// verifyBodyEdits are (old, new) replacements in verifyBodyBase: bodies the fast
// path decodes and bodies it must leave to decodeStrict, valid or not.
var verifyBodyEdits = [][2]string{
	{"", ""},
	// null members: nil pointers, zero strings, nil timestamps
	{`"lvs_01jb2k4rgm6w8x0v9c3ezfkq7t"`, `null`}, {`{"type":"MOCK","token":"mock-attestation-token"}`, `null`},
	{`"MOCK"`, `null`}, {`[1795000000000.125,1795000000010.375,1795000000020]`, `null`},
	{`{"hueScore":0.9,"latencyMs":420}`, `null`}, {`{"parallaxScore":0.9,"imuCorrelation":0.8}`, `null`},
	{`{"physicalSensorId":"0","virtualSourceSuspected":false}`, `null`}, {`{"frameJitterMs":12,"sessionDurationMs":2900,"frameCount":30}`, `null`},
	{`"hueScore":0.9`, `"hueScore":null`}, {`false`, `null`}, {`false`, `true`}, {`"frameCount":30`, `"frameCount":null`},
	{`"evidence":{"challenge"`, `"evidence":null,"x":{"challenge"`},
	// empty objects and arrays, members left out
	{`{"hueScore":0.9,"latencyMs":420}`, `{}`}, {`{"hueScore":0.9,"latencyMs":420}`, `{ }`},
	{`[1795000000000.125,1795000000010.375,1795000000020]`, `[]`}, {`[1795000000000.125,1795000000010.375,1795000000020]`, `[ ]`},
	{`"sessionId":"lvs_01jb2k4rgm6w8x0v9c3ezfkq7t",`, ``},
	// numbers
	{`0.9,"latencyMs"`, `-0,"latencyMs"`}, {`420`, `4.2e2`}, {`420`, `4.2E+2`}, {`420`, `42000e-2`}, {`420`, `-0.0`},
	{`420`, `1e400`}, {`420`, `-1e400`}, {`420`, `1e-400`}, {`420`, `01`}, {`420`, `1.`}, {`420`, `.5`}, {`420`, `-`},
	{`420`, `+1`}, {`420`, `1e`}, {`420`, `1e+`}, {`420`, `"420"`}, {`420`, `true`}, {`420`, `[420]`}, {`420`, `{}`},
	{`420`, `NaN`}, {`420`, `Infinity`}, {`420`, `0x10`}, {`420`, `123456789012345678901234567890`}, {`420`, `4.9e-324`},
	{`1795000000020]`, `1795000000020.000000000000000000000001]`}, {`1795000000020]`, `1e400]`}, {`1795000000020]`, `null]`},
	{`1795000000020]`, `"1"]`}, {`1795000000020]`, `-1]`}, {`1795000000020]`, `1795000000020,]`}, {`1795000000020]`, `[1]]`},
	{`[1795000000000.125`, `{"a":1795000000000.125`}, {`[1795000000000.125,1795000000010.375,1795000000020]`, `"1,2"`},
	// strings
	{`"0x2222`, `"0X2222`}, {`"MOCK"`, `"M\u004fCK"`}, {`"0","virtual`, `"caméra ✓","virtual`}, {`"0","virtual`, "\"\xff\",\"virtual"},
	{`"0","virtual`, "\"\x01\",\"virtual"}, {`"0","virtual`, "\"\t\",\"virtual"}, {`"0","virtual`, `"\"","virtual`},
	{`"0","virtual`, "\"\xed\xa0\x80\",\"virtual"}, {`"0","virtual`, "\"\xef\xbf\xbd\",\"virtual"}, {`"0","virtual`, `0,"virtual`},
	{`"mock-attestation-token"`, `5`}, {`"mock-attestation-token"`, `["x"]`}, {`"mock-attestation-token"`, `"unterminated`},
	// booleans and literals
	{`false`, `"false"`}, {`false`, `0`}, {`false`, `fals`}, {`false`, `falsey`}, {`false`, `nul`}, {`false`, `nullx`}, {`false`, `True`},
	// objects where a string belongs and the reverse
	{`{"type":"MOCK","token":"mock-attestation-token"}`, `"MOCK"`}, {`"lvs_01jb2k4rgm6w8x0v9c3ezfkq7t"`, `{}`},
	{`{"hueScore":0.9,"latencyMs":420}`, `[]`}, {`{"hueScore":0.9,"latencyMs":420}`, `[{}]`},
	// unknown, misspelt, escaped and repeated members
	{`"sessionId"`, `"SessionId"`}, {`"sessionId"`, `"session\u0049d"`}, {`"sessionId"`, `"sessionid"`}, {`{"sessionId"`, `{"image":"AAAA","sessionId"`},
	{`"physicalSensorId":"0"`, `"frame":"AAAA","physicalSensorId":"0"`}, {`"hueScore":0.9`, `"hueScore":0.9,"hueScore":0.8`},
	{`"sessionId":"lvs_01jb2k4rgm6w8x0v9c3ezfkq7t"`, `"sessionId":"a","sessionId":"lvs_01jb2k4rgm6w8x0v9c3ezfkq7t"`},
	{`"evidence":{`, `"evidence":{"camera":{"virtualSourceSuspected":true}},"evidence":{`},
	{`"evidence":{`, `"evidence":{"camera":{"frame":1}},"evidence":{`}, {`"type":"MOCK"`, `"type":"MOCK","token":"t2"`},
	{`"frameTimestamps":[`, `"frameTimestamps":[5],"frameTimestamps":[`}, {`"evidence":{`, `"evidence":null,"evidence":{`},
	// json.Unmarshal merges a repeated object into the first one
	{`"evidence":{"challenge":{"hueScore":0.9,"latencyMs":420},"sensor":{"parallaxScore":0.9,"imuCorrelation":0.8},`,
		`"evidence":{"sensor":{"parallaxScore":0.5}},"evidence":{"challenge":{"hueScore":0.9,"latencyMs":420},`},
	{`"challenge":{"hueScore":0.9,"latencyMs":420}`, `"challenge":{"latencyMs":1},"challenge":{"hueScore":0.9}`},
	// syntax around the members
	{`"sessionId":"`, `"sessionId" : "`}, {`{"sessionId"`, "{\r\n\t \"sessionId\""}, {`,"devicePublicKey"`, ` , "devicePublicKey"`},
	{`,"devicePublicKey"`, `,,"devicePublicKey"`}, {`,"devicePublicKey"`, `"devicePublicKey"`}, {`"sessionId":`, `"sessionId"`},
	{`"sessionId":`, `sessionId:`}, {`"sessionId":`, `'sessionId':`}, {`{"sessionId"`, `{,"sessionId"`}, {`30}}}`, `30},}}`},
	{`30}}}`, `30}}`}, {`30}}}`, `30}}}}`}, {`30}}}`, `30}}} `}, {`30}}}`, "30}}}\n\r\t"}, {`30}}}`, `30}}} {}`},
	{`30}}}`, `30}}}x`}, {`30}}}`, `30}}}]`}, {`30}}}`, "30}}}\x00"}, {`30}}}`, "30}}}\f"}, {`{"sessionId"`, "\ufeff{\"sessionId\""},
	{`{"sessionId"`, "\f{\"sessionId\""}, {`{"sessionId"`, `[{"sessionId"`},
}

// checkVerifyBodyLikeDecodeStrict requires decodeVerifyBody to return what
// decodeStrict returns for body (the same error, or the same value bit for bit), and
// the fast path to decode only bodies decodeStrict accepts. It reports whether the
// fast path decoded body.
func checkVerifyBodyLikeDecodeStrict(t testing.TB, body []byte) bool {
	t.Helper()
	var want, got liveness.VerifyRequest
	wantErr := decodeStrict(body, &want)
	gotErr := decodeVerifyBody(body, &got)
	require.Equal(t, wantErr, gotErr, "body %q", body)
	if wantErr == nil {
		require.Equal(t, want, got, "body %q", body)
		// Bit for bit: require.Equal takes -0 for 0.
		wj, err1 := json.Marshal(want)
		gj, err2 := json.Marshal(got)
		require.NoError(t, errors.Join(err1, err2))
		require.Equal(t, string(wj), string(gj), "body %q", body)
	}
	// As the route does: the next body read reuses the storage.
	releaseTimestamps(got.FrameTimestamps)
	// Storage that held other timestamps, none of which may show through.
	stale := make(liveness.Timestamps, 64)
	for i := range stale {
		stale[i] = -float64(i + 1)
	}
	s := verifyBodyScanner{Scanner: jsonscan.New(body), timestampBuf: stale[:0]}
	fast, ok := s.request()
	if ok {
		require.NoError(t, wantErr, "the fast path decoded %q", body)
		require.Equal(t, want, fast, "body %q", body)
	}
	return ok
}

func TestDecodeVerifyBodyMatchesDecodeStrict(t *testing.T) {
	fast := 0
	for _, e := range verifyBodyEdits {
		body := strings.Replace(verifyBodyBase, e[0], e[1], 1)
		if checkVerifyBodyLikeDecodeStrict(t, []byte(body)) {
			fast++
		}
	}
	require.Greater(t, fast, 30, "the fast path decodes the common bodies")
	for _, b := range decodeProbeBodies {
		checkVerifyBodyLikeDecodeStrict(t, []byte(b))
	}
	// Every prefix and every body missing one byte.
	for i := range len(verifyBodyBase) {
		checkVerifyBodyLikeDecodeStrict(t, []byte(verifyBodyBase[:i]))
		checkVerifyBodyLikeDecodeStrict(t, []byte(verifyBodyBase[:i]+verifyBodyBase[i+1:]))
	}
	// Indented, and the benchmark's body of 10,000 timestamps.
	var pretty bytes.Buffer
	require.NoError(t, json.Indent(&pretty, []byte(verifyBodyBase), "", "\t"))
	require.True(t, checkVerifyBodyLikeDecodeStrict(t, pretty.Bytes()))
	require.True(t, checkVerifyBodyLikeDecodeStrict(t, lvDecodeBenchBody(t)))
	require.True(t, checkVerifyBodyLikeDecodeStrict(t, []byte(verifyBodyBase)))
}

func FuzzDecodeVerifyBodyMatchesDecodeStrict(f *testing.F) {
	for _, e := range verifyBodyEdits {
		f.Add([]byte(strings.Replace(verifyBodyBase, e[0], e[1], 1)))
	}
	for _, b := range decodeProbeBodies {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) { checkVerifyBodyLikeDecodeStrict(t, body) })
}

// TestReadBodyLikeReadAll: readBody returns io.ReadAll's bytes and errors, whatever
// Content-Length claims.
func TestReadBodyLikeReadAll(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 30000)
	for _, c := range []struct {
		body    []byte
		declare int64
		limit   int64
	}{
		{nil, 0, limitJSON}, {[]byte("{}"), 2, limitJSON}, {[]byte("{}"), -1, limitJSON}, {[]byte("{}"), 0, limitJSON},
		{big, int64(len(big)), limitJSON}, {big, -1, limitJSON}, {big, 10, limitJSON}, {big, 1 << 30, limitJSON},
		{big, int64(len(big)), 1000}, {big, 1000, 1000}, {big, -1, 1000}, {big, int64(len(big)), int64(len(big))},
	} {
		read := func(buf []byte) ([]byte, error) {
			r := httptest.NewRequest("POST", "/liveness/verify", iotest.HalfReader(bytes.NewReader(c.body)))
			r.ContentLength = c.declare
			r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, c.limit)
			if buf == nil {
				return io.ReadAll(r.Body)
			}
			return readBody(r, buf)
		}
		want, wantErr := read(nil)
		// A fresh buffer, and one reused from the pool with old bytes in it.
		for _, buf := range [][]byte{{}, append(make([]byte, 0, 4096), "stale"...)} {
			got, gotErr := read(buf)
			require.Equal(t, wantErr, gotErr, "declared %d of %d, limit %d", c.declare, len(c.body), c.limit)
			require.Equal(t, len(want), len(got))
			require.True(t, bytes.Equal(want, got))
		}
	}
}
