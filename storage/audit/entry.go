package audit

import (
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/veriland/veriland"
)

// Severity tags an entry (SPEC S2.6).
type Severity string

// The four severities, from routine to urgent.
const (
	SeverityInfo     Severity = "INFO"     // routine state changes
	SeverityNotice   Severity = "NOTICE"   // notable but expected: revocations, key creation
	SeverityWarning  Severity = "WARNING"  // failures: bad tokens, bad signatures, 429s
	SeverityCritical Severity = "CRITICAL" // integrity or security events that need a human
)

// Valid reports whether s is one of the four severities.
func (s Severity) Valid() bool {
	switch s {
	case SeverityInfo, SeverityNotice, SeverityWarning, SeverityCritical:
		return true
	}
	return false
}

// Outcome says whether the recorded action took effect.
type Outcome string

// The outcomes of an audited action.
const (
	OutcomeSuccess Outcome = "SUCCESS" // the action took effect
	OutcomeFailure Outcome = "FAILURE" // the action was refused or failed; nothing changed
)

// Valid reports whether o is one of the outcomes.
func (o Outcome) Valid() bool { return o == OutcomeSuccess || o == OutcomeFailure }

// TimeFormat is the layout of an entry's "time" member: RFC 3339, UTC, always exactly
// three fractional digits, so that an entry has one canonical JSON form. Append
// truncates times to the millisecond.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Entry is one record of the audit log. Its JSON members are exactly
// seq, id, time, env, actor, role, action, resourceType, resourceId, severity,
// outcome, requestId, detail, prevHash and hash, all always present.
//
// Callers set Env, Action, Outcome and, as they apply, Severity, ResourceType,
// ResourceID and Detail; Append sets the rest but Seq, PrevHash and Hash, which Seal
// sets when the entry joins the chain (see Log.Append and Seal).
type Entry struct {
	Seq          uint64               // position in its environment's chain, from 1; set by Seal (0 while pending)
	ID           string               // "aud_…"; set by Append
	Time         time.Time            // UTC, millisecond precision; set by Append
	Env          veriland.Environment // the chain the entry belongs to; required
	Actor        string               // principal subject; from the context when empty
	Role         veriland.Role        // principal role; from the context when empty
	Action       string               // what happened, e.g. "consent.approve"; required
	ResourceType string               // kind of record acted on, e.g. "verification_request"
	ResourceID   string               // id of the record acted on, e.g. "vrq_…"
	Severity     Severity             // INFO when empty
	Outcome      Outcome              // required
	RequestID    string               // from the context when empty
	// Detail is machine-readable context. It must never hold personal data (names,
	// document numbers, contact details, biometrics, images) or secrets (tokens, keys,
	// passwords, signatures of secrets): the log is append-only, so nothing written
	// here can ever be erased. Append refuses keys and values that look like either
	// (see CheckDetail). Numbers are hashed in their RFC 8785 (IEEE 754 double) form:
	// store integers beyond 2^53 as strings.
	Detail   map[string]any
	PrevHash string // hex SHA-256 of the previous entry, GenesisHash for seq 1; set by Seal
	Hash     string // hex SHA-256 over PrevHash and this entry; set by Seal
}

// DetailAccount is the Detail member that names the account a SANDBOX entry belongs
// to, so that each account's sandbox sees only its own entries (SPEC S2.3). Append
// fills it from the principal's account when the caller has not; List's
// Filter.Account selects on it.
const DetailAccount = "account"

// wireEntry is the JSON form of an Entry. Hash is omitted when empty, which is how the
// hash input ("the entry without hash") is produced.
type wireEntry struct {
	Seq          uint64               `json:"seq"`
	ID           string               `json:"id"`
	Time         string               `json:"time"`
	Env          veriland.Environment `json:"env"`
	Actor        string               `json:"actor"`
	Role         veriland.Role        `json:"role"`
	Action       string               `json:"action"`
	ResourceType string               `json:"resourceType"`
	ResourceID   string               `json:"resourceId"`
	Severity     Severity             `json:"severity"`
	Outcome      Outcome              `json:"outcome"`
	RequestID    string               `json:"requestId"`
	Detail       map[string]any       `json:"detail"`
	PrevHash     string               `json:"prevHash"`
	Hash         string               `json:"hash,omitempty"`
}

