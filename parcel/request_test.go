package parcel_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
)

func TestCreateRequestValidate(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(r *parcel.CreateRequest)
		pointer string // "" when valid
	}{
		{"valid", func(*parcel.CreateRequest) {}, ""},
		{"owner missing", func(r *parcel.CreateRequest) { r.Owner = nil }, "/owner"},
		{"fullName empty", func(r *parcel.CreateRequest) { r.Owner.FullName = "" }, "/owner/fullName"},
		{"fullName 1", func(r *parcel.CreateRequest) { r.Owner.FullName = "A" }, ""},
		{"fullName 200", func(r *parcel.CreateRequest) { r.Owner.FullName = strings.Repeat("é", 200) }, ""},
		{"fullName 201", func(r *parcel.CreateRequest) { r.Owner.FullName = strings.Repeat("a", 201) }, "/owner/fullName"},
		{"fullName control", func(r *parcel.CreateRequest) { r.Owner.FullName = "A\x00B" }, "/owner/fullName"},
		{"fullName blank", func(r *parcel.CreateRequest) { r.Owner.FullName = "   " }, "/owner/fullName"},
		{"id_doc empty", func(r *parcel.CreateRequest) { r.Owner.IDDoc = "" }, "/owner/id_doc"},
		{"id_doc 1", func(r *parcel.CreateRequest) { r.Owner.IDDoc = "X" }, ""},
		{"id_doc 64", func(r *parcel.CreateRequest) { r.Owner.IDDoc = strings.Repeat("9", 64) }, ""},
		{"id_doc 65", func(r *parcel.CreateRequest) { r.Owner.IDDoc = strings.Repeat("9", 65) }, "/owner/id_doc"},
		{"parcel missing", func(r *parcel.CreateRequest) { r.Parcel = nil }, "/parcel"},
		{"gps missing", func(r *parcel.CreateRequest) { r.Parcel.GPS = nil }, "/parcel/gps"},
		{"gps one", func(r *parcel.CreateRequest) { r.Parcel.GPS = []float64{1} }, "/parcel/gps"},
		{"gps three", func(r *parcel.CreateRequest) { r.Parcel.GPS = []float64{1, 2, 3} }, "/parcel/gps"},
		{"lat -90", func(r *parcel.CreateRequest) { r.Parcel.GPS[0] = -90 }, ""},
		{"lat 90", func(r *parcel.CreateRequest) { r.Parcel.GPS[0] = 90 }, ""},
		{"lat below", func(r *parcel.CreateRequest) { r.Parcel.GPS[0] = -90.000001 }, "/parcel/gps/0"},
		{"lat above", func(r *parcel.CreateRequest) { r.Parcel.GPS[0] = 90.000001 }, "/parcel/gps/0"},
		{"lat NaN", func(r *parcel.CreateRequest) { r.Parcel.GPS[0] = math.NaN() }, "/parcel/gps/0"},
		{"lon -180", func(r *parcel.CreateRequest) { r.Parcel.GPS[1] = -180 }, ""},
		{"lon 180", func(r *parcel.CreateRequest) { r.Parcel.GPS[1] = 180 }, ""},
		{"lon below", func(r *parcel.CreateRequest) { r.Parcel.GPS[1] = -180.5 }, "/parcel/gps/1"},
		{"lon above", func(r *parcel.CreateRequest) { r.Parcel.GPS[1] = 180.5 }, "/parcel/gps/1"},
		{"lon Inf", func(r *parcel.CreateRequest) { r.Parcel.GPS[1] = math.Inf(1) }, "/parcel/gps/1"},
		{"area missing", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = nil }, "/parcel/area_m2"},
		{"area 0", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = ptr(0.0) }, "/parcel/area_m2"},
		{"area negative", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = ptr(-1.0) }, "/parcel/area_m2"},
		{"area smallest", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = ptr(math.SmallestNonzeroFloat64) }, ""},
		{"area 1e10", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = ptr(1e10) }, ""},
		{"area above", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = ptr(1e10 + 1) }, "/parcel/area_m2"},
		{"area NaN", func(r *parcel.CreateRequest) { r.Parcel.AreaM2 = ptr(math.NaN()) }, "/parcel/area_m2"},
		{"city empty", func(r *parcel.CreateRequest) { r.Parcel.City = "" }, "/parcel/city"},
		{"city 1", func(r *parcel.CreateRequest) { r.Parcel.City = "X" }, ""},
		{"city 100", func(r *parcel.CreateRequest) { r.Parcel.City = strings.Repeat("c", 100) }, ""},
		{"city 101", func(r *parcel.CreateRequest) { r.Parcel.City = strings.Repeat("c", 101) }, "/parcel/city"},
		{"notary empty", func(r *parcel.CreateRequest) { r.Notary = "" }, "/notary"},
		{"notary short code", func(r *parcel.CreateRequest) { r.Notary = "NOT-A-1" }, "/notary"},
		{"notary code 2", func(r *parcel.CreateRequest) { r.Notary = "NOT-AB-1" }, ""},
		{"notary code 5", func(r *parcel.CreateRequest) { r.Notary = "NOT-ABCDE-1" }, ""},
		{"notary code 6", func(r *parcel.CreateRequest) { r.Notary = "NOT-ABCDEF-1" }, "/notary"},
		{"notary number 10", func(r *parcel.CreateRequest) { r.Notary = "NOT-ABJ-0123456789" }, ""},
		{"notary number 11", func(r *parcel.CreateRequest) { r.Notary = "NOT-ABJ-01234567890" }, "/notary"},
		{"notary no number", func(r *parcel.CreateRequest) { r.Notary = "NOT-ABJ-" }, "/notary"},
		{"notary lower case", func(r *parcel.CreateRequest) { r.Notary = "not-abj-1" }, "/notary"},
		{"notary trailing newline", func(r *parcel.CreateRequest) { r.Notary = "NOT-ABJ-1\n" }, "/notary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRequest()
			tt.mutate(&r)
			err := r.Validate()
			if tt.pointer == "" {
				require.NoError(t, err)
				return
			}
			list := veriland.ErrorList(err)
			require.Len(t, list, 1, "%v", err)
			require.Equal(t, veriland.CodeValidationFailed, list[0].Code)
			require.Equal(t, tt.pointer, list[0].Pointer)
		})
	}
}

