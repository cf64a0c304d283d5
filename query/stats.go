package query

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"ctx/core"
)

// Stats periods.
const (
	PeriodDay  = "day"
	PeriodWeek = "week" // ISO weeks, Monday first
)

// KindStats is the kind of Stats.
const KindStats = "stats"

// StatsRequest selects the sessions stats count, and the period they are
// grouped by (day or week, in Location; nil is UTC). A session counts in
// the period it started.
type StatsRequest struct {
	Filter   core.Filter // a session filter (SessionsRequest.Filter)
	Period   string
	Location *time.Location
}

// StatsRow is the usage of a set of sessions. Tokens sums what the agents
// recorded; TokenSessions says how many of the sessions recorded any.
type StatsRow struct {
	Provider  string `json:"provider,omitempty"`
	Sessions  int    `json:"sessions"`
	Subagents int    `json:"subagents"`
	Activity
	Tokens        core.Tokens `json:"tokens"`
	TokenSessions int         `json:"token_sessions"`
}

// Activity counts what sessions did: a session row's, or the sum of a
// stats row's.
type Activity struct {
	Events      int `json:"events"`
	Prompts     int `json:"prompts"`
	ToolCalls   int `json:"tool_calls"`
	Commands    int `json:"commands"`
	FilesEdited int `json:"files_edited"`
	Errors      int `json:"errors"`
}

// activity is what the session of f did.
func (f *fact) activity() Activity {
	d := f.digest
	return Activity{Events: f.entry.Events, Prompts: d.Prompts, ToolCalls: d.ToolCalls, Commands: d.Commands,
		FilesEdited: d.Edited, Errors: d.Errors}
}

// add adds b's counts to a's.
func (a *Activity) add(b Activity) {
	a.Events += b.Events
	a.Prompts += b.Prompts
	a.ToolCalls += b.ToolCalls
	a.Commands += b.Commands
	a.FilesEdited += b.FilesEdited
	a.Errors += b.Errors
}

// StatsPeriod is one day or week with activity.
type StatsPeriod struct {
	Period string     `json:"period"` // 2026-11-30, or 2026-W48
	Start  time.Time  `json:"start"`
	Total  StatsRow   `json:"total"`
	Agents []StatsRow `json:"agents"`
}

// ModelStats is the usage of one model: sessions that used it, and the
// tokens of the sessions that used it alone.
type ModelStats struct {
	Model    string      `json:"model"`
	Sessions int         `json:"sessions"`
	Tokens   core.Tokens `json:"tokens"`
}

// FileStats is one of the files the selected sessions edited most: how
// many of them edited it, and when the last of those was active.
type FileStats struct {
	Path         string     `json:"path"`
	Sessions     int        `json:"sessions"`
	LastActivity *time.Time `json:"last_activity,omitempty"`
}

// StatsMaxFiles is how many files Stats lists.
const StatsMaxFiles = 20

// Stats is the usage of the selected sessions, in total, per agent, per
// period and per model, and the files they edited most (kind "stats").
// A session's digest lists its first core.DigestMaxFiles edited files, so
// for the few sessions that edited more, Files counts those only:
// FilesComplete says whether every selected session's list was whole.
type Stats struct {
	Kind       string          `json:"kind"`
	Generation GenerationRef   `json:"generation"`
	Selection  FilterSelection `json:"selection"`
	Period     string          `json:"period"`
	Location   string          `json:"location"`
	Total      StatsRow        `json:"total"`
	Agents     []StatsRow      `json:"agents"`
	Periods    []StatsPeriod   `json:"periods"`
	Models     []ModelStats    `json:"models"`
	// Files are the StatsMaxFiles files edited by the most sessions (ties
	// by the latest activity, then path).
	Files         []FileStats `json:"files"`
	FilesComplete bool        `json:"files_complete"`
}

// Stats counts the selected sessions from the tree alone.
func (r *Reader) Stats(req StatsRequest) (*Stats, error) {
	if err := choose(&req.Period, "period", PeriodDay, PeriodWeek); err != nil {
		return nil, err
	}
	sel, loc, kept, _, err := r.selectSessions(&req.Filter, req.Location)
	if err != nil {
		return nil, err
	}
	out := &Stats{Kind: KindStats, Generation: r.Ref(), Selection: *sel, Period: req.Period, Location: zoneName(loc),
		Agents: []StatsRow{}, Periods: []StatsPeriod{}, Models: []ModelStats{}, FilesComplete: true}
	files := map[string]*FileStats{}
	agents := map[string]*StatsRow{}
	periods := map[string]*StatsPeriod{}
	periodAgents := map[string]map[string]*StatsRow{}
	models := map[string]*ModelStats{}
	for _, f := range kept {
		out.Total.add(f)
		rowOf(agents, f.entry.Provider).add(f)
		if !f.started.IsZero() {
			key, start := periodOf(f.started.In(loc), req.Period)
			p := periods[key]
			if p == nil {
				p = &StatsPeriod{Period: key, Start: start.UTC()}
				periods[key], periodAgents[key] = p, map[string]*StatsRow{}
			}
			p.Total.add(f)
			rowOf(periodAgents[key], f.entry.Provider).add(f)
		}
		countFiles(files, f, &out.FilesComplete)
		for _, m := range f.digest.Models {
			ms := models[m]
			if ms == nil {
				ms = &ModelStats{Model: m}
				models[m] = ms
			}
			ms.Sessions++
			if len(f.digest.Models) == 1 && f.digest.Tokens != nil {
				ms.Tokens.Add(f.digest.Tokens)
			}
		}
	}
	out.Agents = sortedRows(agents)
	for key, p := range periods {
		p.Agents = sortedRows(periodAgents[key])
		out.Periods = append(out.Periods, *p)
	}
	slices.SortFunc(out.Periods, func(a, b StatsPeriod) int { return b.Start.Compare(a.Start) })
	for _, m := range models {
		out.Models = append(out.Models, *m)
	}
	slices.SortFunc(out.Models, func(a, b ModelStats) int {
		if a.Sessions != b.Sessions {
			return b.Sessions - a.Sessions
		}
		return strings.Compare(a.Model, b.Model)
	})
	out.Files = topFiles(files, StatsMaxFiles)
	return out, nil
}

// countFiles counts a session once for each file its digest lists.
func countFiles(files map[string]*FileStats, f *fact, complete *bool) {
	d := f.digest
	if !d.FilesComplete() {
		*complete = false
	}
	seen := map[string]bool{}
	for _, p := range d.Files {
		if seen[p] {
			continue
		}
		seen[p] = true
		fs := files[p]
		if fs == nil {
			fs = &FileStats{Path: p}
			files[p] = fs
		}
		fs.Sessions++
		if !f.ended.IsZero() && (fs.LastActivity == nil || f.ended.After(*fs.LastActivity)) {
			t := f.ended.UTC()
			fs.LastActivity = &t
		}
	}
}

// topFiles returns the n files edited by the most sessions.
func topFiles(files map[string]*FileStats, n int) []FileStats {
	out := sortedValues(files, func(a, b FileStats) int {
		if a.Sessions != b.Sessions {
			return b.Sessions - a.Sessions
		}
		var at, bt time.Time
		if a.LastActivity != nil {
			at = *a.LastActivity
		}
		if b.LastActivity != nil {
			bt = *b.LastActivity
		}
		if c := bt.Compare(at); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out[:min(n, len(out))]
}

func rowOf(m map[string]*StatsRow, provider string) *StatsRow {
	r := m[provider]
	if r == nil {
		r = &StatsRow{Provider: provider}
		m[provider] = r
	}
	return r
}

func sortedRows(m map[string]*StatsRow) []StatsRow {
	return sortedValues(m, func(a, b StatsRow) int {
		if a.Sessions != b.Sessions {
			return b.Sessions - a.Sessions
		}
		return strings.Compare(a.Provider, b.Provider)
	})
}

// sortedValues copies the values of m into a slice sorted by cmp.
func sortedValues[T any](m map[string]*T, cmp func(a, b T) int) []T {
	out := make([]T, 0, len(m))
	for _, v := range m {
		out = append(out, *v)
	}
	slices.SortFunc(out, cmp)
	return out
}

func (s *StatsRow) add(f *fact) {
	d := f.digest
	s.Sessions++
	if d.Subagent || !f.parent().IsZero() {
		s.Subagents++
	}
	s.Activity.add(f.activity())
	if d.Tokens != nil {
		s.Tokens.Add(d.Tokens)
		s.TokenSessions++
	}
}

// periodOf names the day or ISO week of t and returns its start.
func periodOf(t time.Time, period string) (string, time.Time) {
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	if period == PeriodDay {
		return day.Format(time.DateOnly), day
	}
	back := (int(day.Weekday()) + 6) % 7 // days since Monday
	start := day.AddDate(0, 0, -back)
	y, w := t.ISOWeek()
	return fmt.Sprintf("%d-W%02d", y, w), start
}
