package gitstore

import "errors"

// Error codes of ctx sync, shared by the CLI's JSON errors and any other
// front end.
const (
	CodeNothingShared    = "nothing_shared"
	CodeNoRemote         = "no_remote"
	CodeInvalidRemote    = "invalid_remote"
	CodeNoKey            = "no_key"
	CodeInvalidKey       = "invalid_key"
	CodeFutureFormat     = "future_format"
	CodeNotCtxStore      = "not_ctx_store"
	CodeRewritten        = "rewritten"
	CodeMachineCollision = "machine_collision"
	CodeRejected         = "rejected"
	CodeTransport        = "transport"
)

// CodeOf returns the code of a sync error, "" for any other error.
func CodeOf(err error) string {
	for _, c := range []struct {
		err  error
		code string
	}{
		{ErrNothingShared, CodeNothingShared}, {ErrNoRemote, CodeNoRemote}, {ErrRemoteExists, CodeInvalidRemote},
		{ErrInvalidRemote, CodeInvalidRemote}, {ErrNoKey, CodeNoKey}, {ErrInvalidKey, CodeInvalidKey},
		{ErrFutureFormat, CodeFutureFormat}, {ErrNotCtxStore, CodeNotCtxStore}, {ErrRewritten, CodeRewritten},
		{ErrMachineCollision, CodeMachineCollision}, {ErrRejected, CodeRejected}, {ErrTransport, CodeTransport},
		{ErrNoGit, CodeTransport}, {ErrInvalidMachine, CodeMachineCollision},
	} {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return ""
}

// IsUsage reports whether a sync error is the user's to fix in arguments or
// config (exit code 2) rather than a failure of the remote.
func IsUsage(code string) bool {
	switch code {
	case CodeNothingShared, CodeNoRemote, CodeInvalidRemote, CodeInvalidKey:
		return true
	}
	return false
}
