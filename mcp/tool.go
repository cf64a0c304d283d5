package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"ctx/query"
)

// MaxResponseBytes bounds one JSON-RPC response line, newline included
// (spec 000: the 1 MiB aggregate MCP limit).
const MaxResponseBytes = 1 << 20

// envelopeReserve covers the JSON-RPC envelope around a tool result:
// {"jsonrpc":"2.0","id":…,"result":…} and the newline, for ids of up to
// about 1,900 bytes.
const envelopeReserve = 2048

// maxTextBytes bounds the text fallback of a result.
const maxTextBytes = 64 << 10

// reply is a tool's successful answer, already serialized.
type reply struct {
	structured json.RawMessage
	text       string
	bytes      int // the serialized result object: structuredContent + text + keys
}

// answer is the reply of a use case that returned v and err: err as it
// is, else v with its text rendering.
func answer[T any](v T, err error, text func(T) string) (*reply, error) {
	if err != nil {
		return nil, err
	}
	return respond(v, text(v))
}

// respond serializes a success object and its text fallback. The byte
// count is what mcp-go will write for the result object (encoding/json
// with HTML escaping, the text as a JSON string).
func respond(out any, text string) (*reply, error) {
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	textJSON, err := json.Marshal(text)
	if err != nil {
		return nil, err
	}
	const keys = len(`{"content":[{"type":"text","text":}],"structuredContent":}`)
	return &reply{structured: raw, text: text, bytes: len(raw) + len(textJSON) + keys}, nil
}

// fits reports whether a reply stays within the response budget.
func (r *reply) fits() bool { return r.bytes+envelopeReserve <= MaxResponseBytes }

// toolDef is one registered tool: its advertised definition and handler.
type toolDef struct {
	tool    mcpgo.Tool
	handler func(s *Server) server.ToolHandlerFunc
}

// runFunc answers a tool call with decoded, not yet validated input.
type runFunc[In any] func(ctx context.Context, s *Server, in *In) (*reply, error)

// defineTool builds a read-only tool whose input is In and whose success
// object is Out. refine adds input constraints struct tags cannot express.
func defineTool[In, Out any](name, title, description string, refine func(*jsonschema.Schema), run runFunc[In]) toolDef {
	t := typedTool[In, Out](name, title, description, refine, true)
	return toolDef{tool: t, handler: func(s *Server) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			var in In
			if err := decodeArgs(req.Params, &in); err != nil {
				return s.failure(err), nil
			}
			return s.result(run(ctx, s, &in)), nil
		}
	}}
}

// typedTool is the tool In and Out describe: raw input and output schemas
// (refine adds the input constraints struct tags cannot express) and the
// annotations of a read-only tool, or of one that appends to ctx's history
// (not read-only, not destructive: it never changes what was stored; not
// idempotent: a call is a new revision). Every tool is closed world.
func typedTool[In, Out any](name, title, description string, refine func(*jsonschema.Schema), readOnly bool) mcpgo.Tool {
	t := mcpgo.NewTool(name,
		mcpgo.WithDescription(description),
		mcpgo.WithTitleAnnotation(title),
		mcpgo.WithRawInputSchema(mustJSON(inputSchemaOf[In](refine))),
		mcpgo.WithRawOutputSchema(mustJSON(outputSchemaOf[Out]())),
		mcpgo.WithReadOnlyHintAnnotation(readOnly),
		mcpgo.WithDestructiveHintAnnotation(false),
		mcpgo.WithIdempotentHintAnnotation(readOnly),
		mcpgo.WithOpenWorldHintAnnotation(false),
	)
	t.InputSchema = mcpgo.ToolInputSchema{} // the raw schema is the one advertised
	return t
}

// result is the call result of a tool's reply: its text and structured
// content, or the tool error of err or of a reply over the budget.
func (s *Server) result(r *reply, err error) *mcpgo.CallToolResult {
	if err != nil {
		return s.failure(err)
	}
	if !r.fits() {
		return s.failure(outputLimit())
	}
	return &mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent(r.text)},
		RawStructuredContent: r.structured}
}

// outputLimit is the tool error of a result that cannot fit the budget.
func outputLimit() *toolError {
	e := failf(query.CodeOutputLimit, "the answer does not fit the 1 MiB MCP response limit: ask for less "+
		"(a smaller window or limit, content text or none), or use the ctx CLI for the complete stream")
	e.details = map[string]any{"limit_bytes": MaxResponseBytes}
	return e
}

// failure renders an error as an isError result with the error object.
func (s *Server) failure(err error) *mcpgo.CallToolResult {
	obj := errorObject(err, func(cause error) { s.logf("tool error: %v", cause) })
	raw, _ := json.Marshal(obj)
	return &mcpgo.CallToolResult{
		Content:              []mcpgo.Content{mcpgo.NewTextContent(obj.ErrorCode + ": " + obj.Message)},
		RawStructuredContent: raw,
		IsError:              true,
	}
}

// decodeArgs decodes tool arguments strictly: an object, known fields only,
// the right types. Its errors are invalid_request and never echo values.
func decodeArgs(p mcpgo.CallToolParams, dst any) error {
	raw := bytes.TrimSpace(p.RawArguments)
	if len(raw) == 0 && p.Arguments != nil {
		var err error
		if raw, err = json.Marshal(p.Arguments); err != nil {
			return invalidf("arguments must be a JSON object")
		}
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return invalidf("arguments must be a JSON object")
	}
	raw = integralNumbers(raw)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return argError(err, dst)
	}
	return nil
}

// integralNumbers rewrites the numbers of a JSON object that have an
// integral value (1.0, 1e2) as integers: JSON Schema's integer admits
// them, so a schema-valid call must not fail to decode into an int. Input
// that does not decode is returned as it is (the strict decode reports it).
func integralNumbers(raw []byte) []byte {
	if !bytes.ContainsAny(raw, ".eE") {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	changed := false
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		case json.Number:
			if _, err := t.Int64(); err != nil {
				if f, err := t.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
					changed = true
					return json.Number(strconv.FormatInt(int64(f), 10))
				}
			}
		}
		return x
	}
	v = walk(v)
	if !changed {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// argError turns a decoding error into a generic invalid_request.
func argError(err error, dst any) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return invalidf("argument %s has the wrong type: want %s", te.Field, argKind(te.Type))
	}
	if strings.HasPrefix(err.Error(), "json: unknown field") {
		names := fieldNames(dst)
		if len(names) == 0 {
			return invalidf("unknown argument: this tool takes no arguments")
		}
		return invalidf("unknown argument: the valid arguments are %s", strings.Join(names, ", "))
	}
	return invalidf("arguments are not a valid JSON object for this tool")
}

// argKind is jsonKind for a tool argument: an array names its elements'
// type ("an array of strings").
func argKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if k := t.Kind(); k == reflect.Slice || k == reflect.Array {
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(argKind(t.Elem()), "a "), "an ") + "s"
	}
	return jsonKind(t)
}

// fieldNames lists the json names of a struct's fields, those of its
// embedded structs included.
func fieldNames(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
