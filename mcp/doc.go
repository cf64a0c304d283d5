// Package mcp is the MCP server of ctx (spec 000): `ctx mcp serve` speaks
// newline-delimited JSON-RPC over stdio through github.com/mark3labs/mcp-go
// and answers tools over the read models of package query. The server is
// read-only: it never imports history, initializes a store or writes derived
// state. Its one write is the local usage aggregate (see Usage).
//
// Vocabulary:
//   - Tool: one file per tool (tool_<name>.go) with a typed input struct, a
//     typed output struct, a description written as an instruction to a
//     model and a run function that calls package query. Every tool is
//     read-only and says so in its annotations.
//   - Pin: each tool call acquires the active generation's Reader from a
//     query.Pool, which keeps it (tree, tombstones, open index shards)
//     across calls and re-pins when refs/active moves, so an import that
//     publishes a new generation is visible to the next call while calls
//     still on the old one finish on it.
//   - Tool error: a failure the model can act on. It is a result with
//     isError true whose structuredContent is the error object
//     {error_code, message, details}; every output schema admits it (an
//     anyOf of the success object and the error object), because hosts
//     validate structuredContent even when isError is set. Malformed
//     arguments are the tool error invalid_request, checked by the handler
//     (mcp-go's own schema validation carries no error_code).
//   - Protocol error: a JSON-RPC error (parse error, invalid request,
//     unknown method or tool). Never counted as usage. The transport
//     judges envelopes itself (envelope.go, on stdio and HTTP): an id that
//     is not a string or an integer (null included) is -32600 with id null
//     and is not executed; params that do not decode are -32602 in JSON
//     terms; an unknown tool's name is echoed clipped.
//   - Untrusted excerpt: any field that carries stored transcript text
//     (text, snippet, command, file texts, titles). Output schemas label
//     them so, and the text fallback introduces them as data.
//   - Response budget: one JSON-RPC response line, newline included, stays
//     within MaxResponseBytes (1 MiB). show_session pages shrink to fit;
//     a single record that cannot fit is the tool error
//     output_limit_exceeded.
//   - Protocol pin: the server speaks 2025-11-25 and 2025-06-18 only.
//     server/discover advertises exactly those two (a transport context
//     value of mcp-go), initialize with any other version is answered with
//     2025-11-25 (a before-initialize hook), and a stateless 2026-07-28
//     request is rejected as a protocol error (a request hook); clients that
//     probe with server/discover fall back to initialize.
//   - Input lines: the transport hands mcp-go one complete line at a time.
//     A line longer than MaxRequestBytes is discarded as it is read (never
//     held) and answered with an invalid-request error carrying its id when
//     the id is a member at the line's start or its last member (else id
//     null). A request
//     other than initialize, server/discover or ping read before any
//     initialize is answered with an invalid-request error and not served.
//   - Status: the status tool returns sdk.ReadStatus, the read model ctx
//     status --format json prints, for the server's working directory.
//   - Drain: mcp-go may drop replies still in flight when stdin ends, so the
//     transport holds end-of-input back from mcp-go until every request it
//     read has been answered (bounded by DrainTimeout), then the process
//     exits.
//   - Usage: local, content-free accounting of recognized tools/call
//     requests, recorded after the response was written and flushed, on
//     stdio and on the HTTP door alike: calls, outcomes, mcp_response_bytes
//     (on stdio the serialized line including its newline; over HTTP the
//     response body as written, SSE framing included when the answer is
//     streamed) and duration, per tool, in $CTX_HOME/usage.json (0600,
//     replaced atomically). It is on unless $CTX_HOME/usage.disabled
//     exists; that control is re-read before every record. Recording never
//     changes a response and fails silently.
package mcp
