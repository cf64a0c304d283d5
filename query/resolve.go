package query

import (
	"fmt"
	"strings"

	"ctx/core"
)

// maxCandidates bounds the candidates an ambiguous reference lists.
const maxCandidates = 8

// ResolveSession turns what a user typed for a session into its id: a
// ctx_session_id, a ctx_event_id (its session), a unique prefix of a
// ses_ id (at least 4 hex digits after ses_) or a provider's native
// session id. An ambiguous prefix is invalid_request naming the
// candidates; nothing matching is not_found.
func (r *Reader) ResolveSession(arg string) (core.SessionID, error) {
	arg = strings.TrimSpace(arg)
	if id, err := core.ParseSessionID(arg); err == nil {
		if _, err := r.Session(id); err != nil {
			return core.SessionID{}, err
		}
		return id, nil
	}
	if strings.HasPrefix(arg, "evt_") {
		v, err := r.ShowEvent(arg, 0, 0)
		if err != nil {
			return core.SessionID{}, err
		}
		return v.Session.ID, nil
	}
	facts, err := r.facts()
	if err != nil {
		return core.SessionID{}, err
	}
	var hits []*fact
	if hex, ok := strings.CutPrefix(strings.ToLower(arg), "ses_"); ok && len(hex) >= 4 {
		for i := range facts {
			if strings.HasPrefix(facts[i].entry.Session.String(), "ses_"+hex) {
				hits = append(hits, &facts[i])
			}
		}
	}
	if len(hits) == 0 && arg != "" {
		for i := range facts {
			if facts[i].digest.NativeID == arg {
				hits = append(hits, &facts[i])
			}
		}
	}
	switch len(hits) {
	case 0:
		return core.SessionID{}, Errorf(CodeNotFound, "no session matches that id in generation %d", r.gen.Number)
	case 1:
		return hits[0].entry.Session, nil
	}
	return core.SessionID{}, ambiguous(hits)
}

func ambiguous(hits []*fact) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d sessions match that id; use more of it:", len(hits))
	for i, f := range hits {
		if i == maxCandidates {
			fmt.Fprintf(&b, "\n  … and %d more", len(hits)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %s  %s  %s", f.entry.Session, f.entry.Provider, oneLineClip(f.digest.Title, 60))
	}
	return Errorf(CodeInvalidRequest, "%s", b.String())
}

// oneLineClip is s on one line, cut to n runes.
func oneLineClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
