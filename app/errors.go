package app

import (
	"errors"

	"ctx/config"
	"ctx/gitstore"
	"ctx/index"
	"ctx/objects"
	"ctx/query"
	"ctx/store"
)

// Code is a stable, user-facing error code shared by the CLI (exit status,
// JSON errors) and MCP (the error object's error_code).
type Code = query.Code

// CodeOf classifies an error of any use case: its stable code, or "" when
// it has none (an internal failure).
func CodeOf(err error) Code {
	var cfgErr *config.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &cfgErr):
		return query.CodeInvalidConfig
	case errors.Is(err, store.ErrBusy):
		return query.CodeBusy
	case errors.Is(err, store.ErrNoStore):
		return query.CodeNoHistory
	case errors.Is(err, objects.ErrCorrupt):
		return query.CodeCorrupt
	case errors.Is(err, index.ErrShardDamaged), errors.Is(err, index.ErrShardMissing):
		return query.CodeDamaged // even where a layer wrapped it as index_unavailable
	}
	if c := gitstore.CodeOf(err); c != "" {
		return Code(c)
	}
	if c := query.CodeOf(err); c != "" {
		return c
	}
	if c := query.CodeOf(blameErr(err)); c != "" { // a blame condition not yet classified
		return c
	}
	if errors.Is(err, objects.ErrNotFound) {
		return query.CodeDamaged // an object something names is missing
	}
	return ""
}

// IsUsage reports whether the caller's input is at fault: the CLI exits 2
// and MCP answers with the code as a tool error.
func IsUsage(code Code) bool {
	switch code {
	case query.CodeInvalidRequest, query.CodeInvalidCursor, query.CodeCursorMismatch, query.CodeCursorStale,
		query.CodeInvalidConfig:
		return true
	}
	return gitstore.IsUsage(string(code))
}