func (e Entry) wire() wireEntry {
	detail := e.Detail
	if detail == nil {
		detail = map[string]any{} // "detail" is always an object, never null
	}
	return wireEntry{
		Seq: e.Seq, ID: e.ID, Time: e.Time.UTC().Format(TimeFormat), Env: e.Env,
		Actor: e.Actor, Role: e.Role, Action: e.Action,
		ResourceType: e.ResourceType, ResourceID: e.ResourceID,
		Severity: e.Severity, Outcome: e.Outcome, RequestID: e.RequestID,
		Detail: detail, PrevHash: e.PrevHash, Hash: e.Hash,
	}
}

// MarshalJSON encodes e with the member names of SPEC S2.6 and the time in TimeFormat.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(e.wire())
}

// UnmarshalJSON decodes the form MarshalJSON writes (any RFC 3339 time is accepted).
func (e *Entry) UnmarshalJSON(data []byte) error {
	var w wireEntry
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	t, err := time.Parse(time.RFC3339Nano, w.Time)
	if err != nil {
		return fmt.Errorf("audit: entry time: %w", err)
	}
	*e = Entry{
		Seq: w.Seq, ID: w.ID, Time: t.UTC(), Env: w.Env,
		Actor: w.Actor, Role: w.Role, Action: w.Action,
		ResourceType: w.ResourceType, ResourceID: w.ResourceID,
		Severity: w.Severity, Outcome: w.Outcome, RequestID: w.RequestID,
		Detail: w.Detail, PrevHash: w.PrevHash, Hash: w.Hash,
	}
	return nil
}

// actionPattern keeps actions machine-readable: "consent.approve", "auth.bad_token".
var actionPattern = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// Limits on caller-supplied members, so that one entry stays a small durable write.
const (
	maxActionLen = 64
	maxFieldLen  = 256
)

// validate checks the members a caller sets, after defaults are applied. It refuses
// members that Append owns, so that a caller can never forge a position in the chain.
func (e *Entry) validate() error {
	var errs veriland.Errors
	if !e.Env.Valid() {
		errs = append(errs, veriland.Invalid("/env", "env must be SANDBOX or PRODUCTION"))
	}
	if len(e.Action) > maxActionLen || !actionPattern.MatchString(e.Action) {
		errs = append(errs, veriland.Invalid("/action", "action must be dot-separated lower-case words of at most %d characters", maxActionLen))
	}
	if !e.Severity.Valid() {
		errs = append(errs, veriland.Invalid("/severity", "severity must be INFO, NOTICE, WARNING or CRITICAL"))
	}
	if !e.Outcome.Valid() {
		errs = append(errs, veriland.Invalid("/outcome", "outcome must be SUCCESS or FAILURE"))
	}
	if e.Role != "" && !e.Role.Valid() {
		errs = append(errs, veriland.Invalid("/role", "role must be holder, verifier, notary or admin"))
	}
	for _, f := range []struct{ pointer, value string }{
		{"/actor", e.Actor}, {"/resourceType", e.ResourceType},
		{"/resourceId", e.ResourceID}, {"/requestId", e.RequestID},
	} {
		if len(f.value) > maxFieldLen {
			errs = append(errs, veriland.Invalid(f.pointer, "at most %d bytes", maxFieldLen))
		}
	}
	if e.Seq != 0 || e.ID != "" || !e.Time.IsZero() || e.PrevHash != "" || e.Hash != "" {
		errs = append(errs, veriland.Invalid("", "seq, id, time, prevHash and hash are set by Append and must be empty"))
	}
	if err := CheckDetail(e.Detail); err != nil {
		errs = append(errs, asErrors(err)...)
	}
	return errs.Err()
}

func asErrors(err error) veriland.Errors {
	switch e := err.(type) {
	case veriland.Errors:
		return e
	case *veriland.Error:
		return veriland.Errors{e}
	}
	return veriland.Errors{veriland.Invalid("/detail", "%s", err.Error())}
}
