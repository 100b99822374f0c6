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

// Request is the body of POST /identity/chip-verify, as seed 001 §2 gives it:
//
//	{"sodBase64": "<base64 EF.SOD>",
//	 "dataGroups": [{"number": 1, "contentBase64": "<base64 DG1>"},
//	                {"number": 2, "contentBase64": "<base64 DG2>"}, …],
//	 "livenessAttestationId": "att_…",
//	 "liveFaceTemplate": "<base64 float32 LE>",   (optional)
//	 "chipFaceTemplate": "<base64 float32 LE>"}   (optional)
//
// Binary members are base64, standard or URL alphabet, padded or not. The data
// groups are the files exactly as read from the chip, each number at most once;
// group 1 is required, group 2 is required for a face match, and every data group
// sent is checked against the SOD. The two face templates are the embeddings the
// holder's device computed from the live capture and from the DG2 image; they are
// compared and discarded, never stored.
//
// Mode: both templates → PA_FACE (cosine similarity at least the threshold, else
// face_mismatch); otherwise PA_ONLY. A single template is shape-checked like any
// member (400 when malformed) and then ignored: the binding is PA_ONLY, as the
// seed says "when a template is absent".
type Request struct {
	// SODBase64 is EF.SOD, with or without its 0x77 application tag.
	SODBase64 string `json:"sodBase64"`
	// DataGroups are the data groups read from the chip; group 1 is required.
	DataGroups []DataGroup `json:"dataGroups"`
	// LivenessAttestationID names the holder's LIVENESS attestation that gates the
	// binding.
	LivenessAttestationID string `json:"livenessAttestationId"`
	// LiveFaceTemplate is the face embedding of the live capture: little-endian
	// float32 values, 64..2048 of them.
	LiveFaceTemplate string `json:"liveFaceTemplate,omitempty"`
	// ChipFaceTemplate is the face embedding the device computed from DG2, of the
	// same dimension as LiveFaceTemplate.
	ChipFaceTemplate string `json:"chipFaceTemplate,omitempty"`
}

// DataGroup is one data group file read from the chip.
type DataGroup struct {
	// Number is the data group number, 1 to 16.
	Number int `json:"number"`
	// ContentBase64 is the file (tag, length and value) as read, in base64.
	ContentBase64 string `json:"contentBase64"`
}

// String redacts everything but sizes and the liveness attestation id: the data
// groups hold the MRZ and the facial image.
func (r Request) String() string {
	return fmt.Sprintf("binding.Request{SODBase64:[%d chars] DataGroups:%v LivenessAttestationID:%s LiveFaceTemplate:[%d chars] ChipFaceTemplate:[%d chars]}",
		len(r.SODBase64), r.dataGroupNumbers(), r.LivenessAttestationID, len(r.LiveFaceTemplate), len(r.ChipFaceTemplate))
}

// GoString redacts like String.
func (r Request) GoString() string { return r.String() }

// LogValue redacts like String, for log/slog.
func (r Request) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Int("sodChars", len(r.SODBase64)),
		slog.Any("dataGroups", r.dataGroupNumbers()),
		slog.String("livenessAttestationId", r.LivenessAttestationID),
		slog.Bool("faceTemplates", r.LiveFaceTemplate != "" && r.ChipFaceTemplate != ""),
	)
}

// String redacts the content.
func (g DataGroup) String() string {
	return fmt.Sprintf("binding.DataGroup{Number:%d ContentBase64:[%d chars]}", g.Number, len(g.ContentBase64))
}

// GoString redacts like String.
func (g DataGroup) GoString() string { return g.String() }

func (r Request) dataGroupNumbers() []int {
	out := make([]int, 0, len(r.DataGroups))
	for _, g := range r.DataGroups {
		out = append(out, g.Number)
	}
	slices.Sort(out)
	return out
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

	switch b, err := decodeBase64(r.SODBase64); {
	case r.SODBase64 == "":
		errs = append(errs, veriland.Invalid("/sodBase64", "sodBase64 is required"))
	case err != nil:
		errs = append(errs, veriland.Invalid("/sodBase64", "sodBase64 must be base64"))
	case len(b) > MaxSODSize:
		errs = append(errs, veriland.Invalid("/sodBase64", "sodBase64 must be at most %d bytes", MaxSODSize))
	default:
		d.sod = b
	}

	if len(r.DataGroups) == 0 {
		errs = append(errs, veriland.Invalid("/dataGroups", "dataGroups must hold at least group 1"))
	}
	seen := map[int]bool{}
	for i, g := range r.DataGroups {
		ptr := "/dataGroups/" + strconv.Itoa(i)
		switch {
		case g.Number < 1 || g.Number > 16:
			errs = append(errs, veriland.Invalid(ptr+"/number", "number must be a data group number from 1 to 16"))
		case seen[g.Number]:
			errs = append(errs, veriland.Invalid(ptr+"/number", "data group %d is given more than once", g.Number))
		}
		valid := g.Number >= 1 && g.Number <= 16 && !seen[g.Number]
		if g.Number >= 1 && g.Number <= 16 {
			seen[g.Number] = true
		}
		switch b, err := decodeBase64(g.ContentBase64); {
		case err != nil || len(b) == 0:
			errs = append(errs, veriland.Invalid(ptr+"/contentBase64", "contentBase64 must be non-empty base64"))
		case len(b) > MaxDataGroupSize:
			errs = append(errs, veriland.Invalid(ptr+"/contentBase64", "a data group must be at most %d bytes", MaxDataGroupSize))
		case valid:
			d.dataGroups[g.Number] = b
		}
	}
	if len(r.DataGroups) > 0 && !seen[1] {
		errs = append(errs, veriland.Invalid("/dataGroups", "dataGroups must hold group 1 (the MRZ)"))
	}

	switch {
	case r.LivenessAttestationID == "":
		errs = append(errs, veriland.Invalid("/livenessAttestationId", "livenessAttestationId is required"))
	case !ids.Valid(r.LivenessAttestationID, "att"):
		errs = append(errs, veriland.Invalid("/livenessAttestationId", "livenessAttestationId must be an attestation id (att_…)"))
	}

	face, faceErr := decodeTemplate("/liveFaceTemplate", r.LiveFaceTemplate)
	chip, chipErr := decodeTemplate("/chipFaceTemplate", r.ChipFaceTemplate)
	for _, e := range []*veriland.Error{faceErr, chipErr} {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if face != nil && chip != nil {
		switch {
		case len(face) != len(chip):
			errs = append(errs, veriland.Invalid("/chipFaceTemplate",
				"chipFaceTemplate has %d values but liveFaceTemplate has %d", len(chip), len(face)).
				WithMeta("dimension", len(chip)).WithMeta("expected", len(face)))
		case len(r.DataGroups) > 0 && !seen[2]:
			errs = append(errs, veriland.Invalid("/dataGroups",
				"a face match needs group 2 (the facial image the chip template was computed from)"))
		default:
			d.face, d.chipFace = face, chip
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return d, nil
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
