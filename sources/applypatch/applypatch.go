// Package applypatch reads the apply_patch envelope that Codex, OpenCode and
// Cline/Roo/Kilo edits are written in:
//
//	*** Begin Patch
//	*** Add File: path       → core.OpCreate, NewText = its "+" lines
//	*** Update File: path    → core.OpPatch, Patch = its hunks
//	*** Move to: path        → the update becomes core.OpMove with MovedTo
//	*** Delete File: path    → core.OpDelete
//	*** End Patch
//
// Every provider reports the same file touches for the same patch, which is
// what blame matches lines against.
package applypatch

import (
	"strings"

	"ctx/core"
)

const (
	beginPatch = "*** Begin Patch"
	endPatch   = "*** End Patch"
	updateFile = "*** Update File: "
	addFile    = "*** Add File: "
	deleteFile = "*** Delete File: "
	moveToFile = "*** Move to: "
)

// Parse lists the files of an apply_patch text, each with its own hunk text
// (lines joined by "\n"); added files also get their content. resolve maps
// a header path to the path to record (nil keeps it trimmed); a file whose
// path resolves to "" is dropped.
func Parse(text string, resolve func(string) string) []core.FileTouch {
	if resolve == nil {
		resolve = strings.TrimSpace
	}
	p := &parser{resolve: resolve}
	for _, ln := range strings.Split(text, "\n") {
		p.line(strings.TrimSuffix(ln, "\r"))
	}
	p.flush()
	return p.out
}

type parser struct {
	resolve func(string) string
	out     []core.FileTouch
	cur     *core.FileTouch
	body    []string
}

func (p *parser) line(ln string) {
	switch {
	case strings.HasPrefix(ln, addFile):
		p.start(ln[len(addFile):], core.OpCreate)
	case strings.HasPrefix(ln, updateFile):
		p.start(ln[len(updateFile):], core.OpPatch)
	case strings.HasPrefix(ln, deleteFile):
		p.start(ln[len(deleteFile):], core.OpDelete)
	case strings.HasPrefix(ln, moveToFile) && p.cur != nil:
		p.cur.Op, p.cur.MovedTo = core.OpMove, p.resolve(ln[len(moveToFile):])
	case strings.TrimSpace(ln) == beginPatch:
	case strings.HasPrefix(ln, endPatch):
		p.flush()
	case p.cur != nil:
		p.body = append(p.body, ln)
	}
}

func (p *parser) start(path, op string) {
	p.flush()
	if path = p.resolve(path); path != "" {
		p.cur = &core.FileTouch{Path: path, Op: op}
	}
}

func (p *parser) flush() {
	if p.cur != nil {
		p.cur.Patch = strings.Join(p.body, "\n")
		if p.cur.Op == core.OpCreate {
			p.cur.NewText = addedText(p.body)
		}
		p.out = append(p.out, *p.cur)
	}
	p.cur, p.body = nil, nil
}

// addedText is an added file's content: its "+" lines without the marker,
// each ending in a newline.
func addedText(body []string) string {
	var b strings.Builder
	for _, ln := range body {
		if rest, ok := strings.CutPrefix(ln, "+"); ok {
			b.WriteString(rest)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Extract cuts an apply_patch envelope out of a larger text (a here-doc
// shell script); "" when there is none. A missing end marker keeps the rest.
func Extract(text string) string {
	i := strings.Index(text, beginPatch)
	if i < 0 {
		return ""
	}
	s := text[i:]
	if j := strings.Index(s, endPatch); j >= 0 {
		return s[:j+len(endPatch)]
	}
	return s
}
