package cline

import (
	"strings"

	"ctx/core"
)

// diffEdits turns a replace_in_file / apply_diff diff into one edit per
// SEARCH/REPLACE block; a diff without blocks is kept as a patch.
func diffEdits(path, diff string) []core.FileTouch {
	if path == "" {
		return nil
	}
	blocks := searchReplace(diff)
	if len(blocks) == 0 {
		if strings.TrimSpace(diff) == "" {
			return nil
		}
		return []core.FileTouch{{Path: path, Op: core.OpPatch, Patch: diff}}
	}
	out := make([]core.FileTouch, len(blocks))
	for i, bl := range blocks {
		out[i] = core.FileTouch{Path: path, Op: core.OpEdit, OldText: bl[0], NewText: bl[1]}
	}
	return out
}

// searchReplace parses SEARCH/REPLACE blocks in the forms the extensions
// write: Cline's "------- SEARCH\n…\n=======\n…\n+++++++ REPLACE", the older
// "<<<<<<< SEARCH … >>>>>>> REPLACE", and Roo's apply_diff, whose search part
// opens with ":start_line:N" (":end_line:N") and a "-------" line.
func searchReplace(diff string) [][2]string {
	var out [][2]string
	var old, cur strings.Builder
	state, meta := 0, false // 0 outside, 1 search part, 2 replace part
	for _, line := range strings.SplitAfter(diff, "\n") {
		t := strings.TrimRight(line, " \t\r\n")
		switch {
		case state == 0 && isMarker(t, "-<", "SEARCH"):
			state, meta = 1, true
			old.Reset()
		case state == 1 && meta && (strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:") || t == "-------"):
		case state == 1 && isSeparator(t):
			state = 2
			cur.Reset()
		case state == 1:
			meta = false
			old.WriteString(line)
		case state == 2 && isMarker(t, "+>", "REPLACE"):
			out = append(out, [2]string{trimNL(old.String()), trimNL(cur.String())})
			state = 0
		case state == 2:
			cur.WriteString(line)
		}
	}
	return out
}

// isMarker matches a line of three or more of the fence runes followed by
// the word ("------- SEARCH", "<<<<<<< SEARCH", "+++++++ REPLACE").
func isMarker(t, fence, word string) bool {
	t = strings.TrimRight(strings.TrimLeft(t, " "), "<>")
	rest, ok := strings.CutSuffix(t, word)
	if !ok {
		return false
	}
	rest = strings.TrimRight(rest, " ")
	return len(rest) >= 3 && strings.Trim(rest, fence) == ""
}

func isSeparator(t string) bool {
	return len(t) >= 3 && strings.Trim(t, "=") == ""
}

func trimNL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}
