package ui

import (
	"errors"
	"net/http"

	"ctx/app"
	"ctx/query"
)

// Error is a condition the viewer renders as a page: its HTTP status, a
// stable code (the read models' codes where one applies) and a message
// that never echoes the rejected input.
type Error struct {
	Status  int
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// The viewer's own conditions.
var (
	errNoSecret  = &Error{Status: http.StatusForbidden, Code: "forbidden", Message: "this page needs the secret of this run of ctx ui: open the URL it printed"}
	errBadHost   = &Error{Status: http.StatusMisdirectedRequest, Code: "bad_host", Message: "ctx ui answers only to its loopback address"}
	errBadOrigin = &Error{Status: http.StatusForbidden, Code: "bad_origin", Message: "requests from another origin are refused"}
	errMethod    = &Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed", Message: "the viewer only reads: GET and HEAD"}
	errNotFound  = &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no such page"}
)

// badRequest is an invalid_request error with msg.
func badRequest(msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: string(query.CodeInvalidRequest), Message: msg}
}

// classify turns any error into an *Error: the read models' codes keep
// their code, blame's input conditions are bad requests, the rest is an
// internal error whose message is the error's own (never the input).
func classify(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if c := app.CodeOf(err); c != "" { // the one classification, blame conditions included
		return &Error{Status: statusOf(c), Code: string(c), Message: err.Error(), Err: err}
	}
	return &Error{Status: http.StatusInternalServerError, Code: string(query.CodeInternal), Message: err.Error(), Err: err}
}

func statusOf(c query.Code) int {
	switch c {
	case query.CodeInvalidRequest, query.CodeInvalidCursor, query.CodeCursorMismatch, query.CodeUnsupportedMode:
		return http.StatusBadRequest
	case query.CodeNotFound:
		return http.StatusNotFound
	case query.CodeCursorStale:
		return http.StatusConflict
	case query.CodeNoHistory, query.CodeIndex, query.CodeSemanticUnavailable, query.CodeBusy:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}
