package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"ctx/app"
	"ctx/daemon"
	"ctx/query"
	"ctx/sources/reported"
)

// handoff wires the spec 001 use cases for one CLI command.
func handoff(env *Env) *app.Handoff {
	home := env.CtxHome()
	read := func(_ context.Context, fn func(*query.Reader) error) error {
		if _, err := os.Stat(filepath.Join(home, "refs")); err != nil {
			return query.Errorf(query.CodeNoHistory, "nothing has been imported yet: run ctx import")
		}
		r, err := query.Open(home)
		if err != nil {
			return err
		}
		defer r.Close()
		return fn(r)
	}
	wake := func() { daemon.WakeBeforeRead(home, env.Source(), 200*time.Millisecond) }
	return app.NewHandoff(app.HandoffOptions{Home: home, Version: version, Now: env.Now,
		Settings: app.DefaultHandoffSettings(), Read: read, Wake: wake})
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
