package corpus

import "strconv"

// Code line templates. Placeholders: %i identifier, %w word, %n number,
// %p path. Indentation is added by the caller.
var goTemplates = []string{
	"func (s *%i) %i(ctx context.Context, %i %i) error {",
	"if err := %i.%i(ctx); err != nil {",
	"return fmt.Errorf(\"%w %w: %%w\", err)",
	"}",
	"%i := %i{%i: %i}",
	"// %i %w the %w %w before %w.",
	"const %i = %n",
	"for _, %i := range %i.%i {",
	"%i.%i = append(%i.%i, %i)",
	"return %i, nil",
	"type %i struct {",
	"%i %i `json:\"%w\"`",
	"if len(%i) > %n {",
	"defer %i.Close()",
	"mu.Lock()",
	"t.Fatalf(\"%i() = %v, want %v\", got, want)",
}

var pyTemplates = []string{
	"def %i(self, %i, %i=None):",
	"if %i is None:",
	"return self.%i(%i)",
	"raise ValueError(f\"%w %w: {%i}\")",
	"for %i in %i.%i:",
	"%i = %i.get(\"%w\", %n)",
	"# %w the %w %w",
	"class %i(%i):",
	"assert %i == %i",
	"with open(%i) as fh:",
	"import %w",
	"logger.info(\"%w %w %s\", %i)",
}

var tsTemplates = []string{
	"export function %i(%i: %i): %i {",
	"const %i = await %i.%i(%i);",
	"if (!%i) {",
	"return %i;",
	"}",
	"// %w %w %w",
	"export const %i = %n;",
	"import { %i } from \"./%i\";",
	"expect(%i).toEqual(%i);",
	"for (const %i of %i) {",
	"throw new Error(`%w %w: ${%i}`);",
	"%i.%i = { ...%i, %i };",
}

func (g *gen) templates() []string {
	switch g.ws.lang {
	case "py":
		return pyTemplates
	case "ts":
		return tsTemplates
	}
	return goTemplates
}

// codeLine appends one line of code in the workspace's language.
func (g *gen) codeLine(b []byte) []byte {
	indent := "\t"
	switch g.ws.lang {
	case "py":
		indent = "    "
	case "ts":
		indent = "  "
	}
	for range g.r.IntN(3) {
		b = append(b, indent...)
	}
	return g.expand(b, pick(g.r, g.templates()))
}

// expand expands a code template: %i an identifier, %w a word, %n a
// number, %p a path, %% a percent sign.
func (g *gen) expand(b []byte, t string) []byte {
	return fill(b, t, func(b []byte, c byte) []byte {
		switch c {
		case 'i':
			b = append(b, g.ident()...)
		case 'w':
			b = append(b, g.word()...)
		case 'n':
			b = append(b, g.number()...)
		case 'p':
			b = append(b, g.rel()...)
		case '%':
			b = append(b, '%')
		default:
			b = append(b, '%', c)
		}
		return b
	})
}

// fill expands the placeholders of a template, % and a letter, each as
// place appends it; a % that ends the template stays as it is.
func fill(b []byte, t string, place func(b []byte, c byte) []byte) []byte {
	for i := 0; i < len(t); i++ {
		if t[i] != '%' || i+1 == len(t) {
			b = append(b, t[i])
			continue
		}
		i++
		b = place(b, t[i])
	}
	return b
}

// code appends about n bytes of code lines.
func (g *gen) code(b []byte, n int) []byte {
	start := len(b)
	for len(b)-start < n {
		b = g.codeLine(b)
		b = append(b, '\n')
	}
	return b
}

// codeLines returns k lines of code.
func (g *gen) codeLines(k int) []string {
	out := make([]string, k)
	for i := range out {
		out[i] = string(g.codeLine(g.buf[:0]))
	}
	return out
}

// edit is one replacement in a file, with the context around it.
type edit struct {
	rel      string
	old, new []string
	before   []string // context lines before the change
	after    []string // context lines after the change
	line     int      // 1-based line of the first context line
}

func (g *gen) makeEdit() edit {
	e := edit{rel: g.rel(), line: g.between(5, 400)}
	e.before = g.codeLines(g.between(1, 3))
	e.old = g.codeLines(g.between(1, 4))
	e.new = append([]string(nil), e.old...)
	e.new[g.r.IntN(len(e.new))] = string(g.codeLine(g.buf[:0]))
	if g.chance(50) {
		e.new = append(e.new, string(g.codeLine(g.buf[:0])))
	}
	e.after = g.codeLines(g.between(1, 3))
	return e
}

func joinLines(lines []string) string {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, l...)
	}
	return string(b)
}

// hunkLines are the lines of a unified diff hunk (" ctx", "-old", "+new").
func (e edit) hunkLines() []string {
	out := make([]string, 0, len(e.before)+len(e.old)+len(e.new)+len(e.after))
	for _, l := range e.before {
		out = append(out, " "+l)
	}
	for _, l := range e.old {
		out = append(out, "-"+l)
	}
	for _, l := range e.new {
		out = append(out, "+"+l)
	}
	for _, l := range e.after {
		out = append(out, " "+l)
	}
	return out
}

func (e edit) oldLines() int { return len(e.before) + len(e.old) + len(e.after) }
func (e edit) newLines() int { return len(e.before) + len(e.new) + len(e.after) }

// hunkHeader appends "@@ -a,b +c,d @@".
func (e edit) hunkHeader(b []byte) []byte {
	b = append(b, "@@ -"...)
	b = strconv.AppendInt(b, int64(e.line), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(e.oldLines()), 10)
	b = append(b, " +"...)
	b = strconv.AppendInt(b, int64(e.line), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(e.newLines()), 10)
	return append(b, " @@"...)
}

// gitDiff appends a git diff of e.
func (g *gen) gitDiff(b []byte, e edit) []byte {
	b = append(b, "diff --git a/"...)
	b = append(b, e.rel...)
	b = append(b, " b/"...)
	b = append(b, e.rel...)
	b = append(b, "\nindex "...)
	b = append(b, g.sha()...)
	b = append(b, ".."...)
	b = append(b, g.sha()...)
	b = append(b, " 100644\n--- a/"...)
	b = append(b, e.rel...)
	b = append(b, "\n+++ b/"...)
	b = append(b, e.rel...)
	b = append(b, '\n')
	b = e.hunkHeader(b)
	b = append(b, '\n')
	for _, l := range e.hunkLines() {
		b = append(b, l...)
		b = append(b, '\n')
	}
	return b
}

// applyPatch appends a Codex apply_patch body updating or adding files.
func (g *gen) applyPatch(b []byte) ([]byte, []string) {
	b = append(b, "*** Begin Patch\n"...)
	var summary []string
	for range g.between(1, 2) {
		if g.chance(20) {
			rel := g.rel()
			b = append(b, "*** Add File: "...)
			b = append(b, rel...)
			b = append(b, '\n')
			for _, l := range g.codeLines(g.between(3, 25)) {
				b = append(append(append(b, '+'), l...), '\n')
			}
			summary = append(summary, "A "+rel)
			continue
		}
		e := g.makeEdit()
		b = append(b, "*** Update File: "...)
		b = append(b, e.rel...)
		b = append(b, "\n@@\n"...)
		for _, l := range e.hunkLines() {
			b = append(append(b, l...), '\n')
		}
		summary = append(summary, "M "+e.rel)
	}
	return append(b, "*** End Patch"...), summary
}
