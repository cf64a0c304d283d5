package mcp

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// rawRunFunc answers a tool call from its raw arguments (the write tools
// validate field by field themselves, so that every problem is named).
type rawRunFunc func(ctx context.Context, s *Server, raw []byte) (*reply, error)

// defineWriteTool builds a tool that appends to ctx's history: not
// read-only, not destructive (it never changes what was stored), not
// idempotent (a call is a new revision), closed world.
func defineWriteTool[In, Out any](name, title, description string, refine func(*jsonschema.Schema), run rawRunFunc) toolDef {
	t := typedTool[In, Out](name, title, description, refine, false)
	return toolDef{tool: t, handler: func(s *Server) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			raw := bytes.TrimSpace(req.Params.RawArguments)
			if len(raw) == 0 && req.Params.Arguments != nil {
				raw, _ = json.Marshal(req.Params.Arguments)
			}
			if len(raw) == 0 || string(raw) == "null" {
				raw = []byte("{}")
			}
			return s.result(run(ctx, s, raw)), nil
		}
	}}
}
