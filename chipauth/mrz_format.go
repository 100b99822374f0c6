package chipauth

import (
	"log/slog"
	"strconv"
	"time"
)

// redacted stands in for a personal MRZ field in every printed or logged form.
const redacted = "[redacted]"

// String returns the MRZ with its personal fields redacted: format, document type,
// issuing state and expiry are shown; nationality, document number and date of
// birth are replaced by "[redacted]" (names and sex are never kept).
func (m MRZ) String() string {
	return "{" + m.fields(" ", func(s string) string { return s }) + "}"
}

// GoString is String for %#v, in Go composite-literal style, with the same fields
// redacted.
func (m MRZ) GoString() string {
	return "chipauth.MRZ{" + m.fields(", ", strconv.Quote) + "}"
}

// fields lists the MRZ as name:value pairs, quoting the values with q.
func (m MRZ) fields(sep string, q func(string) string) string {
	expiry := ""
	if !m.Expiry.IsZero() {
		expiry = m.Expiry.Format(time.DateOnly)
	}
	return "Format:" + q(string(m.Format)) + sep +
		"DocumentType:" + q(m.DocumentType) + sep +
		"IssuingState:" + q(m.IssuingState) + sep +
		"Expiry:" + q(expiry) + sep +
		"Nationality:" + q(redacted) + sep +
		"DocumentNumber:" + q(redacted) + sep +
		"BirthDate:" + q(redacted)
}

// LogValue implements slog.LogValuer with the same redaction as String.
func (m MRZ) LogValue() slog.Value {
	expiry := ""
	if !m.Expiry.IsZero() {
		expiry = m.Expiry.Format(time.DateOnly)
	}
	return slog.GroupValue(
		slog.String("format", string(m.Format)),
		slog.String("documentType", m.DocumentType),
		slog.String("issuingState", m.IssuingState),
		slog.String("expiry", expiry),
		slog.String("nationality", redacted),
		slog.String("documentNumber", redacted),
		slog.String("birthDate", redacted),
	)
}
