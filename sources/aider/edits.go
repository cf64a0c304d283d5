package aider

import (
	"strings"

	"ctx/core"
)

// edit is one file edit found in a reply, with the name of its form.
type edit struct {
	tool  string
	touch core.FileTouch
}

// Edit forms, used as the tool name of the tool_call events.
const (
	toolSearchReplace = "search_replace"
	toolUnifiedDiff   = "udiff"
	toolWholeFile     = "whole_file"
)

// marker reports whether a trimmed line is a run of 5 to 9 of c followed by
// word (and, for SEARCH, an optional ">"): aider's tolerant markers.
func marker(line string, c byte, word string) bool {
	t := strings.TrimSpace(line)
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 5 || n > 9 {
		return false
	}
	rest := t[n:]
	if word == "" {
		return rest == ""
	}
	rest, ok := strings.CutPrefix(rest, " "+word)
	return ok && (rest == "" || (word == "SEARCH" && rest == ">"))
}

func isHead(l string) bool    { return marker(l, '<', "SEARCH") }
func isDivider(l string) bool { return marker(l, '=', "") }
func isUpdated(l string) bool { return marker(l, '>', "REPLACE") }

// searchReplace finds the SEARCH/REPLACE blocks of a reply. The file path
// is the nearest non-fence line among the three before the block's head
// (fence lines are skipped: "path\n```lang\n<<<<<<< SEARCH" and
// "```lang\npath\n<<<<<<< SEARCH" both occur); a block without one edits the
// previous block's file. An unterminated block ends the search.
func searchReplace(lines []string) []edit {
	var out []edit
	current := ""
	for i := 0; i < len(lines); i++ {
		if !isHead(lines[i]) {
			continue
		}
		path := blockPath(lines[max(0, i-3):i])
		if path == "" {
			path = current
		}
		div := i + 1
		for div < len(lines) && !isDivider(lines[div]) {
			div++
		}
		end := div + 1
		for end < len(lines) && !isUpdated(lines[end]) && !isDivider(lines[end]) {
			end++
		}
		if end >= len(lines) {
			break
		}
		if path != "" {
			current = path
			out = append(out, edit{tool: toolSearchReplace, touch: core.FileTouch{Path: path, Op: core.OpEdit,
				OldText: joinLines(lines[i+1 : div]), NewText: joinLines(lines[div+1 : end])}})
		}
		i = end
	}
	return out
}

// blockPath picks the file name from the lines before a block head, nearest
// first, continuing past fence lines only; a name with an extension wins.
func blockPath(before []string) string {
	var names []string
	for i := len(before) - 1; i >= 0; i-- {
		l := before[i]
		if name := stripName(l); name != "" {
			names = append(names, name)
		}
		if !strings.HasPrefix(l, "```") {
			break
		}
	}
	for _, n := range names {
		if strings.Contains(n, ".") {
			return n
		}
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// stripName cleans a file name line: "```path.ext" yields the path, other
// fence lines nothing; decoration (#, `, *, a trailing colon) is removed.
func stripName(l string) string {
	l = strings.TrimSpace(l)
	if l == "..." || isHead(l) || isDivider(l) || isUpdated(l) {
		return ""
	}
	if strings.HasPrefix(l, "```") {
		c := strings.TrimLeft(l, "`")
		if c != "" && strings.ContainsAny(c, "./") {
			return c
		}
		return ""
	}
	l = strings.TrimRight(l, ":")
	l = strings.TrimSpace(strings.TrimLeft(l, "#"))
	return strings.Trim(l, "`*")
}

// joinLines joins lines with a newline after each, as they were in the file.
func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// fence returns the backtick run opening a fenced block, or "".
func fence(l string) string {
	t := strings.TrimSpace(l)
	n := 0
	for n < len(t) && t[n] == '`' {
		n++
	}
	if n < 3 {
		return ""
	}
	return t[:n]
}

// unifiedDiffs finds the ```diff blocks of a udiff-format reply; each file
// section ("--- a", "+++ b", hunks) becomes a patch touch. "+++ /dev/null"
// is a deletion.
func unifiedDiffs(lines []string) []edit {
	var out []edit
	for i := 0; i < len(lines); i++ {
		f := fence(lines[i])
		if f == "" || !strings.HasPrefix(strings.TrimSpace(lines[i])[len(f):], "diff") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != f {
			end++
		}
		out = append(out, diffFiles(lines[i+1:min(end, len(lines))])...)
		i = end
	}
	return out
}

func diffFiles(lines []string) []edit {
	var out []edit
	for i := 0; i+1 < len(lines); i++ {
		from, ok1 := strings.CutPrefix(lines[i], "--- ")
		to, ok2 := strings.CutPrefix(lines[i+1], "+++ ")
		if !ok1 || !ok2 {
			continue
		}
		end := i + 2
		for end+1 < len(lines) && !(strings.HasPrefix(lines[end], "--- ") && strings.HasPrefix(lines[end+1], "+++ ")) {
			end++
		}
		if end+1 >= len(lines) {
			end = len(lines)
		}
		touch := core.FileTouch{Path: diffPath(to), Op: core.OpPatch, Patch: joinLines(lines[i:end])}
		if touch.Path == "" {
			touch.Path, touch.Op = diffPath(from), core.OpDelete
		}
		if touch.Path != "" {
			out = append(out, edit{tool: toolUnifiedDiff, touch: touch})
		}
		i = end - 1
	}
	return out
}

// diffPath cleans a ---/+++ path: the timestamp after a tab and a/ b/
// prefixes go; /dev/null is no path.
func diffPath(p string) string {
	p, _, _ = strings.Cut(p, "\t")
	p = strings.TrimSpace(p)
	if p == "/dev/null" {
		return ""
	}
	if rest, ok := strings.CutPrefix(p, "a/"); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(p, "b/"); ok {
		return rest
	}
	return p
}

// wholeFiles finds the whole-file blocks of a whole-format reply: a file
// name line directly before a fence, the content up to the closing fence.
func wholeFiles(lines []string) []edit {
	var out []edit
	for i := 1; i < len(lines); i++ {
		f := fence(lines[i])
		if f == "" || fence(lines[i-1]) != "" {
			continue
		}
		// A name alone on its line: prose before a fence has spaces.
		name := stripName(lines[i-1])
		if name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != f {
			end++
		}
		if end >= len(lines) {
			break
		}
		out = append(out, edit{tool: toolWholeFile, touch: core.FileTouch{Path: name, Op: core.OpWrite,
			NewText: joinLines(lines[i+1 : end])}})
		i = end
	}
	return out
}
