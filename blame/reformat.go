package blame

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Bounds of carrying through a reformatting commit.
const (
	maxReformatFiles = 200    // files blamed in the parent for one commit
	maxReformatLines = 20_000 // removed lines blamed for one commit
)

// carryReformatted carries the evidence of lines a commit re-formatted:
// a diff hunk whose removed and added lines join to the same text once
// whitespace, quote style and trailing separators are set aside (a
// formatter that re-wraps, re-quotes or re-spaces, run in a commit of its
// own). git blame -w passes a line through a commit that only re-spaced
// it, not one that re-wrapped it: the re-wrapped lines are blamed on this
// commit, so their evidence is written into its note. The removed lines'
// evidence is where git blame of the parent (with FollowFlags) finds their
// records; each added line takes the evidence of the removed text it
// matches (the matcher's passes, with the removed lines as what was
// written), and its kind is the looser of that match and the original
// record's. Lines already attributed (matched) are left alone; a hunk
// that only re-spaced lines one for one is left to git blame -w; a merge
// carries nothing this way.
func carryReformatted(ctx context.Context, repo *Repo, c *CommitInfo, added *Added, matched *Note,
	logf func(string, ...any)) (*Note, error) {
	if len(c.Parents) != 1 || len(added.hunks) == 0 {
		return nil, nil
	}
	have := map[string]map[int]bool{}
	for _, r := range matched.Records {
		if r.File == nil {
			continue
		}
		if have[*r.File] == nil {
			have[*r.File] = map[int]bool{}
		}
		for _, rg := range r.Lines {
			for n := rg[0]; n <= rg[1]; n++ {
				have[*r.File][n] = true
			}
		}
	}
	type cand struct {
		path string
		h    *diffHunk
	}
	var cands []cand
	byOld := map[string][]*diffHunk{}
	lines := 0
	paths := make([]string, 0, len(added.hunks))
	for p := range added.hunks {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if added.Binary[p] {
			continue
		}
		for i := range added.hunks[p] {
			h := &added.hunks[p][i]
			if !reformatted(h, have[p]) {
				continue
			}
			if len(byOld[h.oldPath]) == 0 && len(byOld) >= maxReformatFiles || lines+len(h.removed) > maxReformatLines {
				logf("commit %s: more re-formatted lines than carried (%d files, %d lines)", short(c.ID), len(byOld), lines)
				break
			}
			lines += len(h.removed)
			cands = append(cands, cand{p, h})
			byOld[h.oldPath] = append(byOld[h.oldPath], h)
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	// The parent's blame of the removed lines: one git blame per old path.
	origin := map[string]map[int]BlamedLine{}
	commits := map[string]bool{}
	for old, hs := range byOld {
		args := append([]string{"blame", "--porcelain"}, FollowFlags...)
		for _, h := range hs {
			args = append(args, "-L", fmt.Sprintf("%d,+%d", h.oldStart, len(h.removed)))
		}
		out, err := repo.Git(ctx, append(args, c.Parent, "--", old)...)
		if err != nil {
			logf("commit %s: %s not blamed in the parent: %v", short(c.ID), old, err)
			continue
		}
		origin[old] = map[int]BlamedLine{}
		for _, bl := range parsePorcelain(out) {
			if bl.Commit != zeroCommit && !bl.Boundary {
				origin[old][bl.Line] = bl
				commits[bl.Commit] = true
			}
		}
	}
	ids := make([]string, 0, len(commits))
	for id := range commits {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	notes, _, err := repo.readNotes(ctx, ids)
	if err != nil {
		return nil, err
	}
	// Each hunk's removed lines become runs "written" by the evidence
	// their records name: one Written per new path.
	type evKey struct{ session, events string }
	out := &Note{}
	for _, p := range paths {
		w := &Written{Files: map[string][]Hunk{}}
		evAt := map[evKey]int{}
		kindOf := map[evKey]string{}
		a := &Added{Files: map[string][]Line{}}
		for _, cd := range cands {
			if cd.path != p {
				continue
			}
			h := cd.h
			runs := map[int]*Hunk{} // open run per event index
			for k, text := range h.removed {
				bl, ok := origin[h.oldPath][h.oldStart+k]
				open := map[int]bool{}
				if ok {
					for _, r := range notes[bl.Commit].recordsAt(bl.OrigPath, bl.OrigLine) {
						key := evKey{r.CtxSessionID, strings.Join(r.CtxEventIDs, ",")}
						ev, seen := evAt[key]
						if !seen {
							ev = len(w.Events)
							evAt[key] = ev
							w.Events = append(w.Events, EvRef{SessionID: r.CtxSessionID, EventID: key.events,
								Provider: r.Provider, Native: r.NativeSessionID})
							kindOf[key] = r.Match
						}
						if kindRank[r.Match] > kindRank[kindOf[key]] {
							kindOf[key] = r.Match
						}
						if runs[ev] == nil {
							runs[ev] = &Hunk{Ev: ev}
						}
						runs[ev].Lines = append(runs[ev].Lines, text)
						open[ev] = true
					}
				}
				for _, ev := range sortedKeys(runs) { // a run ends where its evidence does
					if !open[ev] {
						w.Files[p] = append(w.Files[p], *runs[ev])
						delete(runs, ev)
					}
				}
			}
			for _, ev := range sortedKeys(runs) {
				w.Files[p] = append(w.Files[p], *runs[ev])
			}
			for _, l := range h.added {
				if !have[p][l.N] {
					a.Files[p] = append(a.Files[p], l)
				}
			}
		}
		if len(w.Files[p]) == 0 {
			continue
		}
		for _, r := range Match(a, w).Records {
			if r.File == nil {
				continue
			}
			var evIDs []string
			kind := r.Match
			for _, joined := range r.CtxEventIDs {
				key := evKey{r.CtxSessionID, joined}
				if kindRank[kindOf[key]] > kindRank[kind] {
					kind = kindOf[key]
				}
				for _, id := range strings.Split(joined, ",") {
					if id != "" && !slices.Contains(evIDs, id) {
						evIDs = append(evIDs, id)
					}
				}
			}
			slices.Sort(evIDs)
			r.CtxEventIDs, r.Match = evIDs, kind
			out.Records = append(out.Records, r)
		}
	}
	return out, nil
}

// reformatted reports whether hunk h replaced lines with the same text
// re-formatted (their skeletons are equal), some of its added lines not
// attributed yet (have), and not merely re-spaced one line for one (git
// blame -w follows those). The matcher then decides line by line.
func reformatted(h *diffHunk, have map[int]bool) bool {
	if len(h.removed) == 0 || len(h.added) == 0 || h.oldPath == "" {
		return false
	}
	open := false
	for _, l := range h.added {
		open = open || !have[l.N]
	}
	if !open {
		return false
	}
	if len(h.removed) == len(h.added) {
		respaced := true
		for i, l := range h.added {
			a, b := keysOf(strings.TrimSpace(l.Text)), keysOf(strings.TrimSpace(h.removed[i]))
			respaced = respaced && a.at(levelWhitespace) == b.at(levelWhitespace)
		}
		if respaced {
			return false
		}
	}
	var a, b strings.Builder
	for _, l := range h.added {
		skeleton(&a, l.Text)
	}
	for _, l := range h.removed {
		skeleton(&b, l)
	}
	return a.Len() >= minRewrap && a.String() == b.String()
}

// skeleton writes s without what formatters change: whitespace, quotes,
// and the separators they add or drop (semicolons, commas).
func skeleton(b *strings.Builder, s string) {
	for _, r := range s {
		if unicode.IsSpace(r) || strings.ContainsRune("'\"`;,", r) {
			continue
		}
		b.WriteRune(r)
	}
}

// recordsAt returns the line records of n that hold line of path (none
// for a nil note).
func (n *Note) recordsAt(path string, line int) []Record {
	if n == nil {
		return nil
	}
	var out []Record
	for _, r := range n.Records {
		if r.File != nil && *r.File == path && r.Match != MatchSessionActive && r.Covers(line) {
			out = append(out, r)
		}
	}
	return out
}

func sortedKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
