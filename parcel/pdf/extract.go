package pdf

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
)

// MaxAttachmentSize bounds what ExtractCertificate inflates, so that a small hostile PDF
// cannot expand into gigabytes.
const MaxAttachmentSize = 1 << 20

// Errors returned by ExtractCertificate.
var (
	ErrNotPDF          = errors.New("pdf: not a PDF file")
	ErrNoAttachment    = errors.New("pdf: no " + AttachmentName + " attachment")
	ErrBadAttachment   = errors.New("pdf: the " + AttachmentName + " attachment is damaged")
	ErrAmbiguous       = errors.New("pdf: more than one different " + AttachmentName + " attachment")
	ErrAttachmentLarge = errors.New("pdf: the " + AttachmentName + " attachment is too large")
)

// ExtractCertificate returns the bytes of the attachment named certificate.json, as
// embedded by Render. It reads classic PDF files (objects in the body, not in object
// streams), which is what Render writes; it accepts any bytes without panicking.
func ExtractCertificate(pdf []byte) ([]byte, error) {
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return nil, ErrNotPDF
	}
	objs := scanObjects(pdf)
	var found []byte
	for _, num := range objs.order {
		o := objs.byNum[num]
		d, ok := o.value.(dict)
		if !ok || !isFilespec(d) {
			continue
		}
		if name, ok := fileName(d); !ok || name != AttachmentName {
			continue
		}
		content, err := objs.embeddedFile(d)
		if err != nil {
			return nil, err
		}
		if found != nil && !bytes.Equal(found, content) {
			return nil, ErrAmbiguous
		}
		found = content
	}
	if found == nil {
		return nil, ErrNoAttachment
	}
	return found, nil
}

func isFilespec(d dict) bool {
	if t, ok := d["Type"].(name); ok && t == "Filespec" {
		return true
	}
	_, hasEF := d["EF"]
	return hasEF
}

// fileName is the file specification's name: /UF (Unicode) first, then /F.
func fileName(d dict) (string, bool) {
	for _, k := range []string{"UF", "F"} {
		if s, ok := d[k].(pdfString); ok && len(s) > 0 {
			return decodeTextString(s), true
		}
	}
	return "", false
}

// decodeTextString decodes a PDF text string: UTF-16BE with a byte-order mark, UTF-8 with
// its mark (PDF 2.0), or else PDFDocEncoding, read here as Latin-1 (the same for names).
func decodeTextString(s pdfString) string {
	switch {
	case len(s) >= 2 && s[0] == 0xfe && s[1] == 0xff:
		b := s[2:]
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	case len(s) >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf:
		return string(s[3:])
	default:
		r := make([]rune, len(s))
		for i, c := range []byte(s) {
			r[i] = rune(c)
		}
		return string(r)
	}
}

// embeddedFile returns the decoded content of the file specification's /EF stream.
func (t objTable) embeddedFile(fs dict) ([]byte, error) {
	ef, ok := t.resolve(fs["EF"]).(dict)
	if !ok {
		return nil, ErrBadAttachment
	}
	v := ef["UF"]
	if v == nil {
		v = ef["F"]
	}
	r, ok := v.(ref)
	if !ok {
		return nil, ErrBadAttachment
	}
	o, ok := t.byNum[r.num]
	if !ok || o.stream == nil {
		return nil, ErrBadAttachment
	}
	sd, _ := o.value.(dict)
	raw := o.stream
	if n, ok := t.resolve(sd["Length"]).(int64); ok && n >= 0 && n <= int64(len(raw)) {
		raw = raw[:n]
	}
	var content []byte
	switch filter := t.resolve(sd["Filter"]).(type) {
	case nil:
		content = raw
	case name:
		if filter != "FlateDecode" {
			return nil, fmt.Errorf("%w: unsupported filter %s", ErrBadAttachment, filter)
		}
		zr, err := zlib.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadAttachment, err)
		}
		content, err = io.ReadAll(io.LimitReader(zr, MaxAttachmentSize+1))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadAttachment, err)
		}
	default:
		return nil, fmt.Errorf("%w: unsupported filter", ErrBadAttachment)
	}
	if len(content) > MaxAttachmentSize {
		return nil, ErrAttachmentLarge
	}
	if params, ok := t.resolve(sd["Params"]).(dict); ok {
		if size, ok := t.resolve(params["Size"]).(int64); ok && size != int64(len(content)) {
			return nil, fmt.Errorf("%w: size %d, declared %d", ErrBadAttachment, len(content), size)
		}
		if sum, ok := t.resolve(params["CheckSum"]).(pdfString); ok {
			got := md5.Sum(content)
			if !bytes.Equal(got[:], []byte(sum)) {
				return nil, fmt.Errorf("%w: MD5 checksum mismatch", ErrBadAttachment)
			}
		}
	}
	return content, nil
}

