package sdk_test

import (
	"context"
	"ctx/internal/fixtures"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"ctx/core"
	"ctx/ingest"
	"ctx/sources"
)

// storeHome is a store built once by importing the real Claude Code and
// Codex fixtures; userHome is the home directory they were imported from.
var storeHome, userHome string

func TestMain(m *testing.M) {
	root, err := os.MkdirTemp("", "ctx-sdk-test-")
	if err != nil {
		panic(err)
	}
	fixtureErr = buildStore(root)
	if fixtureErr != nil && (fixtures.Required() || !errors.Is(fixtureErr, os.ErrNotExist)) {
		os.RemoveAll(root)
		fmt.Fprintln(os.Stderr, "building the fixture store:", fixtureErr)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(root)
	os.Exit(code)
}

// fixtureErr is why the fixture store could not be built (the fixtures are
// absent in a plain clone); the tests that read the store then skip.
var fixtureErr error

func buildStore(root string) error {
	fx, err := fixtures.Agents()
	if err != nil {
		return err
	}
	userHome, storeHome = filepath.Join(root, "home"), filepath.Join(root, "store")
	for src, dst := range map[string]string{"claude-code/projects": ".claude/projects", "codex/sessions": ".codex/sessions"} {
		if err := fixtures.CopyTree(filepath.Join(fx, src), filepath.Join(userHome, dst)); err != nil {
			return err
		}
	}
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	_, err = ingest.Run(context.Background(), ingest.Options{Home: storeHome, Env: testEnv(), Sources: srcs, Version: "test"})
	return err
}

func testEnv() core.Env {
	return core.Env{Home: userHome, Getenv: func(string) string { return "" }}
}
