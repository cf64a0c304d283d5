package reported

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// ErrInvalid is matched by every ValidationError.
var ErrInvalid = errors.New("invalid report")

// FieldError is one problem with one field, written so that an agent can
// correct its call from it alone.
type FieldError struct {
	Field   string `json:"field"`
	Code    string `json:"code"` // required, wrong_type, too_long, too_many, unknown_field, invalid
	Message string `json:"message"`
}

// Codes of FieldError.
const (
	FieldRequired  = "required"
	FieldWrongType = "wrong_type"
	FieldTooLong   = "too_long"
	FieldTooMany   = "too_many"
	FieldUnknown   = "unknown_field"
	FieldInvalid   = "invalid"
)

// ValidationError lists every problem of a call.
type ValidationError struct {
	Kind   string       // save_session or ingest_context
	Errors []FieldError // in field order
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Errors))
	for i, f := range e.Errors {
		parts[i] = f.Field + ": " + f.Message
	}
	return fmt.Sprintf("%s rejected: %s", e.Kind, strings.Join(parts, "; "))
}

func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// Limits of a report's fields.
const (
	MaxText      = 20000 // summary, state
	MaxItem      = 4000  // one decision, open item, gotcha
	MaxPrompt    = 8000
	MaxName      = 128 // thread, continues_from
	MaxItems     = 100
	MaxFiles     = 500
	MaxPath      = 2048
	MaxRecordRaw = 512 << 10
)

type kind int

const (
	kString kind = iota
	kBool
	kStrings
	kDecisions
	kArtifacts
	kTime
)

type field struct {
	name     string
	kind     kind
	max      int // characters of a string or of each item
	maxItems int
	hint     string // how to write it, for wrong_type
}

var reportFields = []field{
	{name: "summary", kind: kString, max: MaxText, hint: `a string: what this session did, in a few sentences`},
	{name: "title", kind: kString, max: 200},
	{name: "thread", kind: kString, max: MaxName, hint: `a string naming the thread, e.g. "Q3 campaign"`},
	{name: "key_decisions", kind: kDecisions, max: MaxItem, maxItems: MaxItems,
		hint: `an array of objects like {"decision": "use SQLite", "rationale": "one file, no server"}`},
	{name: "files_touched", kind: kStrings, max: MaxPath, maxItems: MaxFiles, hint: `an array of paths, e.g. ["src/main.go"]`},
	{name: "open_items", kind: kStrings, max: MaxItem, maxItems: MaxItems, hint: `an array of strings, most important first`},
	{name: "continues_from", kind: kString, max: MaxName, hint: `a ctx session id (ses_...) or a reported id (rep_...)`},
	{name: "handoff", kind: kBool, hint: `true or false`},
	{name: "state", kind: kString, max: MaxText, hint: `a string: where the work stands now`},
	{name: "gotchas", kind: kStrings, max: MaxItem, maxItems: MaxItems, hint: `an array of strings`},
	{name: "artifacts", kind: kArtifacts, max: MaxPath, maxItems: MaxItems,
		hint: `an array of objects like {"path": "docs/spec.md", "role": "spec"}`},
	{name: "suggested_first_prompt", kind: kString, max: MaxPrompt, hint: `a string: the first message the next agent should act on`},
}

var timeFields = []field{
	{name: "started_at", kind: kTime, hint: `an RFC 3339 time, e.g. "2026-07-10T17:41:02Z"`},
	{name: "ended_at", kind: kTime, hint: `an RFC 3339 time, e.g. "2026-07-10T18:05:00Z"`},
}

// Forged are provenance names a payload may carry but never sets: they are
// ignored (and reported as ignored), since provenance comes from the door.
var Forged = map[string]bool{"provenance": true, "reported_by": true, "door": true, "client": true,
	"received_at": true, "revision": true, "token": true, "ctx_session_id": true}

type checker struct {
	errs    []FieldError
	ignored []string
}

func (c *checker) fail(name, code, msg string) {
	c.errs = append(c.errs, FieldError{Field: name, Code: code, Message: msg})
}

