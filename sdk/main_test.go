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
	if err := buildStore(root); err != nil {
		os.RemoveAll(root)
		fmt.Fprintln(os.Stderr, "building the fixture store:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(root)
	os.Exit(code)
}

func buildStore(root string) error {
	fx, err := fixturesDir()
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

func fixturesDir() (string, error) {
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, "shared", "fixtures", "agents")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, nil
		}
		if filepath.Dir(dir) == dir {
			return "", errors.New("shared/fixtures/agents not found above the test directory")
		}
		dir = filepath.Dir(dir)
	}
}
