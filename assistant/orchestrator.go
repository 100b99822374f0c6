package assistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/veriland/veriland"
)

// tool is one function the language model may call: the same lookups the embedded
// router uses, behind a JSON Schema that the model's arguments must pass before the
// tool runs.
type tool struct {
	spec   ToolSpec
	schema *jsonschema.Schema
	run    func(ctx context.Context, d Domain, p veriland.Principal, args map[string]string) (*finding, error)
}

const idPattern = "^%s_[a-z2-7]{26}$"

// toolSchemas are the tools' argument schemas (JSON Schema 2020-12).
var toolSchemas = map[string]string{
	"parcel_status": `{"type":"object","additionalProperties":false,"properties":{
		"parcelId":{"type":"string","pattern":"` + fmt.Sprintf(idPattern, "prc") + `","description":"The parcel id (prc_…). Omit it to list the caller's own parcels."}}}`,
	"certificate_check": `{"type":"object","additionalProperties":false,"required":["hash"],"properties":{
		"hash":{"type":"string","pattern":"^0x[0-9a-fA-F]{64}$","description":"The certificate hash: 0x and 64 hexadecimal digits."}}}`,
	"my_parcels": `{"type":"object","additionalProperties":false,"properties":{}}`,
	"transfer_howto": `{"type":"object","additionalProperties":false,"properties":{
		"parcelId":{"type":"string","pattern":"` + fmt.Sprintf(idPattern, "prc") + `","description":"A parcel id, to say whether that parcel can be transferred now."}}}`,
	"verification_request_status": `{"type":"object","additionalProperties":false,"required":["requestId"],"properties":{
		"requestId":{"type":"string","pattern":"` + fmt.Sprintf(idPattern, "vrq") + `","description":"The verification request id (vrq_…)."}}}`,
	"attestation_status": `{"type":"object","additionalProperties":false,"required":["attestationId"],"properties":{
		"attestationId":{"type":"string","pattern":"` + fmt.Sprintf(idPattern, "att") + `","description":"The attestation id (att_…)."}}}`,
}

var toolDescriptions = map[string]string{
	"parcel_status":               "Status of a land parcel the caller may see (certification state, certificate hash, token), or the caller's own parcels.",
	"certificate_check":           "Whether a land certificate hash was issued by this registry, and whether it is current, superseded or revoked.",
	"my_parcels":                  "The parcels the caller owns with its wallet (a holder signed in with its wallet), each with its status, certificate version and owner binding, and any transfer that waits for the caller's signature, with the page to sign it on.",
	"transfer_howto":              "How to transfer a certified parcel to a new owner (an owner with a wallet signs it; a notary never requests one), and whether a given parcel can be transferred now.",
	"verification_request_status": "Status of an identity verification request (pending, approved, rejected, expired, cancelled).",
	"attestation_status":          "Whether an attestation is valid or revoked.",
}

// tools builds the tool table. It is built per call (cheaply: the schemas are
// compiled once) so that no package state is shared.
func tools() map[string]tool {
	run := map[string]func(context.Context, Domain, veriland.Principal, map[string]string) (*finding, error){
		"parcel_status": func(ctx context.Context, d Domain, p veriland.Principal, a map[string]string) (*finding, error) {
			if a["parcelId"] == "" {
				return d.myParcels(ctx, p)
			}
			return d.parcelStatus(ctx, p, a["parcelId"])
		},
		"certificate_check": func(ctx context.Context, d Domain, p veriland.Principal, a map[string]string) (*finding, error) {
			return d.certificateCheck(ctx, p, strings.ToLower(a["hash"]))
		},
		"my_parcels": func(ctx context.Context, d Domain, p veriland.Principal, _ map[string]string) (*finding, error) {
			return d.ownedParcels(ctx, p)
		},
		"transfer_howto": func(ctx context.Context, d Domain, p veriland.Principal, a map[string]string) (*finding, error) {
			return d.transferHowTo(ctx, p, a["parcelId"])
		},
		"verification_request_status": func(ctx context.Context, d Domain, p veriland.Principal, a map[string]string) (*finding, error) {
			return d.verificationStatus(ctx, p, a["requestId"])
		},
		"attestation_status": func(ctx context.Context, d Domain, p veriland.Principal, a map[string]string) (*finding, error) {
			return d.attestationStatus(ctx, p, a["attestationId"])
		},
	}
	out := make(map[string]tool, len(run))
	for name, fn := range run {
		out[name] = tool{
			spec:   ToolSpec{Name: name, Description: toolDescriptions[name], Parameters: json.RawMessage(toolSchemas[name])},
			schema: compiledSchemas[name],
			run:    fn,
		}
	}
	return out
}

