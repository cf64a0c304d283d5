package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"ctx/app"
	"ctx/core"
	ctxversion "ctx/internal/version"
	"ctx/store"
)

// version is the importer version recorded in generations.
var version = ctxversion.Version

// Env is everything a command may touch of the outside world. Commands never
// use os.Stdout or the real home directory directly.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Now    func() time.Time
	IsTTY  func(io.Writer) bool
	// Lookup is os.LookupEnv (nil: Getenv, where empty means unset).
	Lookup func(string) (string, bool)
	// Color is the --color mode: auto (the default), always or never.
	Color string
	// Getwd is the working directory relative paths are read against
	// (nil: the process's).
	Getwd func() (string, error)
	// app, when set, is the App every command of this Env uses: the
	// daemon's pooled one, when it runs a command for the ctx front.
	app *app.App
}

func systemEnv() *Env {
	return &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Lookup: os.LookupEnv, Now: time.Now, IsTTY: isTerminal}
}

// Home returns $HOME.
func (e *Env) Home() string {
	if h := e.Getenv("HOME"); h != "" {
		return h
	}
	return "/"
}

// CtxHome returns $CTX_HOME, else $XDG_DATA_HOME/ctx, else ~/.local/share/ctx.
func (e *Env) CtxHome() string { return store.Home(e.Getenv, e.Home()) }

// App returns the use cases over the store of this environment.
func (e *Env) App() *app.App {
	if e.app != nil {
		return e.app
	}
	return app.New(app.Options{Env: e.Source(), Home: e.CtxHome(), Now: e.Now, Version: version})
}

// Abs makes path absolute against the working directory.
func (e *Env) Abs(path string) (string, error) {
	if filepath.IsAbs(path) || e.Getwd == nil {
		return filepath.Abs(path)
	}
	dir, err := e.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, path), nil
}

// Source returns the discovery environment.
func (e *Env) Source() core.Env {
	return core.Env{Home: e.Home(), Getenv: e.Getenv}
}

// waitingForWriter is the Busy callback of a command that writes the
// store: it tells the user why nothing happens yet.
func (e *Env) waitingForWriter() {
	fmt.Fprintln(e.Stderr, "ctx: another import is writing the store; waiting for it…")
}
