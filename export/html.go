package export

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strings"

	"ctx/core"
)

// style is the page's only styling: inline, so the file needs nothing
// else; no script at all.
const style = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
table.meta td{padding:.1rem .6rem;vertical-align:top}table.meta td:first-child{color:#59636e}
.ev{margin:1rem 0;padding:.5rem .8rem;border-left:3px solid #d1d9e0}
.user{border-color:#0969da;background:#f6f8fa}.assistant{border-color:#1a7f37}
.call,.output{border-color:#9a6700;font-size:14px}.other{color:#59636e;font-size:13px}
.h{font-weight:600}.t{color:#59636e;font-weight:400;font-size:13px}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:.5rem;margin:.3rem 0}
.add{color:#1a7f37}.del{color:#cf222e}.clip{color:#59636e;font-style:italic}
summary{cursor:pointer}`

type htmlWriter struct {
	w    *bufio.Writer
	clip int
}

func newHTML(w io.Writer, clip int) *htmlWriter {
	return &htmlWriter{w: bufio.NewWriterSize(w, 64<<10), clip: clip}
}

func esc(s string) string { return html.EscapeString(clean(s)) }

func (h *htmlWriter) begin(hd *Header) error {
	s := &hd.Session
	title := hd.Title
	if title == "" {
		title = "Session " + s.ID.String()
	}
	fmt.Fprintf(h.w, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"+
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>%s</style></head>\n<body>\n",
		esc(oneLine(title)), style)
	fmt.Fprintf(h.w, "<h1>%s</h1>\n<table class=\"meta\">\n", esc(oneLine(title)))
	for _, kv := range headerRows(hd) {
		fmt.Fprintf(h.w, "<tr><td>%s</td><td>%s</td></tr>\n", esc(kv[0]), esc(kv[1]))
	}
	fmt.Fprint(h.w, "</table>\n<hr>\n")
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (h *htmlWriter) event(e *core.Event) error {
	class := "other"
	switch e.Type.Class() {
	case core.ClassMessage, core.ClassSummary:
		class = "assistant"
		if e.Role == core.RoleUser {
			class = "user"
		}
	case core.ClassCall:
		class = "call"
	case core.ClassOutput:
		class = "output"
	}
	meta := stamp(e)
	if e.ExitCode != nil {
		meta += fmt.Sprintf(" · exit %d", *e.ExitCode)
	}
	if e.IsError {
		meta += " · error"
	}
	fmt.Fprintf(h.w, "<div class=\"ev %s\" id=\"e%d\"><div class=\"h\">%s <span class=\"t\">%s</span></div>\n",
		class, e.Ordinal, esc(label(e)), esc(meta))
	b := body(e)
	switch class {
	case "output":
		shown, note := clip(b, h.clip)
		if b != "" {
			fmt.Fprintf(h.w, "<details><summary>%s</summary><pre>%s</pre>", esc(plural(strings.Count(b, "\n")+1, "line")),
				esc(shown))
			if note != "" {
				fmt.Fprintf(h.w, "<div class=\"clip\">%s</div>", esc(note))
			}
			fmt.Fprint(h.w, "</details>\n")
		}
	case "call":
		if b != "" {
			fmt.Fprintf(h.w, "<pre>%s</pre>\n", esc(b))
		}
	default:
		if b != "" {
			fmt.Fprintf(h.w, "<pre>%s</pre>\n", esc(strings.TrimSpace(b)))
		}
	}
	for i := range e.Files {
		h.file(&e.Files[i])
	}
	fmt.Fprint(h.w, "</div>\n")
	return nil
}

func (h *htmlWriter) file(f *core.FileTouch) {
	d := diffLines(f)
	if d == "" {
		return
	}
	shown, note := clip(clean(d), h.clip)
	fmt.Fprintf(h.w, "<div>%s <code>%s</code></div><pre class=\"diff\">", esc(f.Op), esc(f.Path))
	for _, l := range strings.SplitAfter(shown, "\n") {
		cls := ""
		switch {
		case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
			cls = "add"
		case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
			cls = "del"
		}
		if cls == "" {
			fmt.Fprint(h.w, html.EscapeString(l))
		} else {
			fmt.Fprintf(h.w, "<span class=\"%s\">%s</span>", cls, html.EscapeString(l))
		}
	}
	fmt.Fprint(h.w, "</pre>\n")
	if note != "" {
		fmt.Fprintf(h.w, "<div class=\"clip\">%s</div>\n", esc(note))
	}
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}

func (h *htmlWriter) end(n int) error {
	fmt.Fprintf(h.w, "<hr><p class=\"t\">%s exported.</p>\n</body></html>\n", esc(plural(n, "event")))
	return h.w.Flush()
}
