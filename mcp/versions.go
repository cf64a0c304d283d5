package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// ProtocolVersions are the MCP revisions ctx speaks, newest first.
var ProtocolVersions = []string{mcpgo.ProtocolVersion20251125, mcpgo.ProtocolVersion20250618}

// How the pin works with mcp-go v1.2.1, which knows 2026-07-28 (stateless,
// no initialize) and the older revisions down to 2024-11-05:
//
//   - server/discover answers with supportedVersions taken from a transport
//     context value (server.WithSupportedProtocolVersions), set on the stdio
//     context; a client probing with 2026-07-28 learns that it is not offered
//     and falls back to initialize.
//   - initialize asking for anything else (an older revision, an unknown
//     one, or none) is answered with 2025-11-25: a before-initialize hook
//     rewrites the requested version, and mcp-go echoes it.
//   - any other request that declares a 2026-07-28 (or later) version in
//     its _meta is refused before dispatch by a request hook, as a JSON-RPC
//     invalid-request error, so the stateless era is never served.

// withPinnedVersions is the stdio context function.
func withPinnedVersions(ctx context.Context) context.Context {
	return server.WithSupportedProtocolVersions(ctx, ProtocolVersions)
}

// errModernProtocol refuses a stateless-era request.
var errModernProtocol = errors.New("unsupported protocol version: this server speaks MCP 2025-11-25 and " +
	"2025-06-18; start with initialize")

func pinVersions(h *server.Hooks) {
	h.AddBeforeInitialize(func(_ context.Context, _ any, req *mcpgo.InitializeRequest) {
		if !slices.Contains(ProtocolVersions, req.Params.ProtocolVersion) {
			req.Params.ProtocolVersion = ProtocolVersions[0]
		}
	})
	h.AddOnRequestInitialization(func(_ context.Context, _ any, message any) error {
		raw, ok := message.(json.RawMessage)
		if !ok {
			return nil
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				Meta *mcpgo.Meta `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(raw, &m) != nil || m.Method == string(mcpgo.MethodServerDiscover) {
			return nil
		}
		if mcpgo.IsModernProtocol(m.Params.Meta.ProtocolVersion()) {
			return errModernProtocol
		}
		return nil
	})
}
