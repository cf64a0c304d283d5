package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// The transport judges each request's envelope the way the MCP spec asks,
// where mcp-go v1.2.1 does not:
//   - an id must be a string or an integer: an object, array, boolean,
//     fraction or null id is an invalid request (-32600) answered with id
//     null, and nothing is executed (mcp-go executed them, and a null id got
//     no answer at all, so a client waited for ever);
//   - the method must be a string (-32600 with the request's id);
//   - params that do not decode as the method's params are invalid params
//     (-32602) with a message naming the field and the JSON type it needs
//     (mcp-go answered -32600 with its Go struct names);
//   - an unknown tool is -32602 naming at most maxEchoedName characters of
//     the name (mcp-go echoed it whole).

// JSON-RPC error code for invalid params.
const codeInvalidParams = -32602

// maxEchoedName bounds how much of an unknown tool's name an error repeats.
const maxEchoedName = 64

// rejection is an answer the transport writes itself instead of passing
// the request on.
type rejection struct {
	id      string // JSON of the id, "null" when unknown or invalid
	code    int
	message string
}

// envelope is a request line's members, undecoded.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	Method  json.RawMessage `json:"method"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	Params  json.RawMessage `json:"params"`
}

// isRequest reports whether the line is a request (it has an id member and
// is not a response); notifications and responses are not judged here.
func (e *envelope) isRequest() bool { return e.ID != nil && e.Result == nil && e.Error == nil }

// method is the method name, "" when absent or not a string.
func (e *envelope) method() string {
	var m string
	if json.Unmarshal(e.Method, &m) != nil {
		return ""
	}
	return m
}

// tool is the recognized tool a well-formed tools/call names, "" for any
// other request: what usage accounting counts (spec 000).
func (e *envelope) tool(tools map[string]bool) string {
	if e.method() != "tools/call" || e.JSONRPC != "2.0" {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(e.Params, &p) != nil || !tools[p.Name] {
		return ""
	}
	return p.Name
}

// requestTypes are the mcp-go request types the server decodes each
// method's request into: a request that does not decode into its type has
// invalid params.
var requestTypes = map[string]func() any{
	"initialize":               func() any { return new(mcpgo.InitializeRequest) },
	"ping":                     func() any { return new(mcpgo.PingRequest) },
	"server/discover":          func() any { return new(mcpgo.DiscoverRequest) },
	"logging/setLevel":         func() any { return new(mcpgo.SetLevelRequest) },
	"resources/list":           func() any { return new(mcpgo.ListResourcesRequest) },
	"resources/templates/list": func() any { return new(mcpgo.ListResourceTemplatesRequest) },
	"resources/read":           func() any { return new(mcpgo.ReadResourceRequest) },
	"resources/subscribe":      func() any { return new(mcpgo.SubscribeRequest) },
	"resources/unsubscribe":    func() any { return new(mcpgo.UnsubscribeRequest) },
	"prompts/list":             func() any { return new(mcpgo.ListPromptsRequest) },
	"prompts/get":              func() any { return new(mcpgo.GetPromptRequest) },
	"tools/list":               func() any { return new(mcpgo.ListToolsRequest) },
	"tools/call":               func() any { return new(mcpgo.CallToolRequest) },
	"completion/complete":      func() any { return new(mcpgo.CompleteRequest) },
}

// judge returns the transport's answer to a request line it must not pass
// on, or nil. tools are the tool names the server serves.
func judge(line []byte, e *envelope, tools map[string]bool) *rejection {
	if !validIDJSON(e.ID) {
		return &rejection{"null", codeInvalidRequest, "invalid request: the id must be a string or an integer"}
	}
	id := string(e.ID)
	method := e.method()
	if method == "" {
		return &rejection{id, codeInvalidRequest, "invalid request: the method must be a non-empty string"}
	}
	if len(e.Params) > 0 && !bytes.Equal(e.Params, []byte("null")) && firstByte(e.Params) != '{' {
		return &rejection{id, codeInvalidParams, "invalid params: params must be a JSON object"}
	}
	if mk := requestTypes[method]; mk != nil {
		if err := json.Unmarshal(line, mk()); err != nil {
			return &rejection{id, codeInvalidParams, "invalid params: " + describeDecode(err)}
		}
	}
	if method == "tools/call" {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(e.Params, &p)
		if !tools[p.Name] {
			return &rejection{id, codeInvalidParams, fmt.Sprintf("unknown tool %s: tools/list names the tools", quoteClipped(p.Name))}
		}
	}
	return nil
}

// validIDJSON reports whether raw is a JSON string or integer.
func validIDJSON(raw json.RawMessage) bool {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return false
	}
	switch x := v.(type) {
	case string:
		return true
	case json.Number:
		_, err := x.Int64()
		return err == nil
	}
	return false
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// describeDecode says what a decode error found in JSON terms: the field's
// path and the JSON type it needs, never a Go type name.
func describeDecode(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type), te.Value)
	}
	return "the params do not match the method's schema"
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a valid value"
}

// quoteClipped quotes at most maxEchoedName characters of s, marking a cut.
func quoteClipped(s string) string {
	if utf8.RuneCountInString(s) <= maxEchoedName {
		return fmt.Sprintf("%q", s)
	}
	r := []rune(s)
	return fmt.Sprintf("%q (%d more characters)", string(r[:maxEchoedName]), len(r)-maxEchoedName)
}

// Over-long lines are discarded unread, but their id is answered when it
// can be found: as a member at the line's start (read from the kept
// prefix), or as the last member at its end (a client that writes the id
// last, as the TypeScript SDK does).

// tailKeep is how much of a discarded line's end is kept to find its id.
const tailKeep = 256

var tailID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[,{]\s*"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.){0,200}")\s*}\s*$`)
})

// headID returns the JSON of the id member of a JSON object whose start is
// prefix, when the prefix reaches that far, else "".
func headID(prefix []byte) string {
	d := json.NewDecoder(bytes.NewReader(prefix))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return ""
		}
		var v json.RawMessage
		if d.Decode(&v) != nil {
			return ""
		}
		if key == "id" {
			if validIDJSON(v) {
				return string(v)
			}
			return ""
		}
	}
	return ""
}

// tailIDOf returns the JSON of an id that is the last member of the object
// a line ends with, else "".
func tailIDOf(tail []byte) string {
	m := tailID().FindSubmatch(tail)
	if m == nil || !validIDJSON(m[1]) {
		return ""
	}
	return strings.TrimSpace(string(m[1]))
}
