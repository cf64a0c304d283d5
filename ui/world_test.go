package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/blame"
	"ctx/core"
	"ctx/ingest"
	"ctx/internal/fixtures"
	"ctx/sources"
)

// world is one store built per test binary: the real Claude Code, Codex
// and Amp (an agent with no resume command) fixtures imported from a
// scratch home, plus a hostile session
// whose agent wrote a file of a real git repository that ctx linked.
type world struct {
	home, store, repo string
	hostile           core.SessionID
	hostileFile       string
}

var (
	worldOnce sync.Once
	theWorld  *world
	worldErr  error
	worldSkip bool
)

// hostile texts planted in the hostile session; none may execute.
const (
	hostileScript = `<script>window.__pwned = "script"</script>`
	hostileImg    = `<img src=x onerror="window.__pwned='img'">`
	hostileLink   = `[open me](javascript:window.__pwned='link') javascript:alert(1)`
	hostileANSI   = "\x1b[31mred alert\x1b[0m \x1b]8;;http://example.invalid/\x07osc link\x1b]8;;\x07 bell\a"
	hostileEnd    = `</pre></article></main><script>window.__pwned="close"</script>`
)

// getWorld builds the world once, or skips the test with one line when
// the fixtures are not beside the repository.
func getWorld(t *testing.T) *world {
	t.Helper()
	worldOnce.Do(func() {
		if _, err := fixtures.Agents(); err != nil {
			worldSkip = true
			return
		}
		theWorld, worldErr = buildWorld()
	})
	if worldSkip {
		fixtures.Dir(t) // skips with one line, or fails where fixtures are required
	}
	if worldErr != nil {
		t.Fatal(worldErr)
	}
	return theWorld
}

func TestMain(m *testing.M) {
	code := m.Run()
	if theWorld != nil {
		os.RemoveAll(filepath.Dir(theWorld.home))
	}
	stopBrowser()
	os.Exit(code)
}

func buildWorld() (*world, error) {
	root, err := os.MkdirTemp("", "ctx-ui-test-")
	if err != nil {
		return nil, err
	}
	w := &world{home: filepath.Join(root, "home"), store: filepath.Join(root, "store"), repo: filepath.Join(root, "repo")}
	fx, _ := fixtures.Agents()
	for src, dst := range map[string]string{"claude-code/projects": ".claude/projects", "codex/sessions": ".codex/sessions",
		"amp/threads": ".local/share/amp/threads"} {
		if err := fixtures.CopyTree(filepath.Join(fx, src), filepath.Join(w.home, dst)); err != nil {
			return nil, err
		}
	}
	if err := w.gitRepo(); err != nil {
		return nil, err
	}
	if err := w.importAll(); err != nil {
		return nil, err
	}
	repo, err := blame.OpenRepo(context.Background(), w.repo)
	if err != nil {
		return nil, err
	}
	w.repo = repo.Root
	if _, err := blame.Link(context.Background(), repo, "HEAD", blame.LinkOptions{Home: w.store}); err != nil {
		return nil, fmt.Errorf("linking the hostile commit: %w", err)
	}
	return w, nil
}

func (w *world) env() core.Env {
	return core.Env{Home: w.home, Getenv: func(string) string { return "" }}
}

func (w *world) importAll() error {
	var srcs []core.Source
	for _, p := range sources.Builtin() {
		srcs = append(srcs, core.Source{Kind: core.KindAutomatic, Provider: p})
	}
	_, err := ingest.Run(context.Background(), ingest.Options{Home: w.store, Env: w.env(), Sources: srcs, Version: "test"})
	return err
}

