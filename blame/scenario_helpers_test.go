package blame

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/core"
	"ctx/query"
)

// The scenario builder: a scripted history in which agents (Claude Code
// transcripts and Codex rollouts in their real record shapes) and a human
// edit files of a real repository whose ctx hooks are installed with the
// built binary. Every line the scenario writes has text of its own, so the
// writer of any line at HEAD, after whatever git did to it, is known by its
// text; the suite then blames every file and scores each line.

var (
	ctxBinOnce sync.Once
	ctxBinDir  string
	ctxBin     string
	ctxBinErr  error
)

// TestMain removes the binary the scenarios built.
func TestMain(m *testing.M) {
	code := m.Run()
	if ctxBinDir != "" {
		os.RemoveAll(ctxBinDir)
	}
	os.Exit(code)
}

// builtCtx builds cmd/ctx (and cmd/ctx-hook beside it) once per test binary, before any test changes
// HOME (the go command's caches live there).
func builtCtx(t *testing.T) string {
	t.Helper()
	ctxBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ctx-scenario-bin")
		if err != nil {
			ctxBinErr = err
			return
		}
		ctxBinDir, ctxBin = dir, filepath.Join(dir, "ctx")
		// ctx-core beside the ctx front; ctx-hook beside ctx: the installed
		// post-commit hook runs it, and it runs ctx when no daemon does the work.
		out, err := exec.Command("go", "build", "-o", dir, "ctx/cmd/ctx", "ctx/cmd/ctx-core", "ctx/cmd/ctx-hook").CombinedOutput()
		if err != nil {
			ctxBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if ctxBinErr != nil {
		t.Fatal(ctxBinErr)
	}
	return ctxBin
}

// writer is who wrote a line: an agent's session and event, or a human
// (both empty).
type writer struct{ Session, Event string }

func (w writer) human() bool { return w.Session == "" }

// world is one scenario's scratch HOME, store and repository, with a clock
// that git commits and agent records share.
type world struct {
	*sandbox
	bin     string
	clock   time.Time
	writers map[string]writer // line text (or "tok:" + a line's token) → writer
	// at pins the writer of lines by file and line number at HEAD, where
	// text cannot tell (identical lines of two sessions, a copy of a file).
	at     map[string]map[int]writer
	serial int
	claude map[string]*agentLog
	codex  map[string]*agentLog
}

// agentLog is one agent session file being written.
type agentLog struct {
	path   string
	native string
	sid    core.SessionID
	lines  []string
	calls  int
}

func newWorld(t *testing.T) *world {
	t.Helper()
	bin := builtCtx(t)
	s := newSandbox(t)
	t.Setenv("CTX_HOME", s.store)
	t.Setenv("CTX_DAEMON", "off")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	w := &world{sandbox: s, bin: bin, clock: time.Now().UTC().Add(-30 * 24 * time.Hour).Truncate(time.Second),
		writers: map[string]writer{}, at: map[string]map[int]writer{}, claude: map[string]*agentLog{},
		codex: map[string]*agentLog{}}
	w.ctx("hooks", "install")
	w.human("README.md", nil, w.humanLines(2))
	w.commit("init")
	return w
}

// tick advances the clock.
func (w *world) tick(d time.Duration) { w.clock = w.clock.Add(d) }

// run runs a command in the repository with the clock as git's author and
// committer date.
func (w *world) run(name string, args ...string) (string, error) {
	return w.runEnv(nil, name, args...)
}

func (w *world) runEnv(env []string, name string, args ...string) (string, error) {
	w.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = w.dir
	date := w.clock.Format(time.RFC3339)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_EDITOR=true")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// git runs git at the clock and fails the test on error.
func (w *world) git(args ...string) string {
	w.t.Helper()
	out, err := w.run("git", args...)
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// rebaseI runs git rebase -i onto upstream with the todo list edited by
// a sed script.
func (w *world) rebaseI(upstream, sed string) {
	w.t.Helper()
	out, err := w.runEnv([]string{"GIT_SEQUENCE_EDITOR=sed -i -e '" + sed + "'"}, "git", "rebase", "-q", "-i", upstream)
	if err != nil {
		w.t.Fatalf("git rebase -i %s (%s): %v\n%s", upstream, sed, err, out)
	}
}

// ctx runs the built binary in the repository.
func (w *world) ctx(args ...string) string {
	w.t.Helper()
	out, err := w.run(w.bin, args...)
	if err != nil {
		w.t.Fatalf("ctx %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (w *world) commit(msg string) string {
	w.t.Helper()
	w.tick(time.Minute)
	w.git("add", "-A")
	w.git("commit", "-q", "-m", msg)
	return w.git("rev-parse", "HEAD")
}

// lines makes n lines of text no other line of the world has.
func (w *world) lines(who string, n int) []string {
	out := make([]string, n)
	for i := range out {
		w.serial++
		out[i] = fmt.Sprintf("var %s%d = %q", who, w.serial, fmt.Sprintf("%s line %d", who, w.serial))
	}
	return out
}

func (w *world) humanLines(n int) []string { return w.lines("human", n) }

func (w *world) read(path string) []string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, path))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func (w *world) put(path string, lines []string) {
	w.t.Helper()
	w.write(path, strings.Join(lines, "\n")+"\n")
}

// insertAfter returns file with add inserted after the line anchor ("" for
// the top).
func (w *world) insertAfter(file []string, anchor string, add []string) []string {
	w.t.Helper()
	at := 0
	if anchor != "" {
		at = index(file, anchor) + 1
		if at == 0 {
			w.t.Fatalf("anchor %q not in file", anchor)
		}
	}
	out := append([]string{}, file[:at]...)
	out = append(out, add...)
	return append(out, file[at:]...)
}

func index(file []string, line string) int {
	for i, l := range file {
		if l == line {
			return i
		}
	}
	return -1
}

// human inserts lines after anchor (nil: at the end) and records them as
// the human's.
func (w *world) human(path string, anchor *string, add []string) {
	w.t.Helper()
	file := w.read(path)
	if anchor == nil {
		file = append(file, add...)
	} else {
		file = w.insertAfter(file, *anchor, add)
	}
	w.put(path, file)
	for _, l := range add {
		w.writers[l] = writer{}
		for _, t := range lineTokens(l) {
			w.writers["tok:"+t] = writer{}
		}
	}
}

// humanReplace replaces line old by a new human line and returns it.
func (w *world) humanReplace(path, old string) string {
	w.t.Helper()
	file := w.read(path)
	i := index(file, old)
	if i < 0 {
		w.t.Fatalf("%s: no line %q", path, old)
	}
	file[i] = w.humanLines(1)[0]
	w.writers[file[i]] = writer{}
	for _, t := range lineTokens(file[i]) {
		w.writers["tok:"+t] = writer{}
	}
	w.put(path, file)
	return file[i]
}

func (w *world) claudeLog(native string) *agentLog {
	l := w.claude[native]
	if l == nil {
		dir := filepath.Join(w.home, ".claude", "projects", strings.ReplaceAll(w.dir, "/", "-"))
		l = &agentLog{path: filepath.Join(dir, native+".jsonl"), native: native,
			sid: core.NewSessionID(core.ProviderClaude, native)}
		w.claude[native] = l
		l.lines = append(l.lines, w.claudeRecord(native, map[string]any{"parentUuid": nil, "type": "user",
			"uuid": native + "-u0", "message": map[string]any{"role": "user", "content": "please write the code"}}))
	}
	return l
}

func (w *world) claudeRecord(native string, kv map[string]any) string {
	m := map[string]any{"isSidechain": false, "userType": "external", "cwd": w.dir, "sessionId": native,
		"version": "2.1.0", "gitBranch": "main", "timestamp": w.clock.Format("2006-01-02T15:04:05.000Z")}
	for k, v := range kv {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// claudeTool appends one tool_use and its result to a Claude Code
// transcript and returns the event's id.
func (w *world) claudeTool(native, name string, input map[string]any) writer {
	w.t.Helper()
	w.tick(time.Minute)
	l := w.claudeLog(native)
	l.calls++
	id := fmt.Sprintf("toolu_%s_%02d", strings.ReplaceAll(native[:8], "-", ""), l.calls)
	l.lines = append(l.lines, w.claudeRecord(native, map[string]any{"parentUuid": native + "-u0", "type": "assistant",
		"uuid": native + "-a" + id, "requestId": "req_" + id,
		"message": map[string]any{"model": "claude-opus-4-7", "id": "msg_" + id, "type": "message",
			"role": "assistant", "stop_reason": "tool_use", "content": []any{map[string]any{
				"type": "tool_use", "id": id, "name": name, "input": input}}}}))
	l.lines = append(l.lines, w.claudeRecord(native, map[string]any{"parentUuid": native + "-a" + id, "type": "user",
		"uuid": native + "-r" + id, "message": map[string]any{"role": "user",
			"content": []any{map[string]any{"tool_use_id": id, "type": "tool_result", "content": "ok"}}}}))
	w.flush(l)
	return writer{Session: l.sid.String(), Event: core.NewEventID(l.sid, id).String()}
}

func (w *world) flush(l *agentLog) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(l.path, []byte(strings.Join(l.lines, "\n")+"\n"), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// claudeWrite has a Claude Code session create path with lines (Write).
func (w *world) claudeWrite(native, path string, lines []string) writer {
	w.t.Helper()
	ev := w.claudeTool(native, "Write", map[string]any{"file_path": filepath.Join(w.dir, path),
		"content": strings.Join(lines, "\n") + "\n"})
	w.put(path, lines)
	w.own(lines, ev)
	return ev
}

// claudeEdit has a Claude Code session insert add after the line anchor
// (an Edit whose old text is the anchor, so the anchor is context).
func (w *world) claudeEdit(native, path, anchor string, add []string) writer {
	w.t.Helper()
	ev := w.claudeTool(native, "Edit", map[string]any{"file_path": filepath.Join(w.dir, path),
		"old_string": anchor, "new_string": strings.Join(append([]string{anchor}, add...), "\n")})
	w.put(path, w.insertAfter(w.read(path), anchor, add))
	w.own(add, ev)
	return ev
}

// claudeReplace has a Claude Code session replace a block of lines.
func (w *world) claudeReplace(native, path string, old, add []string) {
	w.t.Helper()
	ev := w.claudeTool(native, "Edit", map[string]any{"file_path": filepath.Join(w.dir, path),
		"old_string": strings.Join(old, "\n"), "new_string": strings.Join(add, "\n")})
	body := strings.Join(w.read(path), "\n") + "\n"
	if !strings.Contains(body, strings.Join(old, "\n")) {
		w.t.Fatalf("%s: old block not found", path)
	}
	body = strings.Replace(body, strings.Join(old, "\n"), strings.Join(add, "\n"), 1)
	w.write(path, body)
	had := map[string]int{}
	for _, l := range old {
		had[l]++
	}
	var wrote []string // an edit writes its new lines less those its old text had
	for _, l := range add {
		if had[l] > 0 {
			had[l]--
			continue
		}
		wrote = append(wrote, l)
	}
	w.own(wrote, ev)
}

func (w *world) own(lines []string, ev writer) {
	for _, l := range lines {
		for _, k := range append([]string{l}, prefixed("tok:", lineTokens(l))...) {
			if prev, ok := w.writers[k]; ok && prev != ev && !prev.human() {
				continue // written earlier; the earlier event keeps it
			}
			w.writers[k] = ev
		}
	}
}

// tokenRe finds the names the scenario's line makers give: who wrote a
// line and its serial (claudeA12, codexB7, human3). A formatter may
// re-space, re-quote or wrap a line; its pieces still carry the token.
var tokenRe = regexp.MustCompile(`\b(?:claude[A-Z]|codex[A-Z]|human)[0-9]+`)

func lineTokens(l string) []string { return tokenRe.FindAllString(l, -1) }

func prefixed(p string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + x
	}
	return out
}

// writerAt is who wrote line n of file at HEAD: pinned by position; for a
// line with no letter or digit, the writer of the line above (the brace
// closes what it opened); else by its text, else by the token in it (a
// line a formatter changed). Blank lines are not scored; a line the
// scenario cannot place fails the test.
func (w *world) writerAt(file string, n int, text string, above *writer) (who writer, unscored bool) {
	w.t.Helper()
	if who, ok := w.at[file][n]; ok {
		return who, false
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return writer{}, true
	}
	toks := lineTokens(text)
	if len(toks) == 0 && trivial(t) && above != nil {
		return *above, false // a brace closes what the line above opened
	}
	if who, ok := w.writers[text]; ok {
		return who, false
	}
	for _, t := range toks {
		if who, ok := w.writers["tok:"+t]; ok {
			return who, false
		}
	}
	w.t.Fatalf("%s:%d %q: a line the scenario did not write", file, n, text)
	return writer{}, true
}

// pin sets the writers of the lines of file at HEAD whose text is text, in
// the order they appear.
func (w *world) pin(file, text string, who ...writer) {
	w.t.Helper()
	var at []int
	for i, l := range w.read(file) {
		if l == text {
			at = append(at, i+1)
		}
	}
	if len(at) != len(who) {
		w.t.Fatalf("%s: %d lines %q, want %d", file, len(at), text, len(who))
	}
	if w.at[file] == nil {
		w.at[file] = map[int]writer{}
	}
	for k, n := range at {
		w.at[file][n] = who[k]
	}
}

// pinFile sets one writer for every line of file at HEAD.
func (w *world) pinFile(file string, who writer) {
	w.t.Helper()
	w.at[file] = map[int]writer{}
	for i := range w.read(file) {
		w.at[file][i+1] = who
	}
}

func (w *world) codexLog(native string) *agentLog {
	l := w.codex[native]
	if l == nil {
		local := w.clock.Add(time.Hour) // the file name uses local time, as on a real machine
		path := filepath.Join(w.home, ".codex", "sessions", local.Format("2006/01/02"),
			"rollout-"+local.Format("2006-01-02T15-04-05")+"-"+native+".jsonl")
		l = &agentLog{path: path, native: native, sid: core.NewSessionID(core.ProviderCodex, native)}
		w.codex[native] = l
		l.lines = append(l.lines,
			w.codexRecord("session_meta", map[string]any{"id": native, "timestamp": w.stamp(), "cwd": w.dir,
				"originator": "codex_cli_rs", "cli_version": "0.72.0", "instructions": nil, "source": "cli",
				"model_provider": "openai"}),
			w.codexRecord("response_item", map[string]any{"type": "message", "role": "user", "content": []any{
				map[string]any{"type": "input_text", "text": "<environment_context>\n  <cwd>" + w.dir + "</cwd>\n</environment_context>"}}}),
			w.codexRecord("turn_context", map[string]any{"cwd": w.dir, "approval_policy": "never",
				"sandbox_policy": map[string]any{"type": "danger-full-access"}, "model": "gpt-5.1-codex-max", "summary": "auto"}),
			w.codexRecord("response_item", map[string]any{"type": "message", "role": "user", "content": []any{
				map[string]any{"type": "input_text", "text": "implement the change"}}}))
	}
	return l
}

func (w *world) stamp() string { return w.clock.Format("2006-01-02T15:04:05.000Z") }

func (w *world) codexRecord(typ string, payload map[string]any) string {
	b, err := json.Marshal(map[string]any{"timestamp": w.stamp(), "type": typ, "payload": payload})
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// codexPatch appends an apply_patch custom tool call and its output to a
// Codex rollout and returns the event.
func (w *world) codexPatch(native, patch, summary string) writer {
	w.t.Helper()
	w.tick(time.Minute)
	l := w.codexLog(native)
	l.calls++
	id := fmt.Sprintf("call_%s%02d", strings.ReplaceAll(native[len(native)-8:], "-", ""), l.calls)
	out, _ := json.Marshal(map[string]any{"output": "Success. Updated the following files:\n" + summary + "\n",
		"metadata": map[string]any{"exit_code": 0, "duration_seconds": 0.0}})
	l.lines = append(l.lines,
		w.codexRecord("response_item", map[string]any{"type": "custom_tool_call", "status": "completed",
			"call_id": id, "name": "apply_patch", "input": patch}),
		w.codexRecord("response_item", map[string]any{"type": "custom_tool_call_output", "call_id": id,
			"output": string(out)}))
	w.flush(l)
	return writer{Session: l.sid.String(), Event: core.NewEventID(l.sid, id).String()}
}

// codexAdd has a Codex session create path (apply_patch Add File).
func (w *world) codexAdd(native, path string, lines []string) writer {
	w.t.Helper()
	patch := "*** Begin Patch\n*** Add File: " + path + "\n+" + strings.Join(lines, "\n+") + "\n*** End Patch"
	ev := w.codexPatch(native, patch, "A "+path)
	w.put(path, lines)
	w.own(lines, ev)
	return ev
}

// codexInsert has a Codex session insert add after the line anchor
// (apply_patch Update File with the anchor as context).
func (w *world) codexInsert(native, path, anchor string, add []string) writer {
	w.t.Helper()
	patch := "*** Begin Patch\n*** Update File: " + path + "\n@@\n " + anchor + "\n+" + strings.Join(add, "\n+") +
		"\n*** End Patch"
	ev := w.codexPatch(native, patch, "M "+path)
	w.put(path, w.insertAfter(w.read(path), anchor, add))
	w.own(add, ev)
	return ev
}

// score is the suite's tally over lines.
type score struct {
	agentLines, humanLines int
	predicted, correct     int
	humanWithEvidence      int
	kinds                  map[string]int // match kinds of the lines attributed right
}

func (s *score) add(o score) {
	for k, n := range o.kinds {
		if s.kinds == nil {
			s.kinds = map[string]int{}
		}
		s.kinds[k] += n
	}
	s.agentLines += o.agentLines
	s.humanLines += o.humanLines
	s.predicted += o.predicted
	s.correct += o.correct
	s.humanWithEvidence += o.humanWithEvidence
}

func (s score) precision() float64 {
	if s.predicted == 0 {
		return 1
	}
	return float64(s.correct) / float64(s.predicted)
}

func (s score) recall() float64 {
	if s.agentLines == 0 {
		return 1
	}
	return float64(s.correct) / float64(s.agentLines)
}

// check blames every tracked file at HEAD through ctx blame (the built
// binary) and scores each line against its writer: an agent line is right
// when every piece of evidence names its session and event, a human line
// when it has none. Every wrong line is reported.
func (w *world) check() score {
	w.t.Helper()
	var sc score
	for _, f := range strings.Fields(w.git("ls-files")) {
		if b, err := os.ReadFile(filepath.Join(w.dir, f)); err == nil && bytes.IndexByte(b, 0) >= 0 {
			continue // binary: blame refuses it, nobody's lines are in it
		}
		var v FileView
		if err := json.Unmarshal([]byte(w.ctx("blame", f, "--format", "json")), &v); err != nil {
			w.t.Fatalf("blame %s: %v", f, err)
		}
		for _, p := range v.Problems {
			w.t.Errorf("blame %s: problem %s", f, p)
		}
		var above *writer
		for _, l := range v.Lines {
			who, unscored := w.writerAt(f, l.Line, l.Text, above)
			if unscored {
				continue
			}
			above = &who
			if who.human() {
				sc.humanLines++
				if len(l.Evidence) > 0 {
					sc.predicted++
					sc.humanWithEvidence++
					w.t.Errorf("%s:%d %q is a human's line; evidence %+v", f, l.Line, l.Text, l.Evidence)
				}
				continue
			}
			sc.agentLines++
			if len(l.Evidence) == 0 {
				w.t.Errorf("%s:%d %q: no evidence, want %s", f, l.Line, l.Text, who.Event)
				continue
			}
			sc.predicted++
			right := true
			for _, e := range l.Evidence {
				right = right && e.CtxSessionID == who.Session && e.CtxEventID == who.Event && e.InStore
			}
			if right {
				sc.correct++
				if sc.kinds == nil {
					sc.kinds = map[string]int{}
				}
				sc.kinds[l.Evidence[0].Match]++
			} else {
				w.t.Errorf("%s:%d %q: evidence %+v, want %s", f, l.Line, l.Text, l.Evidence, who.Event)
			}
		}
	}
	w.hookProblems()
	if st := w.git("status", "--porcelain"); st != "" {
		w.t.Errorf("the hooks changed the work tree:\n%s", st)
	}
	return sc
}

// hookProblems fails on anything the hooks logged.
func (w *world) hookProblems() {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.store, "logs", "hooks.log"))
	if err == nil && len(b) > 0 {
		w.t.Errorf("hooks logged problems:\n%s", b)
	}
}

// note reads the ctx note of rev (nil when none).
func (w *world) note(rev string) *Note {
	w.t.Helper()
	n, err := w.repo.ReadNote(context.Background(), w.git("rev-parse", rev))
	if err != nil {
		w.t.Fatal(err)
	}
	return n
}

// storeEvents counts the store's events, to prove the history was imported
// through the real ingest.
func (w *world) storeEvents() int {
	w.t.Helper()
	rd, err := query.Open(w.store)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rd.Close()
	page, err := rd.ListEvents(context.Background(), query.ListRequest{Limit: query.MaxPageLimit})
	if err != nil {
		w.t.Fatal(err)
	}
	return len(page.Events)
}