// --- a small reader of the PDF object syntax (ISO 32000-1 §7.2–7.3) ---

type (
	dict      map[string]any
	name      string
	pdfString string
	ref       struct{ num, gen int64 }
	keyword   string
)

type object struct {
	value  any
	stream []byte // the bytes between "stream" EOL and "endstream", nil when none
}

type objTable struct {
	byNum map[int64]object
	order []int64 // object numbers in the order first seen
}

func (t objTable) resolve(v any) any {
	for i := 0; i < 8; i++ { // a few levels of indirection at most; cycles end here
		r, ok := v.(ref)
		if !ok {
			return v
		}
		v = t.byNum[r.num].value
	}
	return nil
}

// objHeaders finds every "n g obj" at the start of the input or after white space:
// for each, the offset where n starts, where it ends, and the offset after "obj".
func objHeaders(b []byte) [][3]int {
	var out [][3]int
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("obj"))
		if k < 0 {
			return out
		}
		at := i + k
		i = at + 3
		if i < len(b) && !isWhite(b[i]) && !isDelim(b[i]) {
			continue // "objx"
		}
		p := at
		digits := func(max int) (start int, ok bool) {
			end := p
			for p > 0 && end-p < max && b[p-1] >= '0' && b[p-1] <= '9' {
				p--
			}
			return p, p < end
		}
		spaces := func() bool {
			end := p
			for p > 0 && isWhite(b[p-1]) {
				p--
			}
			return p < end
		}
		if !spaces() {
			continue
		}
		if _, ok := digits(5); !ok || !spaces() {
			continue
		}
		numEnd := p
		start, ok := digits(10)
		if !ok || (start > 0 && !isWhite(b[start-1])) {
			continue
		}
		out = append(out, [3]int{start, numEnd, i})
	}
}

// scanObjects finds every "n g obj … endobj" in the body; a later definition of a number
// replaces an earlier one, as incremental updates do. Each object is parsed only up to
// the next object header (objects do not nest), so hostile input costs linear time; a
// stream body may run past that point and hides the headers it contains.
func scanObjects(b []byte) objTable {
	t := objTable{byNum: map[int64]object{}}
	headers := objHeaders(b)
	consumed := 0
	for i, m := range headers {
		if m[0] < consumed {
			continue // inside the previous object's stream
		}
		num, err := strconv.ParseInt(string(b[m[0]:m[1]]), 10, 64)
		if err != nil {
			continue
		}
		limit := len(b)
		if i+1 < len(headers) {
			limit = headers[i+1][0]
		}
		lx := &lexer{b: b[:limit], pos: m[2]}
		v, err := lx.value(0)
		if err != nil {
			continue
		}
		o := object{value: v}
		if d, ok := v.(dict); ok {
			save := lx.pos
			if tok, err := lx.token(); err == nil && tok == keyword("stream") {
				var end int
				o.stream, end = streamBody(b, lx.pos, d)
				consumed = end
			} else {
				lx.pos = save
			}
		}
		if _, seen := t.byNum[num]; !seen {
			t.order = append(t.order, num)
		}
		t.byNum[num] = o
	}
	return t
}

var errSyntax = errors.New("pdf: syntax")

const maxDepth = 32

type lexer struct {
	b   []byte
	pos int
}

