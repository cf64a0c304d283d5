package blame

import (
	"slices"
	"sort"
	"strings"
)

// Match attributes a commit's added lines to the events that wrote them and
// records sessions active with no matching line at commit level.
func Match(added *Added, w *Written) *Note {
	n := &Note{}
	lined := map[string]bool{}
	paths := make([]string, 0, len(added.Files))
	for p := range added.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		idx := w.Files[p]
		if idx == nil || added.Binary[p] {
			continue
		}
		for _, r := range fileRecords(p, added.Files[p], idx, w.Events) {
			lined[r.CtxSessionID] = true
			n.Records = append(n.Records, r)
		}
	}
	for _, s := range w.Active {
		if !lined[s.SessionID] {
			n.Records = append(n.Records, Record{CtxSessionID: s.SessionID, Provider: s.Provider,
				NativeSessionID: s.Native, Match: MatchSessionActive})
		}
	}
	return n
}

// fileRecords matches one file's added lines: non-trivial lines by text,
// then trivial lines when an adjacent added line was written by the same
// event, repeated until nothing changes. An event matches a text at most as
// often as it wrote it.
func fileRecords(path string, lines []Line, idx map[string][]int, evs []EvRef) []Record {
	assign := make([][]int, len(lines))
	keys := make([]string, len(lines))
	b := budget{idx: idx, left: map[string]map[int]int{}}
	for i, l := range lines {
		keys[i] = strings.TrimSpace(l.Text)
		if !trivial(keys[i]) {
			assign[i] = b.take(keys[i], idx[keys[i]])
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range lines {
			if len(assign[i]) > 0 || !trivial(keys[i]) || len(idx[keys[i]]) == 0 {
				continue
			}
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= len(lines) || lines[j].N-lines[i].N != j-i || len(assign[j]) == 0 {
					continue
				}
				if both := b.take(keys[i], intersect(assign[j], idx[keys[i]])); len(both) > 0 {
					assign[i], changed = both, true
					break
				}
			}
		}
	}
	return group(path, lines, assign, evs)
}

// budget counts, per text, how many more lines each event may match.
type budget struct {
	idx  map[string][]int
	left map[string]map[int]int
}

// take returns the distinct events of cands with matches left for key and
// spends one of each.
func (b *budget) take(key string, cands []int) []int {
	left := b.left[key]
	if left == nil {
		left = map[int]int{}
		for _, e := range b.idx[key] {
			left[e]++
		}
		b.left[key] = left
	}
	var out []int
	for _, e := range cands {
		if left[e] > 0 && !slices.Contains(out, e) {
			left[e]--
			out = append(out, e)
		}
	}
	return out
}

func intersect(a, b []int) []int {
	var out []int
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// group folds per-line events into one record per (session, event set).
func group(path string, lines []Line, assign [][]int, evs []EvRef) []Record {
	type acc struct {
		rec   Record
		lines []int
	}
	by := map[string]*acc{}
	var order []string
	for i, set := range assign {
		bySession := map[string][]string{}
		var sessions []string
		for _, e := range set {
			s := evs[e].SessionID
			if _, ok := bySession[s]; !ok {
				sessions = append(sessions, s)
			}
			bySession[s] = append(bySession[s], evs[e].EventID)
		}
		for _, s := range sessions {
			ids := bySession[s]
			slices.Sort(ids)
			k := s + "\x00" + strings.Join(ids, ",")
			a := by[k]
			if a == nil {
				e := evs[set[0]]
				for _, x := range set {
					if evs[x].SessionID == s {
						e = evs[x]
						break
					}
				}
				p := path
				a = &acc{rec: Record{File: &p, CtxSessionID: s, CtxEventIDs: ids, Provider: e.Provider,
					NativeSessionID: e.Native, Match: MatchExactLine}}
				by[k] = a
				order = append(order, k)
			}
			a.lines = append(a.lines, lines[i].N)
		}
	}
	out := make([]Record, 0, len(order))
	for _, k := range order {
		a := by[k]
		a.rec.Lines = ranges(a.lines)
		out = append(out, a.rec)
	}
	return out
}