// compiledSchemas are toolSchemas compiled; a schema that does not compile is a bug
// caught by every test of this package.
var compiledSchemas = func() map[string]*jsonschema.Schema {
	c := jsonschema.NewCompiler()
	out := map[string]*jsonschema.Schema{}
	for name, src := range toolSchemas {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
		if err != nil {
			panic("assistant: tool schema " + name + ": " + err.Error())
		}
		url := "mem://assistant/tools/" + name + ".json"
		if err := c.AddResource(url, doc); err != nil {
			panic("assistant: tool schema " + name + ": " + err.Error())
		}
		out[name] = c.MustCompile(url)
	}
	return out
}()

// maxCallsPerRound bounds the tool calls of one model message.
const maxCallsPerRound = 8

// errModelLoop is a model that still asks for tools after MaxToolRounds rounds.
var errModelLoop = errors.New("assistant: the language model did not answer within the tool round limit")

// systemPrompt instructs the model. It holds no personal data: the only text of the
// user's that reaches the model is the message being answered, and tool results
// carry ids, states, places and hashes, never names or identity documents.
func systemPrompt(lang string) string {
	name := map[string]string{"en": "English", "fr": "French", "es": "Spanish", "pt": "Portuguese", "ar": "Arabic", "de": "German", "it": "Italian"}[lang]
	return "You are the assistant of veriland, a land registry and identity verification service. " +
		"Answer in " + name + ", briefly. Use the tools for every fact about a parcel, a certificate, a verification request " +
		"or an attestation, and state only what the tools returned; quote the ids and hashes you used. " +
		"If a tool says a record is not found, say so; never guess. If the question is outside land certificates, " +
		"parcels, transfers, verification requests and attestations, say what you can help with. " +
		"An owner who holds a wallet must sign a transfer of its parcel, and a notary never requests one."
}

// askModel answers text with the language model and the tools. It returns the
// model's answer and what the tools found (for the reply's actions and references).
func (s *Service) askModel(ctx context.Context, p veriland.Principal, text, lang string) (string, *finding, error) {
	ctx, cancel := context.WithTimeout(ctx, s.modelTimeout())
	defer cancel()
	tt := tools()
	specs := make([]ToolSpec, 0, len(tt))
	for _, name := range []string{"parcel_status", "my_parcels", "certificate_check", "transfer_howto", "verification_request_status", "attestation_status"} {
		specs = append(specs, tt[name].spec)
	}
	msgs := []ChatMessage{{Role: RoleSystem, Content: systemPrompt(lang)}, {Role: RoleUser, Content: text}}
	found := &finding{}
	for round := 0; ; round++ {
		resp, err := s.Model.Chat(ctx, ChatRequest{Messages: msgs, Tools: specs})
		if err != nil {
			return "", nil, err
		}
		calls := resp.Message.ToolCalls
		if len(calls) == 0 {
			answer := strings.TrimSpace(resp.Message.Content)
			if answer == "" {
				return "", nil, errors.New("assistant: the language model answered with no text")
			}
			return answer, found, nil
		}
		if round >= s.maxToolRounds() {
			return "", nil, errModelLoop
		}
		if len(calls) > maxCallsPerRound {
			calls = calls[:maxCallsPerRound]
		}
		msgs = append(msgs, ChatMessage{Role: RoleAssistant, Content: resp.Message.Content, ToolCalls: calls})
		for _, c := range calls {
			result := s.callTool(ctx, tt, p, lang, c, found)
			msgs = append(msgs, ChatMessage{Role: RoleTool, ToolCallID: c.ID, Content: result})
		}
	}
}

// callTool runs one call the model asked for and returns the JSON the model sees:
// {"answer", "data"} or {"error"}. Arguments that break the tool's schema never reach
// the tool.
func (s *Service) callTool(ctx context.Context, tt map[string]tool, p veriland.Principal, lang string, c ToolCall, found *finding) string {
	fail := func(msg string) string {
		b, _ := json.Marshal(map[string]string{"error": msg})
		return string(b)
	}
	t, ok := tt[c.Name]
	if !ok {
		return fail("unknown tool " + c.Name)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(c.Arguments))
	if err != nil {
		return fail("arguments are not valid JSON")
	}
	if err := t.schema.Validate(inst); err != nil {
		return fail("arguments do not match the tool's schema: " + err.Error())
	}
	args := map[string]string{}
	if m, ok := inst.(map[string]any); ok {
		for k, v := range m {
			if s, ok := v.(string); ok {
				args[k] = s
			}
		}
	}
	f, err := t.run(ctx, s.Domain, p, args)
	if err != nil {
		s.logger().WarnContext(ctx, "assistant tool failed", "tool", c.Name, "err", err)
		return fail("the lookup failed; try again later")
	}
	found.actions = append(found.actions, f.actions...)
	found.refs = append(found.refs, f.refs...)
	b, err := json.Marshal(map[string]any{"answer": render(lang, f.sentences), "data": f.data})
	if err != nil {
		return fail("the lookup failed")
	}
	return string(b)
}