// gitRepo creates the repository, the hostile Claude Code session that
// writes hello.go in it, and the commit of that file.
func (w *world) gitRepo() error {
	if err := os.MkdirAll(w.repo, 0o700); err != nil {
		return err
	}
	lines := []string{"package hello", "", "// Greet says hello " + hostileScript, "func Greet() string { return \"hi\" }"}
	w.hostileFile = "hello.go"
	if err := os.WriteFile(filepath.Join(w.repo, w.hostileFile), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	w.hostile = w.hostileSession(strings.Join(lines, "\n") + "\n")
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"},
		{"-c", "user.name=Test Human", "-c", "user.email=human@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "add hello"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = w.repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(w.home, ".gitconfig"),
			"GIT_COMMITTER_DATE="+time.Now().UTC().Format(time.RFC3339), "GIT_AUTHOR_DATE="+time.Now().UTC().Format(time.RFC3339))
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return nil
}

// hostileSession writes a Claude Code transcript (its real record shape)
// whose every text is an attack on the page, and whose Write call creates
// the committed file.
func (w *world) hostileSession(content string) core.SessionID {
	native := "0000feed-0000-4000-8000-00000000beef"
	ts := time.Now().UTC().Add(-time.Minute)
	n := 0
	rec := func(kv map[string]any) string {
		n++
		m := map[string]any{"isSidechain": false, "userType": "external", "cwd": w.repo, "sessionId": native,
			"version": "2.1.0", "gitBranch": "main", "timestamp": ts.Add(time.Duration(n) * time.Second).Format("2006-01-02T15:04:05.000Z")}
		for k, v := range kv {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	huge := "HUGE-LINE-START " + strings.Repeat("x", 5<<20) + " HUGE-LINE-END"
	prompt := "hostile prompt " + hostileScript + " " + hostileImg + " " + hostileLink + " " + hostileANSI + " " + hostileEnd
	lines := []string{
		rec(map[string]any{"parentUuid": nil, "type": "user", "uuid": "u0", "message": map[string]any{"role": "user", "content": prompt}}),
		rec(map[string]any{"parentUuid": "u0", "type": "assistant", "uuid": "a1", "requestId": "req_1",
			"message": map[string]any{"model": "claude-opus-4-7", "id": "msg_1", "type": "message", "role": "assistant",
				"content": []any{map[string]any{"type": "text", "text": "Writing it now. " + hostileImg}}}}),
		rec(map[string]any{"parentUuid": "a1", "type": "assistant", "uuid": "a2", "requestId": "req_2",
			"message": map[string]any{"model": "claude-opus-4-7", "id": "msg_2", "type": "message", "role": "assistant",
				"stop_reason": "tool_use", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_write",
					"name": "Write", "input": map[string]any{"file_path": filepath.Join(w.repo, "hello.go"), "content": content}}}}}),
		rec(map[string]any{"parentUuid": "a2", "type": "user", "uuid": "r2", "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"tool_use_id": "toolu_write", "type": "tool_result", "content": "wrote " + hostileEnd}}}}),
		rec(map[string]any{"parentUuid": "r2", "type": "user", "uuid": "u3", "message": map[string]any{"role": "user", "content": huge}}),
		rec(map[string]any{"parentUuid": "u3", "type": "assistant", "uuid": "a4", "requestId": "req_4",
			"message": map[string]any{"model": "claude-opus-4-7", "id": "msg_4", "type": "message", "role": "assistant",
				"content": []any{map[string]any{"type": "text", "text": "The end of the hostile session."}}}}),
	}
	dir := filepath.Join(w.home, ".claude", "projects", strings.ReplaceAll(w.repo, "/", "-"))
	_ = os.MkdirAll(dir, 0o700)
	_ = os.WriteFile(filepath.Join(dir, native+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	return core.NewSessionID(core.ProviderClaude, native)
}

// running is a Server serving the world on a loopback port.
type running struct {
	srv    *Server
	base   string // http://127.0.0.1:PORT
	client *http.Client
	stop   func()
}

func startServer(t *testing.T, w *world) *running {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Home: w.store, Env: w.env(), Repo: w.repo}, ln)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	jar, _ := cookiejar.New(nil)
	rn := &running{srv: s, base: "http://" + ln.Addr().String(), stop: func() { cancel(); <-done },
		client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	t.Cleanup(rn.stop)
	return rn
}

// login trades the URL's secret for the cookie.
func (rn *running) login(t *testing.T) {
	t.Helper()
	res, err := rn.client.Get(rn.srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first load: %d", res.StatusCode)
	}
}

// get fetches path with the cookie and returns the status and body.
func (rn *running) get(t *testing.T, path string, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, rn.base+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	res, err := rn.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
