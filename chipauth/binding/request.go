package binding

import (
	"encoding/base64"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
)

// Limits on a request, on top of the 2 MiB body limit the server enforces.
const (
	// MaxSODSize bounds the decoded EF.SOD (chipauth refuses larger ones too).
	MaxSODSize = 256 << 10
	// MaxDataGroupSize bounds one decoded data group. DG2 (the facial image) is the
	// largest file of a real chip, typically 15–60 KB.
	MaxDataGroupSize = 1 << 20
)

// Request is the body of POST /identity/chip-verify:
//
//	{"sod": "<base64 EF.SOD>",
//	 "dataGroups": {"1": "<base64 DG1>", "2": "<base64 DG2>", …},
//	 "livenessAttestationId": "att_…",
//	 "faceTemplate": "<base64 float32 LE>",       (optional)
//	 "chipFaceTemplate": "<base64 float32 LE>"}   (optional)
//
// Binary members are base64, standard or URL alphabet, padded or not. The data
// groups are the files exactly as read from the chip; DG1 is required, and every
// data group sent is checked against the SOD. The two face templates are the
// embeddings the holder's device computed from the live capture and from the DG2
// image; they are compared and discarded, never stored.
type Request struct {
	// SOD is EF.SOD, with or without its 0x77 application tag.
	SOD string `json:"sod"`
	// DataGroups maps data group numbers "1".."16" (decimal, no leading zero) to
	// the data group files.
	DataGroups map[string]string `json:"dataGroups"`
	// LivenessAttestationID names the holder's LIVENESS attestation that gates the
	// binding.
	LivenessAttestationID string `json:"livenessAttestationId"`
	// FaceTemplate is the face embedding of the live capture: little-endian float32
	// values, 64..2048 of them.
	FaceTemplate string `json:"faceTemplate,omitempty"`
	// ChipFaceTemplate is the face embedding the device computed from DG2, of the
	// same dimension as FaceTemplate.
	ChipFaceTemplate string `json:"chipFaceTemplate,omitempty"`
}

// String redacts everything but sizes and the liveness attestation id: the data
// groups hold the MRZ and the facial image.
func (r Request) String() string {
	return fmt.Sprintf("binding.Request{SOD:[%d chars] DataGroups:%v LivenessAttestationID:%s FaceTemplate:[%d chars] ChipFaceTemplate:[%d chars]}",
		len(r.SOD), r.dataGroupNames(), r.LivenessAttestationID, len(r.FaceTemplate), len(r.ChipFaceTemplate))
}

// GoString redacts like String.
func (r Request) GoString() string { return r.String() }

// LogValue redacts like String, for log/slog.
func (r Request) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Int("sodChars", len(r.SOD)),
		slog.Any("dataGroups", r.dataGroupNames()),
		slog.String("livenessAttestationId", r.LivenessAttestationID),
		slog.Bool("faceTemplates", r.FaceTemplate != "" && r.ChipFaceTemplate != ""),
	)
}

func (r Request) dataGroupNames() []string {
	names := make([]string, 0, len(r.DataGroups))
	for k := range r.DataGroups {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Validate checks the shape of every member without verifying anything, and
// reports each invalid one with its JSON pointer (validation_failed): nil, one
// *veriland.Error or veriland.Errors. Bind runs it first.
func (r Request) Validate() error {
	_, err := r.decode()
	return err
}

// decoded is a Request after its shape was checked.
type decoded struct {
	sod        []byte
	dataGroups map[int][]byte
	livenessID string
	face       []float32 // nil unless both templates were sent
	chipFace   []float32
}

func (r Request) decode() (*decoded, error) {
	var errs veriland.Errors
	d := &decoded{dataGroups: map[int][]byte{}, livenessID: r.LivenessAttestationID}

	switch b, err := decodeBase64(r.SOD); {
	case r.SOD == "":
		errs = append(errs, veriland.Invalid("/sod", "sod is required"))
	case err != nil:
		errs = append(errs, veriland.Invalid("/sod", "sod must be base64"))
	case len(b) > MaxSODSize:
		errs = append(errs, veriland.Invalid("/sod", "sod must be at most %d bytes", MaxSODSize))
	default:
		d.sod = b
	}

	if len(r.DataGroups) == 0 {
		errs = append(errs, veriland.Invalid("/dataGroups", "dataGroups is required and must hold DG1"))
	}
	for _, name := range r.dataGroupNames() {
		ptr := "/dataGroups/" + escapePointer(name)
		n, ok := dataGroupNumber(name)
		if !ok {
			errs = append(errs, veriland.Invalid(ptr, "data group numbers are \"1\" to \"16\""))
			continue
		}
		switch b, err := decodeBase64(r.DataGroups[name]); {
		case err != nil || len(b) == 0:
			errs = append(errs, veriland.Invalid(ptr, "data group %d must be non-empty base64", n))
		case len(b) > MaxDataGroupSize:
			errs = append(errs, veriland.Invalid(ptr, "data group %d must be at most %d bytes", n, MaxDataGroupSize))
		default:
			d.dataGroups[n] = b
		}
	}
	if _, ok := r.DataGroups["1"]; len(r.DataGroups) > 0 && !ok {
		errs = append(errs, veriland.Invalid("/dataGroups/1", "DG1 is required"))
	}

	switch {
	case r.LivenessAttestationID == "":
		errs = append(errs, veriland.Invalid("/livenessAttestationId", "livenessAttestationId is required"))
	case !ids.Valid(r.LivenessAttestationID, "att"):
		errs = append(errs, veriland.Invalid("/livenessAttestationId", "livenessAttestationId must be an attestation id (att_…)"))
	}

	face, faceErr := decodeTemplate("/faceTemplate", r.FaceTemplate)
	chip, chipErr := decodeTemplate("/chipFaceTemplate", r.ChipFaceTemplate)
	for _, e := range []*veriland.Error{faceErr, chipErr} {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if face != nil && chip != nil {
		if len(face) != len(chip) {
			errs = append(errs, veriland.Invalid("/chipFaceTemplate",
				"chipFaceTemplate has %d values but faceTemplate has %d", len(chip), len(face)).
				WithMeta("dimension", len(chip)).WithMeta("expected", len(face)))
		} else {
			d.face, d.chipFace = face, chip
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return d, nil
}

// dataGroupNumber parses "1".."16", refusing signs, spaces and leading zeros so
// that two members can never name the same data group.
func dataGroupNumber(s string) (int, bool) {
	if s == "" || s[0] == '0' || len(s) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 16 || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// decodeBase64 accepts the standard and the URL alphabet, padded or not. It does
// not accept a mix of the two alphabets.
func decodeBase64(s string) ([]byte, error) {
	url := strings.ContainsAny(s, "-_")
	padded := strings.HasSuffix(s, "=")
	var enc *base64.Encoding
	switch {
	case url && padded:
		enc = base64.URLEncoding
	case url:
		enc = base64.RawURLEncoding
	case padded:
		enc = base64.StdEncoding
	default:
		enc = base64.RawStdEncoding
	}
	return enc.Strict().DecodeString(s)
}

// escapePointer escapes a JSON pointer reference token (RFC 6901).
func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