func isWhite(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isDelim(c byte) bool {
	return c == '(' || c == ')' || c == '<' || c == '>' || c == '[' || c == ']' ||
		c == '{' || c == '}' || c == '/' || c == '%'
}

func (lx *lexer) skipSpace() {
	for lx.pos < len(lx.b) {
		c := lx.b[lx.pos]
		switch {
		case isWhite(c):
			lx.pos++
		case c == '%':
			for lx.pos < len(lx.b) && lx.b[lx.pos] != '\n' && lx.b[lx.pos] != '\r' {
				lx.pos++
			}
		default:
			return
		}
	}
}

// token returns the next token: a value (name, string, number) or a delimiter or keyword
// as keyword.
func (lx *lexer) token() (any, error) {
	lx.skipSpace()
	if lx.pos >= len(lx.b) {
		return nil, io.ErrUnexpectedEOF
	}
	c := lx.b[lx.pos]
	switch {
	case c == '/':
		lx.pos++
		start := lx.pos
		for lx.pos < len(lx.b) && !isWhite(lx.b[lx.pos]) && !isDelim(lx.b[lx.pos]) {
			lx.pos++
		}
		return name(decodeNameEscapes(lx.b[start:lx.pos])), nil
	case c == '(':
		return lx.literalString()
	case c == '<':
		if lx.pos+1 < len(lx.b) && lx.b[lx.pos+1] == '<' {
			lx.pos += 2
			return keyword("<<"), nil
		}
		return lx.hexString()
	case c == '>':
		if lx.pos+1 < len(lx.b) && lx.b[lx.pos+1] == '>' {
			lx.pos += 2
			return keyword(">>"), nil
		}
		return nil, errSyntax
	case c == '[' || c == ']' || c == '{' || c == '}':
		lx.pos++
		return keyword(string(c)), nil
	case c == ')':
		return nil, errSyntax
	}
	start := lx.pos
	for lx.pos < len(lx.b) && !isWhite(lx.b[lx.pos]) && !isDelim(lx.b[lx.pos]) {
		lx.pos++
	}
	w := string(lx.b[start:lx.pos])
	if n, err := strconv.ParseInt(w, 10, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(w, 64); err == nil {
		return f, nil
	}
	return keyword(w), nil
}

// value parses one object; "n g R" becomes a ref.
func (lx *lexer) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, errSyntax
	}
	tok, err := lx.token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case int64:
		save := lx.pos
		if g, err := lx.token(); err == nil {
			if gen, ok := g.(int64); ok {
				if r, err := lx.token(); err == nil && r == keyword("R") {
					return ref{num: t, gen: gen}, nil
				}
			}
		}
		lx.pos = save
		return t, nil
	case keyword:
		switch t {
		case "<<":
			d := dict{}
			for {
				k, err := lx.token()
				if err != nil {
					return nil, err
				}
				if k == keyword(">>") {
					return d, nil
				}
				key, ok := k.(name)
				if !ok {
					return nil, errSyntax
				}
				v, err := lx.value(depth + 1)
				if err != nil {
					return nil, err
				}
				d[string(key)] = v
			}
		case "[":
			var arr []any
			for {
				save := lx.pos
				k, err := lx.token()
				if err != nil {
					return nil, err
				}
				if k == keyword("]") {
					return arr, nil
				}
				lx.pos = save
				v, err := lx.value(depth + 1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
		return nil, errSyntax
	default:
		return tok, nil
	}
}

func (lx *lexer) literalString() (any, error) {
	lx.pos++ // (
	var out []byte
	nest := 0
	for lx.pos < len(lx.b) {
		c := lx.b[lx.pos]
		lx.pos++
		switch c {
		case '(':
			nest++
			out = append(out, c)
		case ')':
			if nest == 0 {
				return pdfString(out), nil
			}
			nest--
			out = append(out, c)
		case '\\':
			if lx.pos >= len(lx.b) {
				return nil, io.ErrUnexpectedEOF
			}
			e := lx.b[lx.pos]
			lx.pos++
			switch e {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case '\r':
				if lx.pos < len(lx.b) && lx.b[lx.pos] == '\n' {
					lx.pos++
				}
			case '\n':
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for i := 0; i < 2 && lx.pos < len(lx.b) && lx.b[lx.pos] >= '0' && lx.b[lx.pos] <= '7'; i++ {
						v = v*8 + int(lx.b[lx.pos]-'0')
						lx.pos++
					}
					out = append(out, byte(v))
				} else {
					out = append(out, e)
				}
			}
		default:
			out = append(out, c)
		}
	}
	return nil, io.ErrUnexpectedEOF
}

func (lx *lexer) hexString() (any, error) {
	lx.pos++ // <
	var out []byte
	hi := -1
	for lx.pos < len(lx.b) {
		c := lx.b[lx.pos]
		lx.pos++
		if c == '>' {
			if hi >= 0 {
				out = append(out, byte(hi<<4))
			}
			return pdfString(out), nil
		}
		if isWhite(c) {
			continue
		}
		v := hexVal(c)
		if v < 0 {
			return nil, errSyntax
		}
		if hi < 0 {
			hi = v
		} else {
			out = append(out, byte(hi<<4|v))
			hi = -1
		}
	}
	return nil, io.ErrUnexpectedEOF
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func decodeNameEscapes(b []byte) string {
	if bytes.IndexByte(b, '#') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) && hexVal(b[i+1]) >= 0 && hexVal(b[i+2]) >= 0 {
			out = append(out, byte(hexVal(b[i+1])<<4|hexVal(b[i+2])))
			i += 2
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

// streamBody returns the stream's bytes that follow the "stream" keyword ending at p: its
// direct /Length of them, or else up to "endstream" (an indirect /Length is applied
// later, once it can be resolved), and the offset where the stream ends.
func streamBody(b []byte, p int, d dict) ([]byte, int) {
	if p < len(b) && b[p] == '\r' {
		p++
	}
	if p < len(b) && b[p] == '\n' {
		p++
	}
	if n, ok := d["Length"].(int64); ok && n >= 0 && int64(p)+n <= int64(len(b)) {
		return b[p : p+int(n)], p + int(n)
	}
	end := bytes.Index(b[p:], []byte("endstream"))
	if end < 0 {
		return b[p:], len(b)
	}
	body := b[p : p+end]
	body = bytes.TrimSuffix(body, []byte("\n"))
	return bytes.TrimSuffix(body, []byte("\r")), p + end
}
