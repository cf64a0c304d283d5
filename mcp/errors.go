package mcp

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"ctx/app"
	"ctx/config"
	"ctx/query"
)

// Error codes of tool errors are query's, shared with the CLI; only
// not_available exists at the MCP boundary alone.
const (
	CodeNotAvailable  query.Code = "not_available" // the tool is not built yet
	CodeInvalidConfig            = query.CodeInvalidConfig
	CodeInternal                 = query.CodeInternal
)

// errorCodes lists every error_code a tool may return; the error object's
// schema enumerates them.
var errorCodes = []query.Code{
	query.CodeInvalidRequest, query.CodeNotFound, query.CodeNoHistory, query.CodeCorrupt,
	query.CodeBusy, query.CodeIndex, query.CodeCursorStale, query.CodeCursorMismatch,
	query.CodeInvalidCursor, query.CodeOutputLimit, query.CodeSemanticUnavailable, query.CodeUnsupportedMode,
	CodeNotAvailable, CodeInvalidConfig, CodeInternal, query.CodeRateLimited, query.CodeInsufficientScope,
	query.CodeDamaged,
}

// ErrorObject is the structuredContent of a tool error.
type ErrorObject struct {
	ErrorCode string         `json:"error_code"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details,omitempty"`
}

// toolError is an error with a code and optional details that a tool
// returns to be rendered as an ErrorObject.
type toolError struct {
	code    query.Code
	message string
	details map[string]any
}

func (e *toolError) Error() string { return string(e.code) + ": " + e.message }

// failf returns a tool error with a code.
func failf(code query.Code, format string, args ...any) *toolError {
	return &toolError{code: code, message: fmt.Sprintf(format, args...)}
}

// invalidf returns an invalid_request tool error.
func invalidf(format string, args ...any) *toolError {
	return failf(query.CodeInvalidRequest, format, args...)
}

// errorObject turns any error into the error object a model sees. Coded
// errors keep their curated message (never the wrapped cause, which may
// name files); uncoded errors get a generic message and report is told
// the cause so it can be logged to stderr.
func errorObject(err error, report func(error)) ErrorObject {
	var te *toolError
	if errors.As(err, &te) {
		d := te.details
		if d == nil {
			d = detailsFor(te.code) // every cursor error says whether to retry
		}
		return ErrorObject{ErrorCode: string(te.code), Message: te.message, Details: d}
	}
	if p, ok := app.ClassifyHandoff(err); ok {
		return ErrorObject{ErrorCode: string(p.Code), Message: p.Message, Details: p.Details}
	}
	var qe *query.Error
	if errors.As(err, &qe) {
		return ErrorObject{ErrorCode: string(qe.Code), Message: qe.Message, Details: detailsFor(qe.Code)}
	}
	if errors.As(err, new(*config.Error)) {
		return ErrorObject{ErrorCode: string(CodeInvalidConfig),
			Message: "the ctx config.toml cannot be used: run ctx sources in a terminal to see why"}
	}
	if c := app.CodeOf(err); c != "" && slices.Contains(errorCodes, c) {
		// Classified (the store busy or missing, an object corrupt), but
		// its message may name files: a curated one.
		return ErrorObject{ErrorCode: string(c), Message: classifiedMessage(c), Details: detailsFor(c)}
	}
	if report != nil {
		report(err)
	}
	return ErrorObject{ErrorCode: string(CodeInternal),
		Message: "reading the ctx store failed; the server log (stderr) has the cause"}
}

// classifiedMessage is the curated message of a code app.CodeOf gives.
func classifiedMessage(c query.Code) string {
	switch c {
	case query.CodeNoHistory:
		return "nothing has been imported yet: run ctx import"
	case query.CodeBusy:
		return "another ctx process holds the store: retry in a moment"
	case query.CodeCorrupt:
		return "the ctx store holds a corrupt object: run ctx verify in a terminal"
	case query.CodeDamaged:
		return "part of the ctx store is damaged or missing: run ctx verify in a terminal"
	}
	return "the ctx store cannot answer (" + strings.ReplaceAll(string(c), "_", " ") + "): ctx status in a terminal says why"
}

// detailsFor adds the retry advice of the cursor codes.
func detailsFor(code query.Code) map[string]any {
	switch code {
	case query.CodeCursorStale:
		return map[string]any{"retryable": false, "restart_without_cursor": true}
	case query.CodeCursorMismatch, query.CodeInvalidCursor:
		return map[string]any{"retryable": false}
	case query.CodeOutputLimit:
		return map[string]any{"limit_bytes": MaxResponseBytes}
	}
	return nil
}
