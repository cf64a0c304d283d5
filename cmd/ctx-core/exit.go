package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"ctx/app"
	"ctx/query"
)

// Exit codes, listed by `ctx help exit-codes`.
const (
	exitOK        = 0
	exitError     = 1 // any other failure
	exitUsage     = 2 // bad flags or arguments
	exitNotFound  = 3 // no such session or event
	exitNoHistory = 4 // nothing imported yet
	exitDamaged   = 5 // verify found damage, or an object failed its hash check
	exitBusy      = 6 // another writer holds the store
)

const exitCodesHelp = `Exit codes of ctx:

  0  success
  1  failure not listed below
  2  usage error: unknown flag, bad value, missing argument, invalid config.toml,
     or a --cursor that is malformed (invalid_cursor), belongs to other filters
     (cursor_mismatch) or to an older generation (cursor_stale: restart without it)
  3  not found: no session or event with that id in the active generation
  4  no history: nothing has been imported yet (run ctx import)
  5  damaged: ctx verify found damage, an object failed its hash check or is
     missing, or an index shard is damaged (the message names it; ctx verify
     --repair rebuilds it)
  6  busy: another ctx import holds the store and waiting was cut short

With --format json, errors are also JSON on stderr: {"error": {"code", "message"}}.
`

// usageError marks errors in flags and arguments.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// exitCode is the one switch from errors to exit codes.
func exitCode(err error) (int, string) {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK, ""
	case errors.As(err, &ue):
		return exitUsage, string(query.CodeInvalidRequest)
	}
	switch code := app.CodeOf(err); {
	case app.IsUsage(code):
		return exitUsage, string(code)
	case code == query.CodeNotFound:
		return exitNotFound, string(code)
	case code == query.CodeNoHistory:
		return exitNoHistory, string(code)
	case code == query.CodeCorrupt, code == query.CodeDamaged:
		return exitDamaged, string(code)
	case code == query.CodeBusy:
		return exitBusy, string(code)
	case code == "":
		return exitError, "error"
	default:
		return exitError, string(code)
	}
}

func printError(env *Env, err error, jsonOut bool) int {
	code, name := exitCode(err)
	if jsonOut {
		b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": name, "message": err.Error()}})
		fmt.Fprintln(env.Stderr, string(b))
	} else {
		fmt.Fprintln(env.Stderr, "ctx:", err)
	}
	return code
}
