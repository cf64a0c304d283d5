package threads

import (
	"errors"
	"sort"
	"strings"
)

// How a thread was found.
const (
	MatchExact      = "exact"
	MatchPrefix     = "prefix"
	MatchFuzzy      = "fuzzy"
	MatchMostRecent = "most_recent"
)

// ErrNoThreads is returned when there is no thread at all.
var ErrNoThreads = errors.New("no threads yet: save_session with a thread name creates one")

// NotFoundError says no thread is close to a name.
type NotFoundError struct {
	Name  string
	Known []string // every thread name, most recently active first
}

func (e *NotFoundError) Error() string { return "no thread matches " + `"` + e.Name + `"` }

// AmbiguousError lists the threads a name could mean.
type AmbiguousError struct {
	Name       string
	Candidates []string // closest first
}

func (e *AmbiguousError) Error() string {
	return `"` + e.Name + `" could be any of: ` + strings.Join(e.Candidates, ", ")
}

// Match finds the thread name means among names (ordered most recently
// active first). An empty name is the most recent thread.
func Match(name string, names []string) (string, string, error) {
	if len(names) == 0 {
		return "", "", ErrNoThreads
	}
	if strings.TrimSpace(name) == "" {
		return names[0], MatchMostRecent, nil
	}
	k := Key(name)
	for _, n := range names {
		if Key(n) == k {
			return n, MatchExact, nil
		}
	}
	var prefixed []string
	for _, n := range names {
		if strings.HasPrefix(Key(n), k) || strings.HasPrefix(strings.ReplaceAll(Key(n), " ", ""), strings.ReplaceAll(k, " ", "")) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], MatchPrefix, nil
	}
	if len(prefixed) > 1 {
		return "", "", &AmbiguousError{Name: name, Candidates: prefixed}
	}
	type scored struct {
		name string
		d    int
	}
	var close []scored
	for _, n := range names {
		kn := Key(n)
		d := distance(k, kn)
		// Allow a typo per four characters; compare against a same-length
		// prefix too so that "q3 campain" finds "q3 campaign planning".
		if len(kn) > len(k) {
			d = min(d, distance(k, kn[:len(k)]))
		}
		if d <= max(1, len(k)/4) {
			close = append(close, scored{n, d})
		}
	}
	sort.SliceStable(close, func(i, j int) bool { return close[i].d < close[j].d })
	switch {
	case len(close) == 1, len(close) > 1 && close[0].d < close[1].d:
		return close[0].name, MatchFuzzy, nil
	case len(close) > 1:
		out := make([]string, len(close))
		for i, c := range close {
			out[i] = c.name
		}
		return "", "", &AmbiguousError{Name: name, Candidates: out}
	}
	return "", "", &NotFoundError{Name: name, Known: names}
}

// distance is the Levenshtein distance of a and b in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
