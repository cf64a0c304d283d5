package corpus_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
	"time"

	"ctx/internal/corpus"
)

const (
	sharedEvents = 12000
	sharedSeed   = 11
)

var (
	sharedHome  string
	sharedStats corpus.Stats
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "corpus-test-")
	if err != nil {
		panic(err)
	}
	sharedHome = filepath.Join(dir, "home")
	sharedStats, err = corpus.Generate(sharedHome, corpus.Options{Events: sharedEvents, Seed: sharedSeed})
	if err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// files lists the files under home, relative and sorted.
func files(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(home, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestDeterministic(t *testing.T) {
	opts := corpus.Options{Events: 3000, Seed: 42}
	a, b := t.TempDir(), t.TempDir()
	sa, err := corpus.Generate(a, opts)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := corpus.Generate(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sa != sb {
		t.Fatalf("stats differ: %+v vs %+v", sa, sb)
	}
	fa, fb := files(t, a), files(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("%d files vs %d", len(fa), len(fb))
	}
	for i := range fa {
		if fa[i] != fb[i] {
			t.Fatalf("file %d: %s vs %s", i, fa[i], fb[i])
		}
		x, _ := os.ReadFile(filepath.Join(a, fa[i]))
		y, _ := os.ReadFile(filepath.Join(b, fb[i]))
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs between runs", fa[i])
		}
	}
	c := t.TempDir()
	if _, err := corpus.Generate(c, corpus.Options{Events: 3000, Seed: 43}); err != nil {
		t.Fatal(err)
	}
	if fc := files(t, c); len(fc) > 0 && len(fa) > 0 && fc[0] == fa[0] {
		t.Fatalf("seed 43 wrote the same first file as seed 42: %s", fc[0])
	}
}

func TestModes(t *testing.T) {
	err := filepath.WalkDir(sharedHome, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s: mode %v, want %v", p, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var (
	uuidRE   = `[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`
	uuid7RE  = `[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`
	slugRE   = `-home-dev-src-[a-z0-9-]+`
	layoutRE = map[string]*regexp.Regexp{
		"session":     regexp.MustCompile(`^\.claude/projects/` + slugRE + `/` + uuidRE + `\.jsonl$`),
		"subagent":    regexp.MustCompile(`^\.claude/projects/` + slugRE + `/` + uuidRE + `/subagents/agent-a[0-9a-f]{16}\.jsonl$`),
		"meta":        regexp.MustCompile(`^\.claude/projects/` + slugRE + `/` + uuidRE + `/subagents/agent-a[0-9a-f]{16}\.meta\.json$`),
		"oldSubagent": regexp.MustCompile(`^\.claude/projects/` + slugRE + `/agent-[0-9a-f]{8}\.jsonl$`),
		"rollout": regexp.MustCompile(`^\.codex/sessions/\d{4}/\d{2}/\d{2}/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-` +
			uuid7RE + `\.jsonl$`),
	}
)

// layoutKind names the layout a relative path matches, or "".
func layoutKind(rel string) string {
	for kind, re := range layoutRE {
		if re.MatchString(rel) {
			return kind
		}
	}
	return ""
}

func TestLayout(t *testing.T) {
	seen := map[string]int{}
	for _, rel := range files(t, sharedHome) {
		kind := layoutKind(rel)
		if kind == "" {
			t.Errorf("unexpected path %s", rel)
			continue
		}
		seen[kind]++
		if kind == "meta" {
			jsonl := rel[:len(rel)-len(".meta.json")] + ".jsonl"
			if _, err := os.Stat(filepath.Join(sharedHome, jsonl)); err != nil {
				t.Errorf("%s has no transcript: %v", rel, err)
			}
		}
	}
	for kind := range layoutRE {
		if seen[kind] == 0 {
			t.Errorf("no %s file in the shared corpus (%v)", kind, seen)
		}
	}
	if seen["meta"] != seen["subagent"] {
		t.Errorf("%d meta.json files for %d new-layout subagents", seen["meta"], seen["subagent"])
	}
}

func TestStats(t *testing.T) {
	st := sharedStats
	var sessions, events int
	var size int64
	list := files(t, sharedHome)
	for _, rel := range list {
		p := filepath.Join(sharedHome, rel)
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		size += info.Size()
		if filepath.Ext(rel) == ".jsonl" {
			sessions++
			events += countFile(t, p)
		}
	}
	if st.Files != len(list) || st.Sessions != sessions || st.Bytes != size {
		t.Errorf("stats %+v; on disk %d files, %d sessions, %d bytes", st, len(list), sessions, size)
	}
	if st.Events != events {
		t.Errorf("Stats.Events = %d, files hold %d", st.Events, events)
	}
}

func TestEventsClose(t *testing.T) {
	for _, tc := range []struct {
		events    int
		providers []string
	}{{40, nil}, {700, nil}, {2500, []string{"codex"}}, {2500, []string{"claude-code"}}, {6000, nil}} {
		tolerance := max(tc.events/20, 10) // ±5%, or a few events for tiny corpora
		home := t.TempDir()
		st, err := corpus.Generate(home, corpus.Options{Events: tc.events, Seed: 5, Providers: tc.providers})
		if err != nil {
			t.Fatal(err)
		}
		if d := st.Events - tc.events; d > tolerance || -d > tolerance {
			t.Errorf("Events %d (%v): wrote %d, more than %d off", tc.events, tc.providers, st.Events, tolerance)
		}
		for _, rel := range files(t, home) {
			if len(tc.providers) == 1 && (rel[:7] == ".codex/") != (tc.providers[0] == "codex") {
				t.Errorf("providers %v wrote %s", tc.providers, rel)
				break
			}
		}
	}
}

func TestProviderSplit(t *testing.T) {
	var claude, codex int
	for _, rel := range files(t, sharedHome) {
		if filepath.Ext(rel) != ".jsonl" {
			continue
		}
		n := countFile(t, filepath.Join(sharedHome, rel))
		if rel[:7] == ".codex/" {
			codex += n
		} else {
			claude += n
		}
	}
	if share := claude * 100 / (claude + codex); share < 55 || share > 65 {
		t.Errorf("claude-code share %d%% (claude %d, codex %d), want about 60%%", share, claude, codex)
	}
}

func TestBadOptions(t *testing.T) {
	for _, opts := range []corpus.Options{{Events: 0}, {Events: 10, Providers: []string{"unknown-agent"}}} {
		if _, err := corpus.Generate(t.TempDir(), opts); !errors.Is(err, corpus.ErrOptions) {
			t.Errorf("Generate(%+v) = %v, want ErrOptions", opts, err)
		}
	}
}

var timestampRE = regexp.MustCompile(`"timestamp":"([^"]+)"`)

func TestStart(t *testing.T) {
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	home := t.TempDir()
	if _, err := corpus.Generate(home, corpus.Options{Events: 1500, Seed: 2, Start: start}); err != nil {
		t.Fatal(err)
	}
	lo, hi := start.Add(-corpus.Spread).Format(time.RFC3339), start.Format(time.RFC3339)
	for _, rel := range files(t, home) {
		b, err := os.ReadFile(filepath.Join(home, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range timestampRE.FindAllSubmatch(b, -1) {
			if ts := string(m[1]); ts < lo || ts > hi {
				t.Fatalf("%s: timestamp %s outside [%s, %s]", rel, ts, lo, hi)
			}
		}
	}
}
