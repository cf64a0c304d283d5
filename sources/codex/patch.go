package codex

import (
	"strings"

	"ctx/core"
)

// apply_patch envelope and file headers.
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchUpdate = "*** Update File: "
	patchAdd    = "*** Add File: "
	patchDelete = "*** Delete File: "
	patchMove   = "*** Move to: "
)

// parsePatch lists the files of an apply_patch text, each with its own hunk
// text; added files also get their content.
func parsePatch(patch string) []core.FileTouch {
	var out []core.FileTouch
	var cur *core.FileTouch
	var body []string
	flush := func() {
		if cur != nil {
			cur.Patch = strings.Join(body, "\n")
			if cur.Op == core.OpCreate {
				cur.NewText = addedText(body)
			}
			out = append(out, *cur)
		}
		cur, body = nil, nil
	}
	start := func(path, op string) {
		flush()
		cur = &core.FileTouch{Path: strings.TrimSpace(path), Op: op}
	}
	for _, ln := range strings.Split(patch, "\n") {
		ln = strings.TrimSuffix(ln, "\r")
		switch {
		case strings.HasPrefix(ln, patchUpdate):
			start(ln[len(patchUpdate):], core.OpPatch)
		case strings.HasPrefix(ln, patchAdd):
			start(ln[len(patchAdd):], core.OpCreate)
		case strings.HasPrefix(ln, patchDelete):
			start(ln[len(patchDelete):], core.OpDelete)
		case strings.HasPrefix(ln, patchMove) && cur != nil:
			cur.MovedTo = strings.TrimSpace(ln[len(patchMove):])
		case strings.TrimSpace(ln) == patchBegin:
		case strings.TrimSpace(ln) == patchEnd:
			flush()
		case cur != nil:
			body = append(body, ln)
		}
	}
	flush()
	return out
}

// addedText is the content of an added file: its "+" lines without the
// marker, each ending in a newline.
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

// extractPatch cuts the patch out of a here-doc shell script.
func extractPatch(script string) string {
	i := strings.Index(script, patchBegin)
	if i < 0 {
		return ""
	}
	s := script[i:]
	if j := strings.Index(s, patchEnd); j >= 0 {
		return s[:j+len(patchEnd)]
	}
	return s
}
