package blame

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// team is a bare "remote" and two clones of it, a and b, in real git.
type team struct {
	t      *testing.T
	base   string
	remote string
	a, b   *Repo
}

func newTeam(t *testing.T) *team {
	t.Helper()
	base := t.TempDir()
	home := filepath.Join(base, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(k, "Test Human")
	}
	for _, k := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		t.Setenv(k, "human@example.com")
	}
	tm := &team{t: t, base: base, remote: filepath.Join(base, "remote.git")}
	tm.run(base, "git", "init", "-q", "--bare", "-b", "main", tm.remote)
	tm.run(base, "git", "clone", "-q", tm.remote, "a")
	a := filepath.Join(base, "a")
	tm.run(a, "git", "commit", "-q", "--allow-empty", "-m", "init")
	tm.run(a, "git", "push", "-q", "origin", "main")
	tm.run(base, "git", "clone", "-q", tm.remote, "b")
	tm.a, tm.b = &Repo{Root: a}, &Repo{Root: filepath.Join(base, "b")}
	return tm
}

func (tm *team) run(dir string, args ...string) string {
	tm.t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		tm.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit makes a commit in r and pushes its branch.
func (tm *team) commit(r *Repo, msg string) string {
	tm.t.Helper()
	tm.run(r.Root, "git", "commit", "-q", "--allow-empty", "-m", msg)
	tm.run(r.Root, "git", "pull", "-q", "--rebase", "origin", "main")
	tm.run(r.Root, "git", "push", "-q", "origin", "HEAD:main")
	return tm.run(r.Root, "git", "rev-parse", "HEAD")
}

func rec(file, session string, lines ...[2]int) Record {
	f := file
	return Record{File: &f, Lines: lines, CtxSessionID: session, CtxEventIDs: []string{"evt_" + session},
		Provider: "codex", NativeSessionID: "n-" + session, Match: MatchExactLine}
}

// note writes a note on commit in r the way the hook does (merged with
// the note already there).
func (tm *team) note(r *Repo, commit string, recs ...Record) {
	tm.t.Helper()
	if _, err := writeMerged(context.Background(), r, commit, &Note{Records: recs}, tm.t.Logf); err != nil {
		tm.t.Fatal(err)
	}
}

// sessions lists the sessions (file:session) a repository's note on
// commit names, each as often as it appears after reading.
func (tm *team) sessions(r *Repo, commit string) []string {
	tm.t.Helper()
	nc, err := NewNoteCache(context.Background(), r)
	if err != nil {
		tm.t.Fatal(err)
	}
	if err := nc.Load(context.Background(), []string{commit}); err != nil {
		tm.t.Fatal(err)
	}
	if len(nc.Problems) > 0 {
		tm.t.Fatalf("problems: %v", nc.Problems)
	}
	var out []string
	if n := nc.Note(commit); n != nil {
		for _, r := range n.Records {
			out = append(out, *r.File+":"+r.CtxSessionID)
		}
	}
	slices.Sort(out)
	return out
}

// TestNotesSyncTwoClones: two clones write notes on the same commit and on
// different commits and push in both orders; every note survives on both
// sides and in the remote, duplicates collapse, and nothing is forced.
func TestNotesSyncTwoClones(t *testing.T) {
	ctx := context.Background()
	tm := newTeam(t)
	shared := tm.run(tm.a.Root, "git", "rev-parse", "HEAD")
	onlyA := tm.commit(tm.a, "a's work")
	tm.run(tm.b.Root, "git", "pull", "-q", "origin", "main")
	onlyB := tm.commit(tm.b, "b's work")

	tm.note(tm.a, shared, rec("x.go", "sa", [2]int{1, 3}), rec("same.go", "both", [2]int{1, 2}),
		rec("grown.go", "both", [2]int{1, 2}))
	tm.note(tm.b, shared, rec("x.go", "sb", [2]int{2, 4}), rec("same.go", "both", [2]int{1, 2}),
		rec("grown.go", "both", [2]int{2, 5}))
	tm.note(tm.a, onlyA, rec("a.go", "sa", [2]int{1, 1}))
	tm.note(tm.b, onlyB, rec("b.go", "sb", [2]int{1, 1}))

	// Round one: a pushes first, then b (whose push must merge a's notes).
	res, err := PushNotes(ctx, tm.a, "", 0)
	if err != nil || !res.Pushed || res.RemoteHadNotes || res.Remote != "origin" {
		t.Fatalf("a push: %+v %v", res, err)
	}
	res, err = PushNotes(ctx, tm.b, "origin", 0)
	if err != nil || !res.Pushed || !res.RemoteHadNotes || !res.Merged {
		t.Fatalf("b push: %+v %v", res, err)
	}
	if res, err = FetchNotes(ctx, tm.a, ""); err != nil || !res.Merged {
		t.Fatalf("a fetch: %+v %v", res, err)
	}
	wantShared := []string{"grown.go:both", "same.go:both", "x.go:sa", "x.go:sb"}
	for name, r := range map[string]*Repo{"a": tm.a, "b": tm.b} {
		if got := tm.sessions(r, shared); !slices.Equal(got, wantShared) {
			t.Fatalf("%s shared commit: %v, want %v", name, got, wantShared)
		}
		if got := tm.sessions(r, onlyA); !slices.Equal(got, []string{"a.go:sa"}) {
			t.Fatalf("%s a's commit: %v", name, got)
		}
		if got := tm.sessions(r, onlyB); !slices.Equal(got, []string{"b.go:sb"}) {
			t.Fatalf("%s b's commit: %v", name, got)
		}
	}
	// The merged note is JSON Lines still, with the identical record once.
	raw := tm.run(tm.b.Root, "git", "notes", "--ref", NotesRef, "show", shared)
	if strings.Count(raw, `"same.go"`) != 1 || strings.Count(raw, `{"ctx_notes":1}`) != 1 {
		t.Fatalf("merged note:\n%s", raw)
	}
	if _, err := ParseNote([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	// The same record with different lines reads as one, lines unioned.
	if strings.Count(raw, `"grown.go"`) != 2 {
		t.Fatalf("merged note keeps both versions:\n%s", raw)
	}
	nc, _ := NewNoteCache(ctx, tm.b)
	if err := nc.Load(ctx, []string{shared}); err != nil {
		t.Fatal(err)
	}
	for _, r := range nc.Note(shared).Records {
		if *r.File == "grown.go" && !slices.Equal(r.Lines, [][2]int{{1, 5}}) {
			t.Fatalf("grown.go lines %v", r.Lines)
		}
	}
	cv, err := BlameCommit(ctx, tm.b, shared, NewResolver(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, fe := range cv.Files {
		if fe.File == "grown.go" && (len(fe.Records) != 1 || !slices.Equal(fe.Records[0].Lines, [][2]int{{1, 5}})) {
			t.Fatalf("commit view of grown.go: %+v", fe.Records)
		}
	}

	// Round two, the other order: both add to the shared commit, b first.
	tm.note(tm.a, shared, rec("x.go", "sa2", [2]int{7, 7}))
	tm.note(tm.b, shared, rec("x.go", "sb2", [2]int{8, 8}))
	if res, err = PushNotes(ctx, tm.b, "", 0); err != nil || !res.Pushed {
		t.Fatalf("b push 2: %+v %v", res, err)
	}
	if res, err = PushNotes(ctx, tm.a, "", 0); err != nil || !res.Pushed || !res.Merged {
		t.Fatalf("a push 2: %+v %v", res, err)
	}
	if _, err = FetchNotes(ctx, tm.b, ""); err != nil {
		t.Fatal(err)
	}
	want := []string{"grown.go:both", "same.go:both", "x.go:sa", "x.go:sa2", "x.go:sb", "x.go:sb2"}
	for name, r := range map[string]*Repo{"a": tm.a, "b": tm.b} {
		if got := tm.sessions(r, shared); !slices.Equal(got, want) {
			t.Fatalf("%s after round two: %v, want %v", name, got, want)
		}
	}
	// The remote holds the union too; a fresh clone sees it all.
	tm.run(tm.base, "git", "clone", "-q", tm.remote, "c")
	c := &Repo{Root: filepath.Join(tm.base, "c")}
	if _, err := FetchNotes(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	if got := tm.sessions(c, shared); !slices.Equal(got, want) {
		t.Fatalf("fresh clone: %v", got)
	}
	// Pushing again changes nothing.
	if res, err = PushNotes(ctx, tm.a, "", 0); err != nil || res.Pushed || res.Merged {
		t.Fatalf("idempotent push: %+v %v", res, err)
	}
}

// TestNotesPushRaces: a teammate pushes between our fetch and our push.
// One race is absorbed by fetching and merging again; a remote that keeps
// moving ends in ErrPushRejected after the bounded attempts, and the
// teammate's notes are in the remote either way.
func TestNotesPushRaces(t *testing.T) {
	ctx := context.Background()
	tm := newTeam(t)
	shared := tm.run(tm.a.Root, "git", "rev-parse", "HEAD")
	tm.note(tm.a, shared, rec("x.go", "mine", [2]int{1, 1}))
	// The teammate: before each receive-pack the remote's notes move on
	// (a note appended in the bare repository), as when someone pushed
	// just after our fetch. With once, only the first push races.
	script := filepath.Join(tm.base, "racing-receive-pack")
	body := "#!/bin/sh\n" +
		"if [ -n \"$ONCE\" ] && [ -e \"$ONCE\" ]; then exec git-receive-pack \"$@\"; fi\n" +
		"[ -n \"$ONCE\" ] && : > \"$ONCE\"\n" +
		"n=$(date +%s%N)\n" +
		"printf '{\"ctx_notes\":1}\\n{\"file\":\"t.go\",\"ctx_session_id\":\"teammate-%s\",\"match\":\"exact_line\"}\\n' \"$n\" |" +
		" git --git-dir=\"$1\" notes --ref ctx append -F - " + shared + " >/dev/null\n" +
		"exec git-receive-pack \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	tm.run(tm.a.Root, "git", "config", "remote.origin.receivepack", script)

	t.Setenv("ONCE", filepath.Join(tm.base, "raced"))
	res, err := PushNotes(ctx, tm.a, "", 3)
	if err != nil || !res.Pushed || res.Attempts != 2 {
		t.Fatalf("one race: %+v %v", res, err)
	}
	got := tm.sessions(&Repo{Root: tm.a.Root}, shared)
	if len(got) != 2 || !strings.HasPrefix(got[0], "t.go:teammate-") || got[1] != "x.go:mine" {
		t.Fatalf("after one race: %v", got)
	}
	remoteNote := tm.run(tm.base, "git", "--git-dir", tm.remote, "notes", "--ref", "ctx", "show", shared)
	if !strings.Contains(remoteNote, "teammate-") || !strings.Contains(remoteNote, `"mine"`) {
		t.Fatalf("remote note after one race:\n%s", remoteNote)
	}

	t.Setenv("ONCE", "")
	tm.note(tm.a, shared, rec("x.go", "mine2", [2]int{2, 2}))
	res, err = PushNotes(ctx, tm.a, "", 3)
	if !errors.Is(err, ErrPushRejected) || res != nil {
		t.Fatalf("endless race: %+v %v", res, err)
	}
	remoteNote = tm.run(tm.base, "git", "--git-dir", tm.remote, "notes", "--ref", "ctx", "show", shared)
	if strings.Count(remoteNote, "teammate-") != 4 || strings.Contains(remoteNote, "mine2") {
		t.Fatalf("remote note after the endless race:\n%s", remoteNote)
	}
}

// TestNotesSyncBadInput: no remote, an unknown remote, a remote without
// notes and a repository without notes get clear answers.
func TestNotesSyncBadInput(t *testing.T) {
	ctx := context.Background()
	s := newSandbox(t)
	s.write("a.txt", "one\n")
	s.commit("init")
	if _, err := FetchNotes(ctx, s.repo, ""); !errors.Is(err, ErrNoRemote) {
		t.Fatalf("no remote: %v", err)
	}
	if _, err := PushNotes(ctx, s.repo, "upstream", 0); !errors.Is(err, ErrNoRemote) {
		t.Fatalf("named remote, none configured: %v", err)
	}
	tm := newTeam(t)
	if _, err := FetchNotes(ctx, tm.a, "nosuch"); !errors.Is(err, ErrUnknownRemote) {
		t.Fatalf("unknown remote: %v", err)
	}
	res, err := FetchNotes(ctx, tm.a, "")
	if err != nil || res.RemoteHadNotes || res.Merged || res.Local != "" {
		t.Fatalf("remote without notes: %+v %v", res, err)
	}
	res, err = PushNotes(ctx, tm.a, "", 0)
	if err != nil || res.Pushed || res.Local != "" {
		t.Fatalf("nothing to push: %+v %v", res, err)
	}
	if out := tm.run(tm.base, "git", "--git-dir", tm.remote, "for-each-ref", "refs/notes"); out != "" {
		t.Fatalf("remote got refs: %s", out)
	}
	// The upstream's remote is the default when the branch has one.
	tm.run(tm.a.Root, "git", "remote", "add", "up", tm.remote)
	tm.run(tm.a.Root, "git", "config", "branch.main.remote", "up")
	if r, err := tm.a.DefaultRemote(ctx); err != nil || r != "up" {
		t.Fatalf("upstream remote: %q %v", r, err)
	}
	tm.run(tm.a.Root, "git", "checkout", "-q", "--detach")
	if r, err := tm.a.DefaultRemote(ctx); err != nil || r != "origin" {
		t.Fatalf("detached HEAD: %q %v", r, err)
	}
	// --configure adds the refspec and displayRef once, locally.
	added, err := ConfigureRemote(ctx, tm.a, "origin")
	if err != nil || len(added) != 2 {
		t.Fatalf("configure: %v %v", added, err)
	}
	if added, err = ConfigureRemote(ctx, tm.a, "origin"); err != nil || len(added) != 0 {
		t.Fatalf("configure twice: %v %v", added, err)
	}
	if out := tm.run(tm.a.Root, "git", "config", "--local", "--get-all", "remote.origin.fetch"); !strings.Contains(out,
		"+refs/notes/ctx:refs/notes/ctx-remote/origin") {
		t.Fatalf("refspec: %s", out)
	}
}

// FuzzParseNoteFast: the fast path gives ParseNote's note or ParseNote's
// error, for any note.
func FuzzParseNoteFast(f *testing.F) {
	for _, s := range []string{
		"{\"ctx_notes\":1}\n{\"file\":\"a\",\"lines\":[[1,2]],\"ctx_session_id\":\"ses_x\",\"match\":\"exact_line\"}\n",
		"{\"ctx_notes\":1}\n\n{\"ctx_notes\":1}\n{\"file\":null,\"ctx_session_id\":\"s\"}\r\n",
		"{\"ctx_notes\":2}\n", "{\"ctx_notes\": 1}\n", "null\n{\"ctx_notes\":1}\n", "{\"file\":3}\n{\"ctx_notes\":1}\n",
		"{\"CTX_SESSION_ID\":\"s\"}\n{\"ctx_notes\":1}\n", "not json\n", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := ParseNote(data)
		got, gerr := parseNoteFast(data)
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("errors: %v / %v", gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("notes differ:\n%+v\n%+v", got, want)
		}
	})
}
