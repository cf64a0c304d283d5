package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"ctx/index"
)

// Code is a stable, user-facing error code shared by the CLI and MCP.
type Code string

const (
	CodeInvalidRequest Code = "invalid_request" // bad arguments
	CodeNotFound       Code = "not_found"       // no such session or event
	CodeNoHistory      Code = "no_generation"   // nothing imported yet
	CodeCorrupt        Code = "corrupt_object"  // an object failed its hash check
	CodeBusy           Code = "store_busy"      // another writer holds the store
	CodeIndex          Code = "index_unavailable"
	// CodeDamaged: a shard or an object the active generation needs is
	// damaged or missing; the message names the shard, ctx verify names
	// everything and ctx verify --repair rebuilds damaged shards.
	CodeDamaged Code = "damaged"

	// Cursor and page-contract codes (spec 000).
	CodeCursorStale    Code = "cursor_stale"          // cursor from another generation
	CodeCursorMismatch Code = "cursor_mismatch"       // cursor from another request
	CodeInvalidCursor  Code = "invalid_cursor"        // edited, forged or malformed cursor
	CodeOutputLimit    Code = "output_limit_exceeded" // one item alone exceeds the byte budget

	// Codes of failures outside the store.
	CodeInvalidConfig Code = "invalid_config" // config.toml cannot be used
	CodeInternal      Code = "internal_error" // anything without a code (MCP; the CLI prints "error")

	// Search-mode codes (spec 000).
	CodeUnsupportedMode     Code = "unsupported_mode"     // semantic search of a scope without vectors
	CodeSemanticUnavailable Code = "semantic_unavailable" // semantic search is off, unbuilt or failing

	// Codes of the write and HTTP doors (spec 001).
	CodeRateLimited       Code = "rate_limited"       // too many reports from one client: retry later
	CodeInsufficientScope Code = "insufficient_scope" // the HTTP token lacks the scope the call needs
)

// Error is an error with a stable code. Messages never echo rejected input.
type Error struct {
	Code    Code
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		if m := e.Err.Error(); strings.HasPrefix(m, e.Message) {
			return m // the cause already says it, with its details
		}
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the code.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// choose checks a setting that takes one of a few values: empty is the
// first of them, anything else not among them is an invalid request that
// names them all.
func choose(v *string, name string, values ...string) error {
	switch {
	case *v == "":
		*v = values[0]
	case !slices.Contains(values, *v):
		last := len(values) - 1
		return Errorf(CodeInvalidRequest, "%s must be %s or %s", name, strings.Join(values[:last], ", "), values[last])
	}
	return nil
}

// CodeOf returns the code of err, or "" when err carries none.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// indexError is the error of a failed index operation: a damaged, missing
// or outdated shard (index.Rebuildable) is CodeDamaged naming the shard (a name of the store, never
// a path), anything else CodeIndex with msg.
func indexError(msg string, err error) *Error {
	var se *index.ShardError
	if index.Rebuildable(err) && errors.As(err, &se) {
		return &Error{Code: CodeDamaged, Err: err, Message: fmt.Sprintf(
			"index shard %s is damaged: run ctx verify (ctx verify --repair rebuilds it from the objects)", se.Shard)}
	}
	return &Error{Code: CodeIndex, Message: msg, Err: err}
}
