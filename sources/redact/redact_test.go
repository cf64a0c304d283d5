package redact

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ctx/core"
)

func marker(id string) string { return markerOpen + id + "]" }

func TestPlanted(t *testing.T) {
	r := New()
	for i, p := range plants(newFake(1)) {
		t.Run(fmt.Sprintf("%s/%d", p.id, i), func(t *testing.T) {
			in := p.pre + p.secret + p.post
			out, n := r.String(in)
			if want := p.pre + marker(p.id) + p.post; out != want || n != 1 {
				t.Errorf("String(%q)\n got %q (%d)\nwant %q (1)", in, out, n, want)
			}
			if strings.Contains(out, p.secret) {
				t.Errorf("secret survives in %q", out)
			}
		})
	}
}

// TestPlantedTogether redacts every planted text in one document: each
// secret goes, each marker appears, the count adds up.
func TestPlantedTogether(t *testing.T) {
	ps := plants(newFake(2))
	var in, want strings.Builder
	for _, p := range ps {
		in.WriteString(p.pre + p.secret + p.post + "\n\n")
		want.WriteString(p.pre + marker(p.id) + p.post + "\n\n")
	}
	out, n := New().String(in.String())
	if n != len(ps) || out != want.String() {
		t.Fatalf("got %d replacements, want %d; output differs: %v", n, len(ps), out != want.String())
	}
}

func TestEveryRuleHasPlants(t *testing.T) {
	count := map[string]int{}
	for _, p := range plants(newFake(1)) {
		count[p.id]++
	}
	for _, rl := range New().Rules() {
		if count[rl.ID] < 3 {
			t.Errorf("rule %s has %d planted examples, want at least 3", rl.ID, count[rl.ID])
		}
		delete(count, rl.ID)
	}
	for id := range count {
		t.Errorf("planted examples name unknown rule %s", id)
	}
}

func TestBenign(t *testing.T) {
	r := New()
	texts := append(append([]string{}, benignTexts...), generatedBenign(newFake(3))...)
	if n := len(plants(newFake(1))); len(texts) < n {
		t.Errorf("benign corpus has %d texts, want at least as many as the %d planted", len(texts), n)
	}
	for i, s := range texts {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			if out, n := r.String(s); n != 0 || out != s {
				t.Errorf("benign text redacted (%d):\n in %q\nout %q", n, s, out)
			}
		})
	}
}

func TestIdempotent(t *testing.T) {
	r := New()
	for _, p := range plants(newFake(4)) {
		once, _ := r.String(p.pre + p.secret + p.post)
		if twice, n := r.String(once); n != 0 || twice != once {
			t.Errorf("%s: second pass changed %q into %q (%d)", p.id, once, twice, n)
		}
	}
}

func TestEvent(t *testing.T) {
	f := newFake(5)
	gh, pw, jwt := f.ghToken("ghp_"), f.password(), f.jwt()
	e := core.Event{
		Type:    core.TypeToolCall,
		Tool:    "Bash",
		Text:    "export GITHUB_TOKEN=" + gh,
		Command: "psql postgres://app:" + pw + "@db/app",
		Files: []core.FileTouch{
			{Path: "config/token.env", Op: core.OpEdit, OldText: "TOKEN=" + gh, NewText: "TOKEN=${TOKEN}"},
			{Path: "auth/session.txt", Op: core.OpPatch, Patch: "-session=" + jwt + "\n+session=\n"},
		},
	}
	r := New()
	if n := r.Event(&e); n != 4 {
		t.Fatalf("Event redacted %d secrets, want 4", n)
	}
	want := core.Event{
		Type: core.TypeToolCall, Tool: "Bash",
		Text:    "export GITHUB_TOKEN=" + marker("github-token"),
		Command: "psql postgres://app:" + marker("url-password") + "@db/app",
		Files: []core.FileTouch{
			{Path: "config/token.env", Op: core.OpEdit, OldText: "TOKEN=" + marker("github-token"), NewText: "TOKEN=${TOKEN}"},
			{Path: "auth/session.txt", Op: core.OpPatch, Patch: "-session=" + marker("jwt") + "\n+session=\n"},
		},
	}
	if e.Text != want.Text || e.Command != want.Command || e.Tool != want.Tool {
		t.Errorf("event fields:\n got %q %q %q\nwant %q %q %q", e.Text, e.Command, e.Tool, want.Text, want.Command, want.Tool)
	}
	for i := range want.Files {
		if e.Files[i] != want.Files[i] {
			t.Errorf("file %d:\n got %+v\nwant %+v", i, e.Files[i], want.Files[i])
		}
	}
	if n := r.Event(&e); n != 0 {
		t.Errorf("second Event redacted %d more", n)
	}
}

