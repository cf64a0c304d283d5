package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"ctx/core"
)

type markdownWriter struct {
	w    *bufio.Writer
	clip int
}

func newMarkdown(w io.Writer, clip int) *markdownWriter {
	return &markdownWriter{w: bufio.NewWriterSize(w, 64<<10), clip: clip}
}

// mdText escapes prose: HTML is shown, never interpreted.
func mdText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(clean(s))
}

// mdCell is mdText on one line, safe inside a table cell.
func mdCell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(mdText(s)), " "), "|", `\|`)
}

// fence returns a backtick fence longer than any run of backticks in s.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func (m *markdownWriter) code(lang, s string) {
	f := fence(s)
	fmt.Fprintf(m.w, "%s%s\n%s\n%s\n\n", f, lang, strings.TrimRight(s, "\n"), f)
}

func (m *markdownWriter) begin(h *Header) error {
	s := &h.Session
	title := h.Title
	if title == "" {
		title = "Session " + s.ID.String()
	}
	fmt.Fprintf(m.w, "# %s\n\n| | |\n|---|---|\n", mdCell(title))
	for _, kv := range headerRows(h) {
		fmt.Fprintf(m.w, "| %s | %s |\n", kv[0], mdCell(kv[1]))
	}
	fmt.Fprint(m.w, "\n---\n\n")
	return nil
}

// headerRows are the metadata and provenance lines of every format.
func headerRows(h *Header) [][2]string {
	s := &h.Session
	rows := [][2]string{{"Session", s.ID.String()}, {"Agent", s.Provider + " (session " + s.NativeID + ")"}}
	add := func(k, v string) {
		if v != "" {
			rows = append(rows, [2]string{k, v})
		}
	}
	add("Workspace", s.Workspace)
	add("Branch", s.GitBranch)
	add("Model", s.Model)
	if s.IsSubagent {
		add("Parent session", s.ParentSessionID.String())
	}
	if !s.Started.IsZero() {
		add("Time", s.Started.UTC().Format("2006-01-02 15:04:05Z")+" – "+s.Ended.UTC().Format("2006-01-02 15:04:05Z"))
	}
	events := fmt.Sprintf("%d", s.EventCount)
	if h.From > 0 || h.To != nil {
		to := "end"
		if h.To != nil {
			to = fmt.Sprint(*h.To)
		}
		events += fmt.Sprintf(" (exported: ordinals %d to %s)", h.From, to)
	}
	add("Events", events)
	add("Source", s.Source.Path)
	add("Source root", s.Source.Root)
	add("Generation", fmt.Sprintf("%d (%s)", h.Generation.Number, h.Generation.ID))
	add("Exported", h.Exported.Format("2006-01-02 15:04:05Z")+" by "+h.Exporter)
	return rows
}

func (m *markdownWriter) event(e *core.Event) error {
	head := label(e)
	if isOutput(e) {
		head = "↳ " + head
	}
	meta := []string{}
	if t := stamp(e); t != "" {
		meta = append(meta, t)
	}
	if e.ExitCode != nil {
		meta = append(meta, fmt.Sprintf("exit %d", *e.ExitCode))
	}
	if e.IsError {
		meta = append(meta, "error")
	}
	suffix := ""
	if len(meta) > 0 {
		suffix = " · " + strings.Join(meta, " · ")
	}
	switch e.Type.Class() {
	case core.ClassMessage, core.ClassSummary:
		fmt.Fprintf(m.w, "### %s%s\n\n%s\n\n", mdCell(head), suffix, mdText(strings.TrimSpace(body(e))))
	case core.ClassCall:
		fmt.Fprintf(m.w, "**%s**%s\n\n", mdCell(head), suffix)
		if b := body(e); b != "" {
			m.code("", b)
		}
	case core.ClassOutput:
		fmt.Fprintf(m.w, "**%s**%s\n\n", mdCell(head), suffix)
		if b := body(e); b != "" {
			shown, note := clip(b, m.clip)
			m.code("text", shown)
			if note != "" {
				fmt.Fprintf(m.w, "_%s_\n\n", note)
			}
		}
	default:
		fmt.Fprintf(m.w, "_%s%s_: %s\n\n", mdCell(head), suffix, mdCell(body(e)))
	}
	for i := range e.Files {
		m.file(&e.Files[i])
	}
	return nil
}

func (m *markdownWriter) file(f *core.FileTouch) {
	if d := diffLines(f); d != "" {
		fmt.Fprintf(m.w, "%s `%s`:\n\n", f.Op, strings.ReplaceAll(mdCell(f.Path), "`", "'"))
		shown, note := clip(clean(d), m.clip)
		m.code("diff", shown)
		if note != "" {
			fmt.Fprintf(m.w, "_%s_\n\n", note)
		}
	}
}

func (m *markdownWriter) end(n int) error {
	fmt.Fprintf(m.w, "---\n\n_%d events exported._\n", n)
	return m.w.Flush()
}
