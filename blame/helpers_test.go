package blame

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ctx/config"
	"ctx/core"
	"ctx/ingest"
	"ctx/sources"
	"ctx/sources/redact"
)

// sandbox is a scratch HOME, CTX_HOME and git repository; git never reads
// the developer's global or system config.
type sandbox struct {
	t                *testing.T
	home, store, dir string
	repo             *Repo
}

func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	base := t.TempDir()
	s := &sandbox{t: t, home: filepath.Join(base, "home"), store: filepath.Join(base, "store"), dir: filepath.Join(base, "repo")}
	for _, d := range []string{s.home, s.dir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", s.home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(s.home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(s.home, ".gitconfig"))
	s.git("init", "-q", "-b", "main")
	s.git("config", "user.name", "Test Human")
	s.git("config", "user.email", "human@example.com")
	s.git("config", "commit.gpgsign", "false")
	repo, err := OpenRepo(context.Background(), s.dir)
	if err != nil {
		t.Fatal(err)
	}
	s.repo = repo
	return s
}

func (s *sandbox) git(args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (s *sandbox) write(rel, body string) {
	s.t.Helper()
	p := filepath.Join(s.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) commit(msg string) string {
	s.t.Helper()
	s.git("add", "-A")
	s.git("commit", "-q", "-m", msg)
	return s.git("rev-parse", "HEAD")
}

func (s *sandbox) env() core.Env { return core.Env{Home: s.home, Getenv: os.Getenv} }

// refresh imports the sandbox's history as configured (what the hooks'
// refresh does through the app layer, which blame's tests cannot import).
func (s *sandbox) refresh(ctx context.Context) error {
	cfg, err := config.Load(s.env())
	if err != nil {
		return err
	}
	planned, err := sources.Plan(cfg, nil)
	if err != nil {
		return err
	}
	_, err = ingest.Run(ctx, ingest.Options{Home: s.store, Env: s.env(), Sources: planned, Version: "test",
		Redactor: redact.New()})
	return err
}

func (s *sandbox) link() *Note {
	s.t.Helper()
	n, err := Link(context.Background(), s.repo, "HEAD", LinkOptions{Home: s.store, Refresh: s.refresh,
		Log: func(m string) { s.t.Log("link:", m) }})
	if err != nil {
		s.t.Fatal(err)
	}
	return n
}

// toolUse is one Claude Code tool call of a scripted session.
type toolUse struct {
	ID, Name string
	Input    map[string]any
}

// claudeSession writes a Claude Code transcript (the real record shape)
// whose cwd is the repository, one assistant tool_use per call, stamped now.
func (s *sandbox) claudeSession(native string, calls ...toolUse) core.SessionID {
	s.t.Helper()
	ts := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	base := map[string]any{"isSidechain": false, "userType": "external", "cwd": s.dir, "sessionId": native,
		"version": "2.1.0", "gitBranch": "main", "timestamp": ts}
	rec := func(kv map[string]any) string {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range kv {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	lines := []string{rec(map[string]any{"parentUuid": nil, "type": "user", "uuid": native + "-u0",
		"message": map[string]any{"role": "user", "content": "please write the code"}})}
	for i, c := range calls {
		lines = append(lines, rec(map[string]any{"parentUuid": native + "-u0", "type": "assistant",
			"uuid": native + "-a" + c.ID, "requestId": "req_" + c.ID,
			"message": map[string]any{"model": "claude-opus-4-7", "id": "msg_" + c.ID, "type": "message",
				"role": "assistant", "stop_reason": "tool_use", "content": []any{map[string]any{
					"type": "tool_use", "id": c.ID, "name": c.Name, "input": c.Input}}}}))
		lines = append(lines, rec(map[string]any{"parentUuid": native + "-a" + c.ID, "type": "user",
			"uuid": native + "-r" + string(rune('a'+i)), "message": map[string]any{"role": "user",
				"content": []any{map[string]any{"tool_use_id": c.ID, "type": "tool_result", "content": "ok"}}}}))
	}
	dir := filepath.Join(s.home, ".claude", "projects", strings.ReplaceAll(s.dir, "/", "-"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.t.Fatal(err)
	}
	body := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, native+".jsonl"), []byte(body), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return core.NewSessionID(core.ProviderClaude, native)
}
