package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ctx/app"
	"ctx/core"
	"ctx/query"
)

type showSessionOptions struct {
	Mode      string
	MaxEvents int
}

// jsonlRecord is one line of show session --format jsonl: a session header,
// then events, then the completion record.
type jsonlRecord struct {
	Type       string             `json:"type"`
	Session    *query.SessionInfo `json:"session,omitempty"`
	Event      *core.Event        `json:"event,omitempty"`
	Completion *query.Completion  `json:"completion,omitempty"`
}

type showEventOptions struct {
	Before, After, Window int
}

func newShowCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "show", Short: "Show a stored session or event"}
	cmd.AddCommand(newShowSessionCmd(env, f), newShowEventCmd(env, f))
	return cmd
}

func newShowSessionCmd(env *Env, f *format) *cobra.Command {
	opts := &showSessionOptions{}
	cmd := &cobra.Command{
		Use:   "session ID",
		Short: "Print a session: its transcript, or its whole log",
		Long: "Print a session of the active generation. The stream is complete unless\n" +
			"--max-events truncates it; JSONL output ends with a completion record.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check("text", "json", "jsonl"); err != nil {
				return err
			}
			return runShowSession(cmd.Context(), env, f, opts, args[0])
		},
	}
	cmd.Flags().StringVar(&opts.Mode, "mode", query.ModeTranscript, "transcript (messages and summaries) or log (every event)")
	cmd.Flags().IntVar(&opts.MaxEvents, "max-events", 0, "stop after this many events (0: all)")
	return cmd
}

func runShowSession(ctx context.Context, env *Env, f *format, opts *showSessionOptions, id string) error {
	a := env.App()
	req := query.ShowSessionRequest{ID: id, Mode: opts.Mode, MaxEvents: opts.MaxEvents}
	w := env.Stdout
	switch f.value {
	case "json":
		t, err := a.ShowSession(ctx, id, app.ShowSessionOptions{Mode: opts.Mode, MaxEvents: opts.MaxEvents})
		if err != nil {
			return err
		}
		return writeJSON(w, t)
	case "jsonl":
		done, err := a.StreamSession(ctx, req, func(s *query.SessionInfo) error {
			return writeJSONLine(w, jsonlRecord{Type: "session", Session: s})
		}, func(e *core.Event) error { return writeJSONLine(w, jsonlRecord{Type: "event", Event: e}) })
		if err != nil {
			return err
		}
		return writeJSONLine(w, jsonlRecord{Type: "completion", Completion: done})
	}
	var done *query.Completion
	err := a.Pinned(ctx, func(p *app.Pinned) error {
		var ov *app.SessionOverview
		var err error
		done, err = p.StreamSession(ctx, req, func(s *query.SessionInfo) error {
			printSessionHeader(env, &s.Session)
			if ov, err = p.SessionOverview(ctx, s.Session.ID); err != nil {
				return err
			}
			printOverview(env, ov)
			return nil
		}, func(e *core.Event) error { printEvent(env, e, ""); return nil })
		return err
	})
	if err != nil {
		return err
	}
	if done.Truncated {
		fmt.Fprintf(w, "… truncated: %d of %d events shown (--max-events)\n", done.Emitted, done.Selected)
	}
	return nil
}

func printSessionHeader(env *Env, s *core.Session) {
	w := env.Stdout
	kind := "session"
	if s.IsSubagent {
		kind = "subagent session"
	}
	fmt.Fprintf(w, "%s %s (%s %s)\n", kind, s.ID, s.Provider, oneLine(s.NativeID))
	if s.Title != "" {
		fmt.Fprintf(w, "title:     %s\n", oneLine(s.Title))
	}
	fmt.Fprintf(w, "workspace: %s  branch: %s\n", oneLine(s.Workspace), oneLine(s.GitBranch))
	fmt.Fprintf(w, "time:      %s – %s, %d events\n", strings.TrimSpace(stamp(s.Started, "2006-01-02 15:04")),
		strings.TrimSpace(stamp(s.Ended, "2006-01-02 15:04")), s.EventCount)
	if s.IsSubagent {
		fmt.Fprintf(w, "parent:    %s  root: %s\n", s.ParentSessionID, s.RootSessionID)
	}
	fmt.Fprintln(w)
}

// printOverview lists a session's subagents and where its context was
// compacted, before its transcript.
func printOverview(env *Env, ov *app.SessionOverview) {
	w, st, now := env.Stdout, env.style(), env.Now()
	if n := len(ov.Subagents); n > 0 {
		fmt.Fprintf(w, "%s:\n", plural(n, "subagent"))
		for _, r := range ov.Subagents {
			started := "-"
			if r.Started != nil {
				started = humanTime(*r.Started, now)
			}
			title := oneLine(r.Title)
			if title == "" {
				title = "(untitled)"
			}
			fmt.Fprintf(w, "  ↳ %s  %s  %s  %s\n", st.cyan(r.ShortID), started, plural(r.Events, "event"), fit(title, 80))
		}
	}
	if n := len(ov.Compactions); n > 0 {
		marks := make([]string, len(ov.Compactions))
		for i, c := range ov.Compactions {
			marks[i] = fmt.Sprintf("[%d] %s", c.Ordinal, stamp(c.Timestamp, "15:04"))
		}
		fmt.Fprintf(w, "%s: %s\n", plural(n, "compaction"), strings.Join(marks, ", "))
	}
	if len(ov.Subagents)+len(ov.Compactions) > 0 {
		fmt.Fprintln(w)
	}
}

func printEvent(env *Env, e *core.Event, mark string) {
	w := env.Stdout
	head := fmt.Sprintf("%s[%d] %s %s/%s", mark, e.Ordinal, stamp(e.Timestamp, "15:04:05"), e.Role, e.Type)
	if e.Tool != "" {
		head += " " + oneLine(e.Tool)
	}
	if e.ExitCode != nil {
		head += fmt.Sprintf(" exit=%d", *e.ExitCode)
	}
	fmt.Fprintf(w, "%s  %s\n", head, e.ID)
	text := clean(query.SearchText(e))
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	for _, ft := range e.Files {
		fmt.Fprintf(w, "    file %s %s\n", ft.Op, oneLine(ft.Path))
	}
}

func newShowEventCmd(env *Env, f *format) *cobra.Command {
	opts := &showEventOptions{}
	cmd := &cobra.Command{
		Use:   "event ID",
		Short: "Print an event, optionally with events around it",
		Args:  cobra.ExactArgs(1),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("window") {
				if cmd.Flags().Changed("before") || cmd.Flags().Changed("after") {
					return usagef("--window cannot be combined with --before or --after")
				}
				opts.Before, opts.After = opts.Window, opts.Window
			}
			return runShowEvent(cmd.Context(), env, f, opts, args[0])
		}),
	}
	cmd.Flags().IntVar(&opts.Before, "before", 0, "also show this many events before it")
	cmd.Flags().IntVar(&opts.After, "after", 0, "also show this many events after it")
	cmd.Flags().IntVar(&opts.Window, "window", 0, "show this many events on each side")
	return cmd
}

func runShowEvent(ctx context.Context, env *Env, f *format, opts *showEventOptions, id string) error {
	v, err := env.App().ShowEvent(ctx, id, opts.Before, opts.After)
	return reply(env, f, v, err, printShownEvent)
}

func printShownEvent(env *Env, v *app.EventView) {
	printSessionHeader(env, &v.Session)
	for i := range v.Before {
		printEvent(env, &v.Before[i], "  ")
	}
	printEvent(env, &v.Event, "> ")
	for i := range v.After {
		printEvent(env, &v.After[i], "  ")
	}
}