func TestRules(t *testing.T) {
	ids := map[string]bool{}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, rl := range New().Rules() {
		if !kebab.MatchString(rl.ID) || ids[rl.ID] {
			t.Errorf("rule id %q is not unique kebab-case", rl.ID)
		}
		ids[rl.ID] = true
		if rl.Description == "" || rl.Pattern == "" {
			t.Errorf("rule %s lacks a description or pattern", rl.ID)
		}
	}
}

// TestOverlapMerged: overlapping matches become one marker, so no piece of
// either survives.
func TestOverlapMerged(t *testing.T) {
	got, _ := apply("0123456789", []span{{lo: 2, hi: 6, prio: 1, id: "b"}, {lo: 4, hi: 8, prio: 0, id: "a"}, {lo: 2, hi: 6, prio: 0, id: "c"}})
	if want := "01" + marker("c") + "89"; got != want {
		t.Errorf("apply = %q, want %q", got, want)
	}
}

func TestConcurrent(t *testing.T) {
	r := New()
	ps := plants(newFake(6))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for _, p := range ps[g:] {
				if out, _ := r.String(p.pre + p.secret + p.post); strings.Contains(out, p.secret) {
					t.Errorf("%s: secret survives", p.id)
				}
			}
		})
	}
	wg.Wait()
}

// TestAdversarialLinear: dense anchors must not make a scan quadratic (1 MiB
// of one anchor takes milliseconds; a quadratic scan would take minutes).
func TestAdversarialLinear(t *testing.T) {
	r := New()
	for _, unit := range []string{"sk-", "eyJ", "-----BEGIN PRIVATE KEY-----\n", "token=", "a://", "Bearer ", "AccountKey=",
		"ghp_", "password_", "MTMT.", "authorization: ", "https://u:p@", "xoxb-1"} {
		s := strings.Repeat(unit, (1<<20)/len(unit))
		start := cpuTime()
		r.String(s)
		if d := cpuTime() - start; d > 3*time.Second {
			t.Errorf("%q×%d took %v of CPU", unit, len(s)/len(unit), d)
		}
	}
}

// TestCases pins behaviours the planted set does not show on its own.
func TestCases(t *testing.T) {
	f := newFake(9)
	gh, pw := f.ghToken("ghp_"), f.password()
	long := "password=" + strings.Repeat("a1", 240) + ":" + gh
	cases := []struct {
		name, in, want string
		n              int
	}{
		{"two secrets on a line", "A=" + gh + " B=" + gh, "A=" + marker("github-token") + " B=" + marker("github-token"), 2},
		{"token inside an overlong value", long, long[:len(long)-len(gh)] + marker("github-token"), 1},
		{"url keeps user and host", "https://ci:" + pw + "@example.org/x", "https://ci:" + marker("url-password") + "@example.org/x", 1},
		{"yaml keeps key", "  db_pass: '" + pw + "'", "  db_pass: '" + marker("secret-assignment") + "'", 1},
		{"flag with blank", "--api-key " + pw + " --verbose", "--api-key " + marker("secret-assignment") + " --verbose", 1},
		{"go :=", `clientSecret := "` + pw + `"`, `clientSecret := "` + marker("secret-assignment") + `"`, 1},
		{"ruby =>", `:auth_token => "` + pw + `"`, `:auth_token => "` + marker("secret-assignment") + `"`, 1},
		{"comparison is not assignment", `if password == "` + pw + `" {`, `if password == "` + pw + `" {`, 0},
		{"token right after text", "xghp_" + f.mixed(alnums, 36), "xghp_", -1},
		{"already redacted", "TOKEN=" + marker("github-token"), "TOKEN=" + marker("github-token"), 0},
		{"empty", "", "", 0},
	}
	r := New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, n := r.String(c.in)
			switch {
			case c.n < 0: // only a prefix is known; nothing may be redacted
				if n != 0 || !strings.HasPrefix(got, c.want) {
					t.Errorf("got %q (%d)", got, n)
				}
			case got != c.want || n != c.n:
				t.Errorf("\n got %q (%d)\nwant %q (%d)", got, n, c.want, c.n)
			}
		})
	}
}

// TestDocListsRules keeps doc.go's list of rule ids in step with the table.
func TestDocListsRules(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, rl := range New().Rules() {
		if !regexp.MustCompile(`[\s,]` + regexp.QuoteMeta(rl.ID) + `[,.]`).Match(doc) {
			t.Errorf("doc.go does not list rule %s", rl.ID)
		}
	}
}
