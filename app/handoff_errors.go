package app

import (
	"errors"
	"fmt"
	"strings"

	"ctx/query"
	"ctx/sources/reported"
	"ctx/threads"
	"ctx/workspace"
)

// Problem is an error of the spec 001 use cases as every door reports it.
type Problem struct {
	Code    query.Code
	Message string
	Details map[string]any
}

// ClassifyHandoff turns an error of Handoff into its coded problem; ok is
// false for errors it does not know (the caller's generic handling).
func ClassifyHandoff(err error) (Problem, bool) {
	var ve *reported.ValidationError
	var rl *reported.RateLimitError
	var amb *threads.AmbiguousError
	var nf *threads.NotFoundError
	switch {
	case errors.As(err, &ve):
		errs := make([]any, len(ve.Errors))
		fields := make([]string, len(ve.Errors))
		for i, f := range ve.Errors {
			errs[i] = map[string]any{"field": f.Field, "code": f.Code, "message": f.Message}
			fields[i] = f.Field
		}
		return Problem{Code: query.CodeInvalidRequest, Details: map[string]any{"errors": errs},
			Message: fmt.Sprintf("%s was not stored: fix %s as details.errors says, then call it again (%s)",
				ve.Kind, strings.Join(fields, ", "), ve.Error())}, true
	case errors.As(err, &rl):
		return Problem{Code: query.CodeRateLimited, Details: map[string]any{"retry_after_ms": rl.RetryAfter.Milliseconds()},
			Message: fmt.Sprintf("too many reports from this client: nothing was stored; retry in %d ms", rl.RetryAfter.Milliseconds())}, true
	case errors.As(err, &nf):
		known := make([]any, 0, len(nf.Known))
		for _, k := range nf.Known[:min(len(nf.Known), 20)] {
			known = append(known, k)
		}
		return Problem{Code: query.CodeNotFound, Details: map[string]any{"threads": known},
			Message: "no thread is close to that name: ask the user which of details.threads they meant (list_threads lists them)"}, true
	case errors.As(err, &amb):
		return Problem{Code: query.CodeInvalidRequest, Message: amb.Error()}, true
	case errors.Is(err, threads.ErrNoThreads):
		return Problem{Code: query.CodeNotFound, Message: threads.ErrNoThreads.Error()}, true
	case errors.Is(err, threads.ErrName), errors.Is(err, ErrBudget), errors.Is(err, workspace.ErrRoot):
		return Problem{Code: query.CodeInvalidRequest, Message: err.Error()}, true
	}
	return Problem{}, false
}
