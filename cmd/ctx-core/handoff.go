package main

import (
	"errors"

	"ctx/app"
	"ctx/query"
	"ctx/sources/reported"
)

// handoff wires the spec 001 use cases for one CLI command, with the
// [context], [threads] and [ingest] settings of config.toml (an invalid
// config is the error, exit 2).
func handoff(env *Env) (*app.Handoff, error) { return env.App().ConfiguredHandoff() }

// onHandoff runs one spec 001 use case on the configured handoff and gives
// its errors their codes.
func onHandoff[T any](env *Env, do func(*app.Handoff) (T, error)) (T, error) {
	h, err := handoff(env)
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := do(h)
	return v, handoffErr(err)
}

// cliCaller is the CLI as a door.
func cliCaller(root string) app.Caller {
	return app.Caller{Door: reported.DoorCLI, Client: reported.Client{Name: "ctx", Version: version}, Conn: "cli", Root: root}
}

// handoffErr gives an error of the spec 001 use cases its code, so that
// the exit code and the JSON error say what the MCP error_code says.
func handoffErr(err error) error {
	if err == nil {
		return nil
	}
	if p, ok := app.ClassifyHandoff(err); ok {
		return &query.Error{Code: p.Code, Message: p.Message, Err: errors.Unwrap(err)}
	}
	return err
}
