package gitstore_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/core"
	"ctx/gitstore"
	"ctx/ingest"
	"ctx/objects"
	"ctx/query"
	"ctx/refs"
	"ctx/sources"
	"ctx/store"

	"github.com/klauspost/compress/zstd"
)

// machine is one test machine: a home with agent history and a store.
type machine struct {
	t          *testing.T
	home, ctx  string
	id         string
	sessionSeq int
}

func newMachine(t *testing.T, name string) *machine {
	t.Helper()
	dir := t.TempDir()
	m := &machine{t: t, home: filepath.Join(dir, "home"), ctx: filepath.Join(dir, "ctx")}
	id, err := gitstore.Machine(m.ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	m.id = id
	return m
}

// session writes a Claude Code transcript of n user prompts in workspace ws
// (each prompt's text is text plus its ordinal) and returns its native id.
func (m *machine) session(ws, text string, n int) string {
	m.t.Helper()
	m.sessionSeq++
	native := fmt.Sprintf("%s-%04d-1111-2222-3333", m.id, m.sessionSeq)
	return m.appendSession(native, ws, text, 0, n)
}

// appendSession appends prompts from..n-1 to a session's transcript.
func (m *machine) appendSession(native, ws, text string, from, n int) string {
	m.t.Helper()
	dir := filepath.Join(m.home, ".claude", "projects", strings.ReplaceAll(ws, "/", "-"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		m.t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, native+".jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		m.t.Fatal(err)
	}
	defer f.Close()
	t0 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	for i := from; i < n; i++ {
		fmt.Fprintf(f, `{"type":"user","uuid":"%s-u%d","sessionId":"%s","timestamp":"%s","cwd":"%s","message":{"role":"user","content":"%s %d"}}`+"\n",
			native, i, native, t0.Add(time.Duration(i)*time.Second).Format(time.RFC3339), ws, text, i)
	}
	return native
}

func (m *machine) importOnce() *ingest.Report {
	m.t.Helper()
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	rep, err := ingest.Run(context.Background(), ingest.Options{Home: m.ctx, Version: "test", Sources: srcs,
		Env: core.Env{Home: m.home, Getenv: func(string) string { return "" }}})
	if err != nil {
		m.t.Fatal(err)
	}
	return rep
}

func (m *machine) source() gitstore.Source {
	m.t.Helper()
	s, err := objects.OpenExisting(store.At(m.ctx).Objects())
	if err != nil {
		m.t.Fatal(err)
	}
	id, err := refs.OpenExisting(m.ctx).Get(refs.Active)
	if err != nil {
		m.t.Fatal(err)
	}
	g, err := refs.Load(s, id)
	if err != nil {
		m.t.Fatal(err)
	}
	return gitstore.Source{Objects: s, Generation: g, GenerationID: id}
}

func (m *machine) mirror(name string) *gitstore.Mirror {
	m.t.Helper()
	mr, err := gitstore.OpenMirror(filepath.Join(m.ctx, "sync", "remotes", name+".git"))
	if err != nil {
		m.t.Fatal(err)
	}
	return mr
}

func all(core.TreeEntry) bool { return true }

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// readable reports whether text can be read from any object of the git
// repository in dir: in a blob as stored, or once zstd-decoded (what any
// reader of a plain remote can do).
func readable(t *testing.T, dir, text string) bool {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "cat-file", "--batch-all-objects", "--batch")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cat-file: %v", err)
	}
	if bytes.Contains(out, []byte(text)) {
		return true
	}
	dec, _ := zstd.NewReader(nil)
	for len(out) > 0 {
		nl := bytes.IndexByte(out, '\n')
		var h, typ string
		var size int
		fmt.Sscanf(string(out[:nl]), "%s %s %d", &h, &typ, &size)
		body := out[nl+1 : nl+1+size]
		out = out[nl+1+size+1:]
		if typ != "blob" || len(body) < 32 {
			continue
		}
		if plain, err := dec.DecodeAll(body[:len(body)-32], nil); err == nil && bytes.Contains(plain, []byte(text)) {
			return true
		}
	}
	return false
}

// bare makes an empty bare repository and returns its file:// URL.
func bare(t *testing.T) (dir, url string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "remote.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return dir, "file://" + dir
}

func (m *machine) syncer() *gitstore.Syncer {
	return &gitstore.Syncer{Home: m.ctx, Machine: m.id, Transport: &gitstore.Transport{}}
}

func (m *machine) push(r gitstore.Remote) (*gitstore.PushReport, error) {
	m.t.Helper()
	return m.syncer().Push(context.Background(), r, m.source(), all)
}

// merger merges incoming commits with ingest.Adopt, as ctx sync pull does.
func (m *machine) merger() gitstore.Merger {
	return func(ctx context.Context, in []gitstore.Incoming) error {
		rs := make([]ingest.Remote, len(in))
		for i, x := range in {
			rs[i] = ingest.Remote{Machine: x.Machine, Commit: x.Commit.String(), Tree: x.Tree, Objects: x.Snapshot,
				Forgotten: x.Forgotten}
		}
		_, err := ingest.Adopt(ctx, ingest.Options{Home: m.ctx, Version: "test"}, rs)
		return err
	}
}

func (m *machine) pull(r gitstore.Remote) (*gitstore.PullReport, error) {
	m.t.Helper()
	return m.syncer().Pull(context.Background(), r, m.merger())
}

// tree returns the active generation's sessions by id.
func (m *machine) tree() map[core.SessionID]core.TreeEntry {
	m.t.Helper()
	src := m.source()
	t, err := core.LoadTree(src.Objects, src.Generation.Tree)
	if err != nil {
		m.t.Fatal(err)
	}
	out := map[core.SessionID]core.TreeEntry{}
	for _, e := range t.Sessions {
		out[e.Session] = e
	}
	return out
}

// search returns the ids of the sessions whose events match q.
func (m *machine) search(q string) map[string]bool {
	m.t.Helper()
	r, err := query.Open(m.ctx)
	if err != nil {
		m.t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Search(context.Background(), query.SearchRequest{Query: q, Limit: 100})
	if err != nil {
		m.t.Fatal(err)
	}
	out := map[string]bool{}
	for _, h := range res.Results {
		out[h.CtxSessionID] = true
	}
	return out
}

func gitIn(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out)
}
