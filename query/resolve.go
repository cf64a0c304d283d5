package query

import (
	"fmt"
	"strings"

	"ctx/core"
)

// maxCandidates bounds the candidates an ambiguous reference lists.
const maxCandidates = 8

// ResolveSession turns what a user typed for a session into its id: a
// ctx_session_id, a ctx_event_id or a unique prefix of one (its session),
// a unique prefix of a ses_ id (at least 4 hex digits after ses_) or a
// provider's native session id. An ambiguous prefix is invalid_request
// naming the candidates; a ses_ prefix too short to look up is
// invalid_request; nothing matching is not_found.
func (r *Reader) ResolveSession(arg string) (core.SessionID, error) {
	arg = strings.TrimSpace(arg)
	if id, err := core.ParseSessionID(arg); err == nil {
		if _, err := r.Session(id); err != nil {
			return core.SessionID{}, err
		}
		return id, nil
	}
	if strings.HasPrefix(strings.ToLower(arg), "evt_") {
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
	if hex, ok := strings.CutPrefix(strings.ToLower(arg), "ses_"); ok && len(hits) == 0 && len(hex) < minPrefixHex {
		return core.SessionID{}, Errorf(CodeInvalidRequest, "a session id prefix needs at least %d hex digits after ses_", minPrefixHex)
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

// minPrefixHex is the fewest hex digits an id prefix must give after its
// ses_ or evt_.
const minPrefixHex = 4

// ResolveEvent turns what a user typed for an event into its id: a
// ctx_event_id, or a unique prefix of one (at least 4 hex digits after
// evt_; case does not matter). An ambiguous prefix is invalid_request
// naming the candidates; nothing matching is not_found; anything else is
// invalid_request. Messages never echo the input.
func (r *Reader) ResolveEvent(arg string) (core.EventID, error) {
	arg = strings.ToLower(strings.TrimSpace(arg))
	if id, err := core.ParseEventID(arg); err == nil {
		return id, nil
	}
	hex, ok := strings.CutPrefix(arg, "evt_")
	if !ok || len(hex) < minPrefixHex || len(hex) >= 32 || strings.Trim(hex, "0123456789abcdef") != "" {
		return core.EventID{}, Errorf(CodeInvalidRequest,
			"not an event id: want evt_ followed by 32 hex digits, or a unique prefix of at least %d of them", minPrefixHex)
	}
	idx, err := r.index()
	if err != nil {
		return core.EventID{}, err
	}
	hits, more, err := idx.LookupPrefix(arg, maxCandidates)
	if err != nil {
		return core.EventID{}, indexError("event lookup failed", err)
	}
	var live []core.Hit
	for _, h := range hits {
		if !r.superseded(h.Origin, h.EventID) {
			live = append(live, h)
		}
	}
	if len(live) == 0 && len(damagedShards(idx, nil)) > 0 {
		// a damaged shard may index it: look in the store
		if live, err = r.storeEvents(func(e core.EventID) bool { return strings.HasPrefix(e.String(), arg) }, maxCandidates+1); err != nil {
			return core.EventID{}, err
		}
		more = len(live) > maxCandidates
		live = live[:min(len(live), maxCandidates)]
	}
	switch {
	case len(live) == 0:
		return core.EventID{}, Errorf(CodeNotFound, "no event id starts with that prefix in generation %d", r.gen.Number)
	case len(live) == 1 && !more:
		return live[0].EventID, nil
	}
	var b strings.Builder
	if more {
		fmt.Fprintf(&b, "more than %d events match that prefix; use more of it:", len(live))
	} else {
		fmt.Fprintf(&b, "%d events match that prefix; use more of it:", len(live))
	}
	for _, h := range live {
		when := "-"
		if !h.Timestamp.IsZero() {
			when = h.Timestamp.UTC().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(&b, "\n  %s  %s %s/%s  %s", h.EventID, h.Provider, h.Role, h.EventType, when)
	}
	return core.EventID{}, Errorf(CodeInvalidRequest, "%s", b.String())
}
