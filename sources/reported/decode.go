package reported

import (
	"strconv"
	"strings"
)

// IngestSchema is the envelope version ingest_context accepts.
const IngestSchema = "2"

// Save is a decoded save_session call.
type Save struct {
	Report  *Report
	Harness string   // declared harness, "" when the client's is used
	Ignored []string // forged provenance fields that were ignored
}

// DecodeSave validates the arguments of save_session.
func DecodeSave(raw []byte) (*Save, error) {
	m, err := decodeObject(KindSave, raw)
	if err != nil {
		return nil, err
	}
	c := &checker{}
	harness := ""
	if h, ok := m["harness"]; ok && h != nil {
		harness = c.harness("harness", h)
	}
	delete(m, "harness")
	known := c.object("", m, reportFields)
	c.required("summary", known["summary"])
	r := toReport(known)
	c.handoff(r)
	if err := c.result(KindSave); err != nil {
		return nil, err
	}
	return &Save{Report: r, Harness: harness, Ignored: c.ignored}, nil
}

// Ingest is a decoded ingest_context call.
type Ingest struct {
	Report    *Report
	Harness   string
	Version   string // the harness's version, when given
	SessionID string // the harness's own session id, when given
	Ignored   []string
}

var sourceFields = []field{
	{name: "harness", kind: kString, max: 64},
	{name: "version", kind: kString, max: 64},
	{name: "session_id", kind: kString, max: MaxName},
}

// DecodeIngest validates an ingest_context envelope (schema "2"), field by
// field: unknown fields are errors, forged provenance is ignored.
func DecodeIngest(raw []byte) (*Ingest, error) {
	m, err := decodeObject(KindIngest, raw)
	if err != nil {
		return nil, err
	}
	c := &checker{}
	switch v, ok := m["ctxfile_ingest_schema"]; {
	case !ok:
		c.fail("ctxfile_ingest_schema", FieldRequired, `is required: set it to "2"`)
	case v != IngestSchema:
		c.fail("ctxfile_ingest_schema", FieldInvalid, `must be the string "2" (the only schema this server reads)`)
	}
	in := &Ingest{}
	src, _ := m["source"].(map[string]any)
	if src == nil {
		c.fail("source", FieldRequired, `is required: an object like {"harness": "aider"}`)
	} else {
		known := c.object("source.", src, sourceFields)
		if h, ok := known["harness"]; ok {
			in.Harness = c.harness("source.harness", h)
		} else {
			c.fail("source.harness", FieldRequired, `is required: the harness id that ran the session, e.g. "aider"`)
		}
		in.Version, _ = known["version"].(string)
		in.SessionID, _ = known["session_id"].(string)
	}
	sess, _ := m["session"].(map[string]any)
	if sess == nil {
		c.fail("session", FieldRequired, `is required: an object with at least {"summary": "..."}`)
	} else {
		known := c.object("session.", sess, append(append([]field{}, reportFields...), timeFields...))
		c.required("session.summary", known["summary"])
		in.Report = toReport(known)
		c.handoffAt("session.", in.Report)
	}
	for _, k := range sortedKeys(m) {
		switch {
		case k == "ctxfile_ingest_schema" || k == "source" || k == "session":
		case Forged[k]:
			c.ignored = append(c.ignored, k)
		default:
			c.fail(k, FieldUnknown, "not a field of the envelope; remove it (known: ctxfile_ingest_schema, source, session)")
		}
	}
	if err := c.result(KindIngest); err != nil {
		return nil, err
	}
	in.Ignored = c.ignored
	return in, nil
}

func (c *checker) required(name string, v any) {
	if s, _ := v.(string); strings.TrimSpace(s) == "" {
		for _, e := range c.errs {
			if e.Field == name {
				return
			}
		}
		c.fail(name, FieldRequired, "is required: a non-empty summary of what this session did")
	}
}

func (c *checker) handoff(r *Report) { c.handoffAt("", r) }

// handoffAt requires the complete handoff package when r.Handoff is set:
// state, decisions with rationale, ordered open items, gotchas, artifacts
// with roles and a suggested first prompt.
func (c *checker) handoffAt(prefix string, r *Report) {
	if !r.Handoff {
		return
	}
	need := func(name string, ok bool, msg string) {
		if !ok && !c.has(prefix+name) {
			c.fail(prefix+name, FieldRequired, "handoff: "+msg)
		}
	}
	need("state", strings.TrimSpace(r.State) != "", "state is required: where the work stands now (done, in progress, broken)")
	need("key_decisions", len(r.KeyDecisions) > 0,
		`key_decisions is required: at least one {"decision": "...", "rationale": "..."}`)
	for i, d := range r.KeyDecisions {
		need(indexed("key_decisions", i)+".rationale", strings.TrimSpace(d.Rationale) != "",
			"every decision needs its rationale: why it was taken, so the next agent does not undo it")
	}
	need("open_items", len(r.OpenItems) > 0, "open_items is required: what remains, most important first")
	need("gotchas", len(r.Gotchas) > 0,
		`gotchas is required: traps the next agent should know (write ["none found"] if there were none)`)
	need("artifacts", len(r.Artifacts) > 0, `artifacts is required: at least one {"path": "...", "role": "..."}`)
	for i, a := range r.Artifacts {
		need(indexed("artifacts", i)+".role", strings.TrimSpace(a.Role) != "",
			"every artifact needs its role (spec, test, output, log, ...)")
	}
	need("suggested_first_prompt", strings.TrimSpace(r.SuggestedFirstPrompt) != "",
		"suggested_first_prompt is required: the first message the next agent should act on")
}

func (c *checker) has(name string) bool {
	for _, e := range c.errs {
		if e.Field == name || strings.HasPrefix(e.Field, name+"[") || strings.HasPrefix(e.Field, name+".") {
			return true
		}
	}
	return false
}

func indexed(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }
