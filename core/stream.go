package core

import (
	"errors"
	"slices"
)

// StreamParser is implemented by providers that can hand a file's session
// over while they read it, a chunk of events at a time, so that importing
// it holds the events in flight rather than all of them (see
// SessionSink). The result is the one Parse would give: the same session,
// events, ids and problems.
type StreamParser interface {
	// ParseStream reads one file holding one session and sends its events
	// to sink. It fails as Parse does, with ErrParseWhole when the file
	// must be read by Parse instead (the sink asked for it, or a record
	// changed an event already handed over); nothing the sink received is
	// then to be kept.
	ParseStream(f SourceFile, sink SessionSink) (StreamResult, error)
}

// SessionSink receives one session from a StreamParser.
type SessionSink interface {
	// Begin is called once the session's identity is known, before its
	// first events: s has its ctx ids (ParsedSession.FinalizeIdentity)
	// and the metadata read so far. A parser waits for the workspace too
	// while it holds less than a window of events, so that the sink can
	// tell whether the session is excluded before it stores anything; a
	// workspace, once known, does not change. An error stops the parse with it;
	// ErrParseWhole makes the caller read the file whole.
	Begin(s *Session) error
	// Events receives the next events, finalized (ids, ordinals, session
	// id), in order: core.ChunkSize at a time but for the last call. The
	// events are the sink's to keep or change.
	Events(evs []Event) error
}

// StreamResult is what ParseStream returns once the file is read: the
// session finalized (EventCount, Started and Ended included) with no
// Events, since the sink had them, and the file's problems.
type StreamResult struct {
	Session  ParsedSession
	Problems []Problem
}

// ErrParseWhole says a file must be read whole, by Parse.
var ErrParseWhole = errors.New("core: the file must be parsed whole")

// LiveParser is a StreamParser that can hold a parse open once it has
// read a file to its end, so that the next import of a growing file reads
// only what was appended (the daemon's passes over a long transcript).
type LiveParser interface {
	StreamParser
	// ParseLive is ParseStream, and returns with the result the parse
	// held open after the file's last complete line, or nil when it
	// cannot be held.
	ParseLive(f SourceFile, sink LiveSink) (StreamResult, LiveParse, error)
}

// LiveSink is a SessionSink that is told when the events handed to it so
// far are settled: a parse held open never hands them again, while it may
// hand the ones after again, changed, when it goes on.
type LiveSink interface {
	SessionSink
	// Settled is called once, after the settled events and before the
	// others.
	Settled()
}

// LiveParse is a parse held open after a file's last complete line.
type LiveParse interface {
	// Continue reads what the file holds past that line, hands sink the
	// events after those settled the last time (Begin is not called
	// again), and returns the result of the whole file, as ParseStream
	// would. It fails with ErrParseWhole when it cannot go on (the file is
	// not the one it read, or a record changes a settled event); the
	// caller then closes it and reads the file anew. After any other
	// error it must be closed too.
	Continue(f SourceFile, sink LiveSink) (StreamResult, error)
	// Close releases it.
	Close()
}

// CloneEvents copies evs so that changing a copy (its fields, its file
// touches, or what its pointers point at, as a sink may) leaves evs as
// they were: a parse held open forks its pending events this way before
// handing them over.
func CloneEvents(evs []Event) []Event {
	out := slices.Clone(evs)
	for i := range out {
		e := &out[i]
		e.Files = slices.Clone(e.Files)
		if e.ExitCode != nil {
			c := *e.ExitCode
			e.ExitCode = &c
		}
		if e.Tokens != nil {
			t := *e.Tokens
			e.Tokens = &t
		}
		if e.Activity != nil {
			a := *e.Activity
			e.Activity = &a
		}
	}
	return out
}
