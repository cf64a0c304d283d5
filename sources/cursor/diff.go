package cursor

import (
	"encoding/json"
	"strconv"
	"strings"
)

// diffLine is one line of additionalData.precomputedDiff: type added,
// removed or unchanged, with its line numbers in the old and new file.
type diffLine struct {
	Type string `json:"type"`
	Text string `json:"content"`
	Old  int    `json:"originalLineNumber"`
	New  int    `json:"modifiedLineNumber"`
}

// diffLines reads the precomputed diff of a tool call's additional data.
func diffLines(additional json.RawMessage) []diffLine {
	var ad struct {
		Diff struct {
			Lines []diffLine `json:"lines"`
		} `json:"precomputedDiff"`
	}
	if json.Unmarshal(embedded(additional), &ad) != nil {
		return nil
	}
	return ad.Diff.Lines
}

// hunk is a run of diff lines without a gap.
type hunk struct {
	oldStart, newStart int
	oldCount, newCount int
	body               strings.Builder
}

func (h *hunk) add(mark byte, text string) {
	h.body.WriteByte(mark)
	h.body.WriteString(text)
	h.body.WriteByte('\n')
	if mark != '+' {
		h.oldCount++
	}
	if mark != '-' {
		h.newCount++
	}
}

func (h *hunk) header() string {
	o, n := h.oldStart, h.newStart
	if h.oldCount == 0 {
		o-- // unified diffs name the line before an empty range
	}
	if h.newCount == 0 {
		n--
	}
	return "@@ -" + strconv.Itoa(o) + "," + strconv.Itoa(h.oldCount) +
		" +" + strconv.Itoa(n) + "," + strconv.Itoa(h.newCount) + " @@\n"
}

// marks are the unified diff marks of the diff line types.
var marks = map[string]byte{"added": '+', "removed": '-', "unchanged": ' '}

// unifiedPatch renders diff lines as a unified diff of path. A jump in the
// line numbers (unchanged lines left out) starts a new hunk.
func unifiedPatch(path string, lines []diffLine) string {
	var hunks []*hunk
	var cur *hunk
	oldNo, newNo := 1, 1
	for _, l := range lines {
		mark, ok := marks[l.Type]
		if !ok {
			continue
		}
		delta := 0
		if l.Old > 0 && mark != '+' {
			delta = l.Old - oldNo
		} else if l.New > 0 && mark != '-' {
			delta = l.New - newNo
		}
		if cur == nil || delta != 0 {
			oldNo, newNo = max(oldNo+delta, 1), max(newNo+delta, 1)
			cur = &hunk{oldStart: oldNo, newStart: newNo}
			hunks = append(hunks, cur)
		}
		cur.add(mark, l.Text)
		if mark != '+' {
			oldNo++
		}
		if mark != '-' {
			newNo++
		}
	}
	if len(hunks) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("--- " + path + "\n+++ " + path + "\n")
	for _, h := range hunks {
		b.WriteString(h.header())
		b.WriteString(h.body.String())
	}
	return b.String()
}

// newSide rebuilds the new file from a diff that covers all of it: every
// added or unchanged line, numbered 1..n without a gap, and nothing removed.
func newSide(lines []diffLine) (string, bool) {
	var out []string
	for _, l := range lines {
		switch l.Type {
		case "added", "unchanged":
			if l.New != len(out)+1 {
				return "", false
			}
			out = append(out, l.Text)
		default:
			return "", false
		}
	}
	if len(out) == 0 {
		return "", false
	}
	return strings.Join(out, "\n"), true
}
