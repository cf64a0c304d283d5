package query

import (
	"encoding/json"
	"fmt"

	"ctx/core"
)

// SkippedEvent is a selected event that a page could not hold: alone it is
// larger than the page's byte budget. The page's cursor steps past it, so
// paging goes on to the events after it; Hint says how to read it.
type SkippedEvent struct {
	CtxEventID   string `json:"ctx_event_id"`
	CtxSessionID string `json:"ctx_session_id"`
	Ordinal      int    `json:"ordinal"`
	EventType    string `json:"event_type"`
	// Bytes is the event's size as compact JSON in the page's projection;
	// BudgetBytes what one page could hold.
	Bytes       int `json:"bytes"`
	BudgetBytes int `json:"budget_bytes"`
	// Hint names a read that holds it: a smaller content projection when
	// one fits the budget, and the CLI, which prints an event whole.
	Hint string `json:"hint"`
}

// skipOf describes e, of size bytes in the projection content, as skipped
// from a page of budget bytes whose base (the page without events) is base.
func skipOf(s *core.Session, e *core.Event, content string, size, base, budget int) (SkippedEvent, error) {
	sk := SkippedEvent{CtxEventID: e.ID.String(), CtxSessionID: s.ID.String(), Ordinal: e.Ordinal,
		EventType: string(e.Type), Bytes: size, BudgetBytes: budget}
	whole := fmt.Sprintf("the ctx CLI prints it whole: ctx show event %s --format json", e.ID)
	for _, smaller := range smallerContents(content) {
		b, err := json.Marshal(projectRow(s, e, smaller))
		if err != nil {
			return sk, err
		}
		if base+len(b)+1 <= budget {
			sk.Hint = fmt.Sprintf("%d bytes, over the page budget of %d: list events with session %s and content %s "+
				"to read it %s (%d bytes), or %s", size, budget, s.ID, smaller, contentGist(smaller), len(b), whole)
			return sk, nil
		}
	}
	sk.Hint = fmt.Sprintf("%d bytes, over the page budget of %d even as metadata: %s", size, budget, whole)
	return sk, nil
}

// smallerContents are the projections smaller than content, largest first.
func smallerContents(content string) []string {
	switch content {
	case ContentFull:
		return []string{ContentText, ContentNone}
	case ContentText:
		return []string{ContentNone}
	}
	return nil
}

func contentGist(content string) string {
	if content == ContentText {
		return "without its activity and file bodies"
	}
	return "as metadata, without its text"
}

// errNoRoom is the error of a budget that cannot hold even the reference
// to a skipped event.
func errNoRoom() error {
	return Errorf(CodeOutputLimit, "the byte budget cannot hold even one event's reference: ask with a larger budget")
}

// pageFill is the byte budget of one page being filled: base is the page
// without events, used what it holds so far, max its budget (0: none).
type pageFill struct {
	base, used, max int
	content         string // the projection the page's events are sized in
}

// fillVerdict is what a page does with an event offered to it.
type fillVerdict int

const (
	fillAdd  fillVerdict = iota // it fits: add it
	fillSkip                    // alone it is too large: list it as skipped
	fillFull                    // it does not fit beside what the page holds: end the page
)

func newPageFill(base, max int, content string) *pageFill {
	return &pageFill{base: base, used: base, max: max, content: content}
}

// offer sizes e (size bytes of JSON) against the budget and charges what
// the page takes of it; a skipped event comes back described. empty says
// the page holds nothing yet: a budget that cannot hold even a skipped
// event's reference then fails rather than paging without progress.
func (f *pageFill) offer(s *core.Session, e *core.Event, size int, empty bool) (fillVerdict, *SkippedEvent, error) {
	if f.max <= 0 {
		f.used += size + 1
		return fillAdd, nil, nil
	}
	if f.base+size+1 <= f.max {
		if f.used+size+1 > f.max {
			return fillFull, nil, nil
		}
		f.used += size + 1
		return fillAdd, nil, nil
	}
	sk, err := skipOf(s, e, f.content, size, f.base, f.max)
	if err != nil {
		return fillFull, nil, err
	}
	b, err := json.Marshal(&sk)
	if err != nil {
		return fillFull, nil, err
	}
	if f.used+len(b)+1 > f.max {
		if empty {
			return fillFull, nil, errNoRoom()
		}
		return fillFull, nil, nil
	}
	f.used += len(b) + 1
	return fillSkip, &sk, nil
}
