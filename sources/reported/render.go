package reported

import (
	"fmt"
	"strings"
)

// Heading is the provenance line of a record: who reported it, through
// which door and client, when.
func Heading(r *Record) string {
	client := r.Provenance.Client.Name
	if v := r.Provenance.Client.Version; v != "" {
		client += " " + v
	}
	return fmt.Sprintf("Reported by %s via %s (harness %s, client %s) at %s, revision %d",
		orText(r.Provenance.ReportedBy, "agent"), r.Provenance.Door, orText(r.Provenance.Harness, "unknown"),
		orText(client, "unknown"), r.ReceivedAt.UTC().Format("2006-01-02T15:04:05Z"), r.Revision)
}

// Render writes a report as Markdown: the summary, then each section that
// is set, in the handoff package's order.
func Render(r *Report) string {
	var b strings.Builder
	b.WriteString(r.Summary)
	b.WriteString("\n")
	section := func(title, body string) {
		if body != "" {
			fmt.Fprintf(&b, "\n## %s\n%s\n", title, body)
		}
	}
	section("State", r.State)
	decisions := make([]string, len(r.KeyDecisions))
	for i, k := range r.KeyDecisions {
		decisions[i] = noted(k.Decision, "why: ", k.Rationale)
	}
	section("Key decisions", bullets(decisions))
	var o strings.Builder
	for i, it := range r.OpenItems {
		fmt.Fprintf(&o, "%d. %s\n", i+1, it)
	}
	section("Open items", strings.TrimRight(o.String(), "\n"))
	section("Gotchas", bullets(r.Gotchas))
	artifacts := make([]string, len(r.Artifacts))
	for i, art := range r.Artifacts {
		artifacts[i] = noted(art.Path, "", art.Role)
	}
	section("Artifacts", bullets(artifacts))
	section("Files touched", bullets(r.FilesTouched))
	section("Suggested first prompt", r.SuggestedFirstPrompt)
	return b.String()
}

// noted is s with its note in parentheses after it, when there is one.
func noted(s, label, note string) string {
	if note == "" {
		return s
	}
	return s + " (" + label + note + ")"
}

func bullets(items []string) string {
	var b strings.Builder
	for _, it := range items {
		b.WriteString("- " + it + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// TitleOf is a reported session's title: the report's title, else the
// first line of its summary, at most 120 characters.
func TitleOf(r *Report) string {
	t := r.Title
	if t == "" {
		t = r.Summary
		if i := strings.IndexByte(t, '\n'); i >= 0 {
			t = t[:i]
		}
	}
	t = strings.TrimSpace(t)
	if rs := []rune(t); len(rs) > 120 {
		t = string(rs[:119]) + "…"
	}
	return t
}
