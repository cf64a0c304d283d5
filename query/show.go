package query

import (
	"ctx/core"
	"ctx/objects"
)

// Show modes.
const (
	ModeTranscript = "transcript" // messages and summaries
	ModeLog        = "log"        // every event, tool results included
)

// MaxWindow bounds --before, --after and --window.
const MaxWindow = 1000

// SessionInfo is the session header of show and list read models.
type SessionInfo struct {
	Generation GenerationRef `json:"generation"`
	core.Session
}

// Completion ends a complete stream (CLI JSONL ends with it).
type Completion struct {
	Complete  bool   `json:"complete"`
	Mode      string `json:"mode"`
	Emitted   int    `json:"events_emitted"`
	Selected  int    `json:"events_selected"`
	Truncated bool   `json:"truncated"`
}

// ShowSessionRequest selects a session stream.
type ShowSessionRequest struct {
	// ID is anything ResolveSession takes: a ses_ id or a unique prefix of
	// one, an evt_ id, the agent's own session id.
	ID        string
	Mode      string // transcript (default) or log
	MaxEvents int    // 0: all
}

// InMode reports whether the event belongs to a show mode.
func InMode(mode string, e *core.Event) bool {
	if mode == ModeLog {
		return true
	}
	c := e.Type.Class()
	return c == core.ClassMessage || c == core.ClassSummary
}

// ShowSession streams the events of a session selected by mode to emit,
// after the header. The stream is complete unless MaxEvents truncates it.
func (r *Reader) ShowSession(req ShowSessionRequest, header func(*SessionInfo) error, emit func(*core.Event) error) (*Completion, error) {
	if err := choose(&req.Mode, "mode", ModeTranscript, ModeLog); err != nil {
		return nil, err
	}
	if req.MaxEvents < 0 {
		return nil, Errorf(CodeInvalidRequest, "max events must not be negative")
	}
	id, err := r.ResolveSession(req.ID)
	if err != nil {
		return nil, err
	}
	so, err := r.Session(id)
	if err != nil {
		return nil, err
	}
	if err := header(&SessionInfo{Generation: r.Ref(), Session: so.Session}); err != nil {
		return nil, err
	}
	done := &Completion{Complete: true, Mode: req.Mode}
	err = eachEvent(so, r.chunk, func(_ objects.ID, e *core.Event) (bool, error) {
		if !InMode(req.Mode, e) {
			return true, nil
		}
		done.Selected++
		if req.MaxEvents > 0 && done.Emitted >= req.MaxEvents {
			done.Truncated, done.Complete = true, false
			return true, nil
		}
		if err := emit(e); err != nil {
			return false, err
		}
		done.Emitted++
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return done, nil
}

// EventView is the show event read model.
type EventView struct {
	Generation GenerationRef `json:"generation"`
	Session    core.Session  `json:"session"`
	Event      core.Event    `json:"event"`
	Before     []core.Event  `json:"before"`
	After      []core.Event  `json:"after"`
}

// ShowEvent returns an event with up to before and after events of its
// session around it; idText is anything ResolveEvent takes.
func (r *Reader) ShowEvent(idText string, before, after int) (*EventView, error) {
	if before < 0 || after < 0 || before > MaxWindow || after > MaxWindow {
		return nil, Errorf(CodeInvalidRequest, "before, after and window must be between 0 and %d", MaxWindow)
	}
	id, err := r.ResolveEvent(idText)
	if err != nil {
		return nil, err
	}
	idx, err := r.index()
	if err != nil {
		return nil, err
	}
	hit, ok, err := idx.Lookup(id)
	if err != nil {
		return nil, indexError("event lookup failed", err)
	}
	live := ok && !r.superseded(hit.Origin, id)
	if !live && len(damagedShards(idx, nil)) > 0 {
		// a damaged shard may index it: the store's current sessions hold
		// it all the same
		found, err := r.storeEvents(func(e core.EventID) bool { return e == id }, 1)
		if err != nil {
			return nil, err
		}
		if len(found) == 1 {
			hit, live = found[0], true
		}
	}
	if !live {
		return nil, Errorf(CodeNotFound, "no event with that id in generation %d", r.gen.Number)
	}
	so, err := r.Session(hit.SessionID)
	if err != nil {
		return nil, err
	}
	events, err := core.LoadEvents(r.store, so)
	if err != nil {
		return nil, wrapObjErr(err)
	}
	for i := range events {
		if events[i].ID != id {
			continue
		}
		v := &EventView{Generation: r.Ref(), Session: so.Session, Event: events[i],
			Before: events[max(0, i-before):i], After: events[i+1 : min(len(events), i+1+after)]}
		return v, nil
	}
	return nil, Errorf(CodeNotFound, "no event with that id in generation %d", r.gen.Number)
}

// StreamSession reads the session and hands its events with ordinals in
// [from, to] (to < 0: to the end) to emit in order, one chunk in memory at
// a time and only the chunks the range covers (export).
func (r *Reader) StreamSession(id core.SessionID, from, to int, emit func(*core.Event) error) error {
	so, err := r.Session(id)
	if err != nil {
		return err
	}
	for k := max(chunkAt(so.Chunks, from), 0); k < len(so.Chunks); k++ {
		if to >= 0 && so.Chunks[k].First > to {
			break
		}
		c, err := r.loadChunk(so.Chunks[k].ID)
		if err != nil {
			return err
		}
		for i := range c.Events {
			e := &c.Events[i]
			if e.Ordinal < from || (to >= 0 && e.Ordinal > to) {
				continue
			}
			if err := emit(e); err != nil {
				return err
			}
		}
	}
	return nil
}
