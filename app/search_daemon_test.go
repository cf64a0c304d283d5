package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/sources/claude"
	"ctx/sources/redact"
	"ctx/store"
)

// searchStore imports one Claude Code session into a store with a short
// path (unix socket paths are limited to about 108 bytes).
func searchStore(t *testing.T) (home, st string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "ctxa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home, st = filepath.Join(dir, "h"), filepath.Join(dir, "s")
	path := filepath.Join(home, ".claude", "projects", "p", "s1.jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for i := range 3 {
		rec := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/work/p",
			"sessionId": "s1", "version": "1.0.51", "type": "user", "uuid": fmt.Sprintf("u-%d", i),
			"timestamp": time.Date(2025, 7, 13, 21, 0, i, 0, time.UTC).Format(time.RFC3339Nano),
			"message":   map[string]any{"role": "user", "content": fmt.Sprintf("the quokka migration step %d", i)}}
		b, _ := json.Marshal(rec)
		lines = append(append(lines, b...), '\n')
	}
	if err := os.WriteFile(path, lines, 0o600); err != nil {
		t.Fatal(err)
	}
	env := core.Env{Home: home, Getenv: func(string) string { return "" }}
	_, err = ingest.Run(context.Background(), ingest.Options{Home: st, Env: env, Version: "test",
		Sources: []core.Source{{Kind: core.KindAutomatic, Provider: claude.New()}}, Redactor: redact.New()})
	if err != nil {
		t.Fatal(err)
	}
	return home, st
}

// fakeDaemon listens on the store's socket and answers every connection
// with answer (nil: it closes the connection after reading the request,
// as a daemon killed while serving it would); it counts the connections.
func fakeDaemon(t *testing.T, st string, answer []byte) *atomic.Int32 {
	t.Helper()
	ln, err := net.Listen("unix", store.At(st).Socket())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			_, _ = bufio.NewReader(c).ReadBytes('\n')
			if answer != nil {
				_, _ = c.Write(answer)
			}
			c.Close()
		}
	}()
	return &n
}

// TestSearchFallsBackFromTheDaemon: a daemon that drops the connection
// mid-query, one of an older version (which does not know the op), and
// one whose answer is not a search result each leave the CLI's App to
// search the store itself, with the same answer as without a daemon.
func TestSearchFallsBackFromTheDaemon(t *testing.T) {
	home, st := searchStore(t)
	cli := New(Options{Env: core.Env{Home: home, Getenv: func(string) string { return "" }}, Home: st, Version: "test"})
	req := SearchRequest{Query: "quokka migration", Limit: 5}
	want, err := cli.Search(context.Background(), req) // no daemon: the store itself
	if err != nil || len(want.Results) != 3 {
		t.Fatalf("without a daemon: %+v, %v", want, err)
	}
	for name, answer := range map[string][]byte{
		"dies mid-query": nil,
		"older version":  []byte(`{"ok":false,"error":"unknown op: want sync, status or stop","lag_seconds":0}` + "\n"),
		"bad result":     []byte(`{"ok":true,"result":"not a result","lag_seconds":0}` + "\n"),
	} {
		t.Run(name, func(t *testing.T) {
			conns := fakeDaemon(t, st, answer)
			got, err := cli.Search(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if conns.Load() == 0 {
				t.Fatal("the search never asked the daemon")
			}
			got.Metadata.TookMS, want.Metadata.TookMS = 0, 0
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(want)
			if string(a) != string(b) {
				t.Fatalf("answer\n%s\nwant\n%s", a, b)
			}
		})
	}
}