// object checks m against fields and returns the known fields only.
func (c *checker) object(prefix string, m map[string]any, fields []field) map[string]any {
	known := map[string]field{}
	for _, f := range fields {
		known[f.name] = f
	}
	out := map[string]any{}
	for _, k := range sortedKeys(m) {
		name := prefix + k
		f, ok := known[k]
		switch {
		case ok:
			if c.value(name, f, m[k]) {
				out[k] = m[k]
			}
		case Forged[k]:
			c.ignored = append(c.ignored, name)
		default:
			c.fail(name, FieldUnknown, "not a field of this call; remove it (known fields: "+names(fields)+")")
		}
	}
	return out
}

func (c *checker) value(name string, f field, v any) bool {
	if v == nil {
		return false // null is absent
	}
	switch f.kind {
	case kString:
		return c.str(name, f, v)
	case kBool:
		if _, ok := v.(bool); !ok {
			c.fail(name, FieldWrongType, "must be "+f.hint)
			return false
		}
	case kTime:
		s, ok := v.(string)
		if _, err := time.Parse(time.RFC3339, s); !ok || err != nil {
			c.fail(name, FieldWrongType, "must be "+f.hint)
			return false
		}
	case kStrings, kDecisions, kArtifacts:
		return c.list(name, f, v)
	}
	return true
}

func (c *checker) str(name string, f field, v any) bool {
	s, ok := v.(string)
	if !ok {
		c.fail(name, FieldWrongType, "must be "+orText(f.hint, "a string"))
		return false
	}
	if n := utf8.RuneCountInString(s); n > f.max {
		c.fail(name, FieldTooLong, fmt.Sprintf("is %d characters; at most %d are kept: shorten it", n, f.max))
		return false
	}
	return true
}

func (c *checker) list(name string, f field, v any) bool {
	items, ok := v.([]any)
	if !ok {
		c.fail(name, FieldWrongType, "must be "+f.hint)
		return false
	}
	if len(items) > f.maxItems {
		c.fail(name, FieldTooMany, fmt.Sprintf("has %d items; at most %d are kept: merge or drop some", len(items), f.maxItems))
		return false
	}
	before := len(c.errs)
	for i, it := range items {
		at := fmt.Sprintf("%s[%d]", name, i)
		switch f.kind {
		case kStrings:
			c.str(at, field{max: f.max, hint: "a string"}, it)
		case kDecisions:
			c.entry(at, it, f.hint, "decision", "rationale")
		case kArtifacts:
			c.entry(at, it, f.hint, "path", "role")
		}
	}
	return len(c.errs) == before
}

// entry checks an object item with a required first key and an optional
// second one.
func (c *checker) entry(name string, v any, hint, first, second string) {
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(name, FieldWrongType, "must be an object: "+hint)
		return
	}
	fs := []field{{name: first, kind: kString, max: MaxItem}, {name: second, kind: kString, max: MaxItem}}
	c.object(name+".", m, fs)
	if s, _ := m[first].(string); strings.TrimSpace(s) == "" {
		c.fail(name+"."+first, FieldRequired, "is required: "+hint)
	}
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func names(fields []field) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.name
	}
	return strings.Join(out, ", ")
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var harnessRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`) })

func (c *checker) harness(name string, v any) string {
	s, ok := v.(string)
	s = strings.ToLower(strings.TrimSpace(s))
	if !ok || !harnessRE().MatchString(s) {
		c.fail(name, FieldInvalid, `must be a harness id like "claude-code", "codex" or "cursor" (lowercase letters, digits, . _ -)`)
		return ""
	}
	return s
}

func (c *checker) result(kind string) error {
	if len(c.errs) == 0 {
		return nil
	}
	return &ValidationError{Kind: kind, Errors: c.errs}
}

// decodeObject parses raw as a JSON object, bounded in size.
func decodeObject(kind string, raw []byte) (map[string]any, error) {
	if len(raw) > MaxRecordRaw {
		return nil, &ValidationError{Kind: kind, Errors: []FieldError{{Field: "(call)", Code: FieldTooLong,
			Message: fmt.Sprintf("the arguments are %d bytes; at most %d are accepted", len(raw), MaxRecordRaw)}}}
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, &ValidationError{Kind: kind, Errors: []FieldError{{Field: "(call)", Code: FieldWrongType,
			Message: "the arguments must be a JSON object"}}}
	}
	return m, nil
}

func toReport(m map[string]any) *Report {
	data, _ := json.Marshal(m)
	r := &Report{}
	_ = json.Unmarshal(data, r) // every field was type-checked
	return r
}
