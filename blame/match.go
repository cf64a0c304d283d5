package blame

import (
	"slices"
	"sort"
	"strings"
)

// Bounds of the matcher's work on one file.
const (
	maxContext = 8       // neighbours compared on each side to place a line
	maxPairs   = 1 << 16 // line × occurrence pairs scored for one text; beyond, lines take occurrences in order
	maxRewrap  = 64      // lines joined on either side of one re-wrapped text
	minRewrap  = 8       // bytes of joined text a re-wrap match needs
	// maxRewrapTries bounds the re-wrap starts tried in one file (a
	// formatter that rewrote a large file nobody's agent wrote).
	maxRewrapTries = 1 << 16
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
		hunks := w.Files[p]
		if len(hunks) == 0 || added.Binary[p] {
			continue
		}
		m := newFileMatch(added.Files[p], added.Removed[p], hunks)
		m.run()
		for _, r := range m.records(p, w.Events) {
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

// occ is one occurrence of a written line: its hunk and place in it. Each
// occurrence attributes one committed line (a re-wrap: the lines it became),
// so an event matches a text at most as often as it wrote it.
type occ struct{ h, pos int }

// pick is one occurrence a committed line is attributed to.
type pick struct {
	occ
	kind string
}

// fileMatch attributes one file's added lines.
//
// Passes, each over the lines still unattributed: equal trimmed text,
// equal modulo whitespace, equal modulo formatting (quotes, trailing
// separators), a run of lines whose joined text equals the joined text of
// a run of written lines (a re-wrap), and last trivial lines next to a
// line the same event wrote. Within a pass, identical lines go to the
// occurrences whose neighbours in their hunk agree best with the line's
// neighbours in the commit, so two sessions writing the same text at two
// places each get their own. A normalised match is refused for a text the
// commit also removed from the file: a formatter re-spacing a line that
// was there before does not make it an agent's.
type fileMatch struct {
	lines  []Line
	keys   []lineKeys
	hunks  []Hunk
	hkeys  [][]lineKeys
	used   [][]bool
	assign [][]pick
	score  []int                    // positional score of a line's first pick
	veto   [nLevels]map[string]bool // keys of removed lines, levels above exact
	gone   string                   // removed runs joined, for re-wraps
}

func newFileMatch(lines []Line, removed [][]string, hunks []Hunk) *fileMatch {
	m := &fileMatch{lines: lines, hunks: hunks, keys: make([]lineKeys, len(lines)),
		hkeys: make([][]lineKeys, len(hunks)), used: make([][]bool, len(hunks)),
		assign: make([][]pick, len(lines)), score: make([]int, len(lines))}
	for i, l := range lines {
		m.keys[i] = keysOf(strings.TrimSpace(l.Text))
	}
	for h, hk := range hunks {
		m.hkeys[h] = make([]lineKeys, len(hk.Lines))
		m.used[h] = make([]bool, len(hk.Lines))
		for pos, l := range hk.Lines {
			m.hkeys[h][pos] = keysOf(l)
		}
	}
	var gone strings.Builder
	for lvl := levelWhitespace; lvl < nLevels; lvl++ {
		m.veto[lvl] = map[string]bool{}
	}
	for _, run := range removed {
		var b strings.Builder
		for _, l := range run {
			k := keysOf(strings.TrimSpace(l))
			for lvl := levelWhitespace; lvl < nLevels; lvl++ {
				m.veto[lvl][k.at(lvl)] = true
			}
			joinKeys(&b, quoteKey(k.at(levelWhitespace)))
		}
		gone.WriteString(finishKey(b.String()))
		gone.WriteByte('\n')
	}
	m.gone = gone.String()
	return m
}

func (m *fileMatch) run() {
	for lvl := levelExact; lvl < nLevels; lvl++ {
		m.pass(lvl)
	}
	m.rewrapPass()
	m.trivialPass()
}

// adjacent reports whether added lines i and j are neighbours in the file.
func (m *fileMatch) adjacent(i, j int) bool {
	return j >= 0 && j < len(m.lines) && m.lines[j].N-m.lines[i].N == j-i
}

func (m *fileMatch) ev(o occ) int { return m.hunks[o.h].Ev }

func (m *fileMatch) hasEvent(i, ev int) bool {
	for _, p := range m.assign[i] {
		if m.ev(p.occ) == ev {
			return true
		}
	}
	return false
}

func (m *fileMatch) take(i int, o occ, kind string, score int) {
	if len(m.assign[i]) == 0 {
		m.score[i] = score
	}
	m.assign[i] = append(m.assign[i], pick{o, kind})
	m.used[o.h][o.pos] = true
}

// place scores occurrence o for line i: how many neighbours on each side,
// up to maxContext, the line and the occurrence share (formatted keys).
func (m *fileMatch) place(i int, o occ) int {
	hk := m.hkeys[o.h]
	s := 0
	for d := 1; d <= maxContext; d++ {
		j, p := i-d, o.pos-d
		if p < 0 || !m.adjacent(i, j) || !near(&m.keys[j], &hk[p]) {
			break
		}
		s++
	}
	for d := 1; d <= maxContext; d++ {
		j, p := i+d, o.pos+d
		if p >= len(hk) || !m.adjacent(i, j) || !near(&m.keys[j], &hk[p]) {
			break
		}
		s++
	}
	return s
}

// pass attributes the non-trivial lines left whose key at lvl equals the
// key of an unused occurrence.
func (m *fileMatch) pass(lvl int) {
	idx := map[string][]occ{}
	for h, hk := range m.hkeys {
		for pos := range hk {
			if k := &hk[pos]; !m.used[h][pos] && !trivial(k.k[levelExact]) {
				idx[k.at(lvl)] = append(idx[k.at(lvl)], occ{h, pos})
			}
		}
	}
	if len(idx) == 0 {
		return
	}
	groups := map[string][]int{}
	var order []string
	for i := range m.lines {
		if len(m.assign[i]) > 0 || trivial(m.keys[i].k[levelExact]) {
			continue
		}
		k := m.keys[i].at(lvl)
		if len(idx[k]) == 0 || (lvl > levelExact && m.veto[lvl][k]) {
			continue
		}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		m.assignGroup(groups[k], idx[k], levelKind[lvl])
	}
}

// assignGroup gives lines of one text the occurrences of that text: the
// best placed pairs first, one occurrence per line; an occurrence left over
// then also names the line where it sits at least as well as the line's
// own (a line two events wrote cites both).
func (m *fileMatch) assignGroup(lines []int, occs []occ, kind string) {
	if len(lines)*len(occs) > maxPairs {
		k := 0
		for _, i := range lines {
			if k == len(occs) {
				return
			}
			m.take(i, occs[k], kind, 0)
			k++
		}
		return
	}
	type cand struct{ i, o, s int }
	cands := make([]cand, 0, len(lines)*len(occs))
	for _, i := range lines {
		for k, o := range occs {
			cands = append(cands, cand{i, k, m.place(i, o)})
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].s > cands[b].s })
	for _, c := range cands {
		if o := occs[c.o]; len(m.assign[c.i]) == 0 && !m.used[o.h][o.pos] {
			m.take(c.i, o, kind, c.s)
		}
	}
	for _, c := range cands {
		o := occs[c.o]
		if m.used[o.h][o.pos] || len(m.assign[c.i]) == 0 || c.s < m.score[c.i] || m.hasEvent(c.i, m.ev(o)) {
			continue
		}
		m.take(c.i, o, kind, c.s)
	}
}

// rewrapPass attributes runs of lines a formatter wrapped or joined: the
// committed lines i..j and the written lines a..b of one hunk make the
// same text once joined (formatted keys), at least one side has several
// lines, and the text is not one the commit removed from the file.
func (m *fileMatch) rewrapPass() {
	// Written lines by their first two bytes (all), their first four (those
	// as long) and their whole text (those shorter): a committed line finds
	// the written lines it may start, or be started by, without a scan.
	idx2, idx4, short := map[string][]occ{}, map[string][]occ{}, map[string][]occ{}
	for h, hk := range m.hkeys {
		for pos := range hk {
			if m.used[h][pos] {
				continue
			}
			q := quoteKey(hk[pos].at(levelWhitespace))
			if len(q) < 2 || trivial(q) {
				continue
			}
			o := occ{h, pos}
			idx2[q[:2]] = append(idx2[q[:2]], o)
			if len(q) >= 4 {
				idx4[q[:4]] = append(idx4[q[:4]], o)
			} else {
				short[q] = append(short[q], o)
			}
		}
	}
	budget := maxRewrapTries
	for i := 0; i < len(m.lines) && budget > 0; i++ {
		if len(m.assign[i]) > 0 {
			continue
		}
		q := quoteKey(m.keys[i].at(levelWhitespace))
		if len(q) < 2 || trivial(q) {
			continue
		}
		cands := idx2[q[:2]]
		if len(q) >= 4 {
			cands = append(append(slices.Clone(idx4[q[:4]]), short[q[:2]]...), short[q[:3]]...)
		}
		for _, o := range cands {
			if m.used[o.h][o.pos] {
				continue
			}
			if budget--; budget < 0 {
				break
			}
			if j, b, ok := m.rewrap(i, o); ok {
				ev := occ{o.h, o.pos}
				for l := i; l <= j; l++ {
					ev.pos = min(o.pos+(l-i), b)
					m.assign[l] = append(m.assign[l], pick{ev, MatchRewrap})
				}
				for p := o.pos; p <= b; p++ {
					m.used[o.h][p] = true
				}
				i = j
				break
			}
		}
	}
}

// rewrap extends line i and occurrence o line by line on whichever side
// is shorter until both join to the same text; it returns the last line
// and the last occurrence of the match.
func (m *fileMatch) rewrap(i int, o occ) (int, int, bool) {
	var ca, cb strings.Builder
	j, b := i, o.pos
	hk := m.hkeys[o.h]
	joinKeys(&ca, quoteKey(m.keys[i].at(levelWhitespace)))
	joinKeys(&cb, quoteKey(hk[b].at(levelWhitespace)))
	for range 2 * maxRewrap {
		a, w := finishKey(ca.String()), finishKey(cb.String())
		switch {
		case a == w:
			if (j == i && b == o.pos) || len(a) < minRewrap || strings.Contains(m.gone, a) {
				return 0, 0, false
			}
			return j, b, true
		case len(a) < len(w):
			if !strings.HasPrefix(w, a) || j-i >= maxRewrap || !m.adjacent(i, j+1) || len(m.assign[j+1]) > 0 {
				return 0, 0, false
			}
			j++
			joinKeys(&ca, quoteKey(m.keys[j].at(levelWhitespace)))
		default:
			if !strings.HasPrefix(a, w) || b-o.pos >= maxRewrap || b+1 >= len(hk) || m.used[o.h][b+1] {
				return 0, 0, false
			}
			b++
			joinKeys(&cb, quoteKey(hk[b].at(levelWhitespace)))
		}
	}
	return 0, 0, false
}

// trivialPass attributes trivial lines next to a line an event wrote to
// that event, repeated until nothing changes: the occurrence right beside
// the neighbour's in its hunk when it fits, else any of the event's unused
// occurrences of that text.
func (m *fileMatch) trivialPass() {
	type tkey struct {
		ev, lvl int
		key     string
	}
	idx := map[tkey][]occ{}
	for h, hk := range m.hkeys {
		for pos := range hk {
			if k := &hk[pos]; trivial(k.k[levelExact]) {
				for lvl := levelExact; lvl < nLevels; lvl++ {
					t := tkey{m.hunks[h].Ev, lvl, k.at(lvl)}
					idx[t] = append(idx[t], occ{h, pos})
				}
			}
		}
	}
	fits := func(i int, o occ) (int, bool) {
		if o.pos < 0 || o.pos >= len(m.hkeys[o.h]) || m.used[o.h][o.pos] {
			return 0, false
		}
		hk := &m.hkeys[o.h][o.pos]
		if !trivial(hk.k[levelExact]) {
			return 0, false
		}
		for lvl := levelExact; lvl < nLevels; lvl++ {
			if hk.at(lvl) == m.keys[i].at(lvl) {
				return lvl, true
			}
		}
		return 0, false
	}
	anyOf := func(i, ev int) (occ, int, bool) {
		for lvl := levelExact; lvl < nLevels; lvl++ {
			t := tkey{ev, lvl, m.keys[i].at(lvl)}
			list := idx[t]
			for len(list) > 0 && m.used[list[0].h][list[0].pos] {
				list = list[1:]
			}
			idx[t] = list
			if len(list) > 0 {
				return list[0], lvl, true
			}
		}
		return occ{}, 0, false
	}
	for changed := true; changed; {
		changed = false
		for i := range m.lines {
			if len(m.assign[i]) > 0 || !trivial(m.keys[i].k[levelExact]) {
				continue
			}
			for _, j := range []int{i - 1, i + 1} {
				if !m.adjacent(i, j) || len(m.assign[j]) == 0 {
					continue
				}
				for _, p := range m.assign[j] {
					ev := m.ev(p.occ)
					if m.hasEvent(i, ev) {
						continue
					}
					next := occ{p.h, p.pos + (i - j)}
					if lvl, ok := fits(i, next); ok {
						m.take(i, next, levelKind[lvl], 0)
					} else if o, lvl, ok := anyOf(i, ev); ok {
						m.take(i, o, levelKind[lvl], 0)
					}
				}
				if len(m.assign[i]) > 0 {
					changed = true
					break
				}
			}
		}
	}
}

// kindRank orders match kinds from the surest.
var kindRank = map[string]int{MatchExactLine: 0, MatchWhitespace: 1, MatchFormatted: 2, MatchRewrap: 3}

// records folds the attributed lines into one record per (session, event
// set, match kind); a session's events on one line share the surest kind.
func (m *fileMatch) records(path string, evs []EvRef) []Record {
	type acc struct {
		rec   Record
		lines []int
	}
	by := map[string]*acc{}
	var order []string
	for i, picks := range m.assign {
		ids := map[string][]string{}
		kind := map[string]string{}
		first := map[string]EvRef{}
		var sessions []string
		for _, p := range picks {
			e := evs[m.ev(p.occ)]
			s := e.SessionID
			if _, ok := ids[s]; !ok {
				sessions = append(sessions, s)
				kind[s], first[s] = p.kind, e
			}
			if !slices.Contains(ids[s], e.EventID) {
				ids[s] = append(ids[s], e.EventID)
			}
			if kindRank[p.kind] < kindRank[kind[s]] {
				kind[s] = p.kind
			}
		}
		for _, s := range sessions {
			slices.Sort(ids[s])
			k := strings.Join([]string{s, strings.Join(ids[s], ","), kind[s]}, "\x00")
			a := by[k]
			if a == nil {
				p, e := path, first[s]
				a = &acc{rec: Record{File: &p, CtxSessionID: s, CtxEventIDs: ids[s], Provider: e.Provider,
					NativeSessionID: e.Native, Match: kind[s]}}
				by[k] = a
				order = append(order, k)
			}
			a.lines = append(a.lines, m.lines[i].N)
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
