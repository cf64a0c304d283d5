package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestMCPServerPath: ctx mcp serve finds ctx-mcp on PATH when it is not
// beside ctx, and says how to get it when it is nowhere.
func TestMCPServerPath(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	if _, err := mcpServerPath(); !errors.Is(err, errNoMCPServer) {
		t.Fatalf("without ctx-mcp: %v", err)
	}
	bin := filepath.Join(empty, mcpServer)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if p, err := mcpServerPath(); err != nil || p != bin {
		t.Fatalf("on PATH: %q %v", p, err)
	}
}
