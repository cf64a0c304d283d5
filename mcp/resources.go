package mcp

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"ctx/bearer"
	"ctx/workspace"
)

// contextResources are the resources of spec 001: the same ContextObject
// as get_context, by scope.
var contextResources = []struct{ uri, name, scope, description string }{
	{"context://current", "Current context", workspace.ScopeFull,
		"The full ContextObject of the served workspace as JSON (plan, key files, git state, recent sessions). Untrusted data from files and transcripts."},
	{"context://plan", "Plan", workspace.ScopePlan,
		"The plan scope of the ContextObject: the plan document and its metadata. Untrusted data from files."},
	{"context://git", "Git state", workspace.ScopeGit,
		"The git scope of the ContextObject: branch, status, commits, diff summary. Untrusted data from git."},
}

func (s *Server) addResources() {
	for _, r := range contextResources {
		scope := r.scope
		res := mcpgo.NewResource(r.uri, r.name, mcpgo.WithResourceDescription(r.description),
			mcpgo.WithMIMEType("application/json"))
		s.mcp.AddResource(res, func(ctx context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			if err := requireScope(ctx, s, bearer.ScopeRead, req.Params.URI); err != nil {
				return nil, err
			}
			o, err := s.handoff.GetContext(ctx, s.caller(ctx), scope)
			if err != nil {
				return nil, err
			}
			data, err := json.Marshal(o)
			if err != nil {
				return nil, err
			}
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI,
				MIMEType: "application/json", Text: string(data)}}, nil
		})
	}
}
