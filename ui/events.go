package ui

import (
	"strings"
	"time"

	"ctx/core"
	"ctx/query"
)

// eventView is one event as the session page shows it. A call (tool call
// or command start) carries the outputs that answer it on the same page.
type eventView struct {
	ID        string
	Ordinal   int
	Time      time.Time
	Role      string
	Type      string
	Tool      string
	Command   string
	ExitCode  *int
	IsError   bool
	Text      string
	Clipped   int // bytes of Text not shown
	Files     []fileView
	Call      bool
	Summary   string // the call's one-line summary
	Outputs   []*eventView
	Open      bool // the jump target is this call or one of its outputs
	Target    bool
	Compacted bool // a compaction boundary
	// ArgsFolded folds a call's raw arguments when its edits are shown
	// as diffs (the arguments repeat them).
	ArgsFolded bool
}

// viewEvents turns a page of events into views, folding each output under
// the call of the same call id when that call is on the page.
func viewEvents(events []core.Event, target int) []*eventView {
	out := make([]*eventView, 0, len(events))
	calls := map[string]*eventView{}
	for i := range events {
		e := &events[i]
		v := viewEvent(e)
		v.Target = e.Ordinal == target
		switch e.Type.Class() {
		case core.ClassCall:
			v.Call = true
			v.Open = v.Target
			if e.CallID != "" {
				calls[e.CallID] = v
			}
		case core.ClassOutput:
			if c := calls[e.CallID]; e.CallID != "" && c != nil {
				c.Outputs = append(c.Outputs, v)
				c.Open = c.Open || v.Target
				if v.IsError || (v.ExitCode != nil && *v.ExitCode != 0) {
					c.IsError = true
				}
				if v.ExitCode != nil && c.ExitCode == nil {
					c.ExitCode = v.ExitCode
				}
				continue
			}
		}
		out = append(out, v)
	}
	return out
}

func viewEvent(e *core.Event) *eventView {
	text := e.Text
	if text == "" && e.Type.Class() != core.ClassMessage {
		text = query.SearchText(e)
	}
	shown, clipped := clip(text, maxShown)
	v := &eventView{ID: e.ID.String(), Ordinal: e.Ordinal, Time: e.Timestamp, Role: string(e.Role),
		Type: string(e.Type), Tool: oneLine(e.Tool), Command: oneLine(e.Command), ExitCode: e.ExitCode,
		IsError: e.IsError, Text: clean(shown), Clipped: clipped, Compacted: e.Type == core.TypeCompaction}
	for _, ft := range e.Files {
		fv := viewFile(ft)
		v.ArgsFolded = v.ArgsFolded || (len(fv.Diff) > 0 && e.Type.Class() == core.ClassCall)
		v.Files = append(v.Files, fv)
	}
	v.Summary = callSummary(e, v)
	return v
}

// callSummary is the line a folded call shows: the tool and what it was
// given (a command, the files it touched, else the first line of text).
func callSummary(e *core.Event, v *eventView) string {
	name := v.Tool
	if name == "" {
		name = string(e.Type)
	}
	var what string
	switch {
	case v.Command != "":
		what = v.Command
	case len(v.Files) > 0:
		var ps []string
		for _, f := range v.Files {
			ps = append(ps, f.Op+" "+f.Path)
		}
		what = strings.Join(ps, ", ")
	default:
		first, _, _ := strings.Cut(strings.TrimSpace(v.Text), "\n")
		what = first
	}
	return oneLine(name + "  " + what)
}