func TestCreateRequestValidateListsEveryMember(t *testing.T) {
	r := parcel.CreateRequest{Owner: &parcel.Owner{}, Parcel: &parcel.ParcelInput{}}
	list := veriland.ErrorList(r.Validate())
	var ptrs []string
	for _, e := range list {
		ptrs = append(ptrs, e.Pointer)
	}
	require.Equal(t, []string{"/owner/fullName", "/owner/id_doc", "/parcel/gps", "/parcel/area_m2", "/parcel/city", "/notary"}, ptrs)
}

func TestDecodeCreateRequest(t *testing.T) {
	tests := []struct {
		name, body string
		code       veriland.Code
		pointer    string
	}{
		{"seed body", `{"owner":{"fullName":"A B","id_doc":"X1"},"parcel":{"gps":[9.07,7.39],"area_m2":500,"city":"Abuja"},"notary":"NOT-ABJ-0042"}`, "", ""},
		{"unknown member", `{"owner":{"fullName":"A B","id_doc":"X1","age":3},"parcel":{"gps":[9.07,7.39],"area_m2":500,"city":"Abuja"},"notary":"NOT-ABJ-0042"}`, veriland.CodeUnknownField, ""},
		{"wrong type", `{"owner":{"fullName":"A B","id_doc":"X1"},"parcel":{"gps":[9.07,7.39],"area_m2":"500","city":"Abuja"},"notary":"NOT-ABJ-0042"}`, veriland.CodeValidationFailed, "/parcel/area_m2"},
		{"gps strings", `{"owner":{"fullName":"A B","id_doc":"X1"},"parcel":{"gps":["9","7"],"area_m2":500,"city":"Abuja"},"notary":"NOT-ABJ-0042"}`, veriland.CodeValidationFailed, "/parcel/gps"},
		{"not json", `{"owner":`, veriland.CodeInvalidJSON, ""},
		{"array", `[]`, veriland.CodeInvalidJSON, ""},
		{"trailing", `{} {}`, veriland.CodeInvalidJSON, ""},
		{"empty object", `{}`, veriland.CodeValidationFailed, "/owner"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parcel.DecodeCreateRequest([]byte(tt.body))
			require.Equal(t, tt.code, codeOf(err), "%v", err)
			if tt.pointer != "" {
				require.Equal(t, tt.pointer, veriland.ErrorList(err)[0].Pointer)
			}
		})
	}
}

func TestDecodeTransferAndReason(t *testing.T) {
	_, err := parcel.DecodeTransferRequest([]byte(`{"newOwner":{"fullName":"C D","id_doc":"Y2"},"notary":"NOT-ABJ-7"}`))
	require.NoError(t, err)
	_, err = parcel.DecodeTransferRequest([]byte(`{"newOwner":{"fullName":"","id_doc":"Y2"},"notary":"x"}`))
	list := veriland.ErrorList(err)
	require.Len(t, list, 2)
	require.Equal(t, "/newOwner/fullName", list[0].Pointer)
	require.Equal(t, "/notary", list[1].Pointer)

	for body, want := range map[string]string{``: "", `{}`: "", `{"reason":"bad survey"}`: "bad survey"} {
		got, err := parcel.DecodeReason([]byte(body))
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err = parcel.DecodeReason([]byte(`{"reason":"` + strings.Repeat("r", parcel.MaxReasonLen+1) + `"}`))
	require.Equal(t, "/reason", veriland.ErrorList(err)[0].Pointer)
}

func FuzzCreateRequest(f *testing.F) {
	f.Add([]byte(`{"owner":{"fullName":"A B","id_doc":"X1"},"parcel":{"gps":[9.07,7.39],"area_m2":500,"city":"Abuja"},"notary":"NOT-ABJ-0042"}`))
	f.Add([]byte(`{"owner":{"fullName":"A B","id_doc":"X1"},"parcel":{"gps":[9.07,7.39],"area_m2":500,"city":"Abuja","boundary":{"type":"Polygon","coordinates":[]}},"notary":"NOT-ABJ-0042"}`))
	f.Add([]byte(`{"owner":null,"parcel":{"gps":[1e400,-0],"area_m2":1e10},"notary":"NOT-SBX-1"}`))
	f.Add([]byte(`{"parcel":{"gps":[],"area_m2":-1}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[1,2]`))
	f.Add([]byte("\"\xff\""))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parcel.DecodeCreateRequest(body)
		if err != nil {
			for _, e := range veriland.ErrorList(err) {
				if e.Code == veriland.CodeInternal || (e.Pointer != "" && e.Pointer[0] != '/') {
					t.Fatalf("bad error %v", e)
				}
			}
			if veriland.ErrorList(err) == nil {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		// An accepted request validates again and is within every bound.
		if err := r.Validate(); err != nil {
			t.Fatalf("accepted request fails validation: %v", err)
		}
		if len(r.Parcel.GPS) != 2 || *r.Parcel.AreaM2 <= 0 || !parcel.NotaryPattern.MatchString(r.Notary) {
			t.Fatalf("accepted out-of-bounds request %+v", r)
		}
	})
}
