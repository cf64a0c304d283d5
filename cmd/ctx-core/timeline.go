package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ctx/app"
)

type timelineOptions struct {
	filterFlags
	Repo      string
	NoCommits bool
}

func newTimelineCmd(env *Env, f *format) *cobra.Command {
	opts := &timelineOptions{}
	cmd := &cobra.Command{
		Use:   "timeline",
		Short: "What happened day by day: sessions and the commits ctx linked to them",
		Long: "Print the sessions of a window day by day (a session is on the day it started)\n" +
			"with the files each one edited, and the commits of the repository (the current\n" +
			"directory's, or --repo) whose ctx notes cite sessions. Days are local days.",
		Args: cobra.NoArgs,
		RunE: runFlags(env, f, opts, runTimeline),
	}
	fl := cmd.Flags()
	opts.register(cmd, flagsSessions, periodWindow("7d", ""))
	fl.StringVar(&opts.Repo, "repo", "", "read noted commits from this repository (default: the current directory's)")
	fl.BoolVar(&opts.NoCommits, "no-commits", false, "sessions only")
	completeProviders(cmd, "provider")
	return cmd
}

func runTimeline(ctx context.Context, env *Env, f *format, opts *timelineOptions) error {
	filter, err := opts.filter(env, nil)
	if err != nil {
		return err
	}
	tl, err := env.App().Timeline(ctx, app.TimelineRequest{Filter: filter, Repo: opts.Repo,
		NoCommits: opts.NoCommits, Location: time.Local})
	return reply(env, f, tl, err, paged(printTimeline))
}

func printTimeline(env *Env, tl *app.Timeline) {
	st, w := env.style(), env.Stdout
	if len(tl.Days) == 0 {
		fmt.Fprintln(w, "Nothing in this window.")
		return
	}
	for i, d := range tl.Days {
		if i > 0 {
			fmt.Fprintln(w)
		}
		day, _ := time.ParseInLocation(time.DateOnly, d.Date, time.Local)
		parts := []string{plural(len(d.Sessions), "session"), plural(d.Events, "event")}
		if len(d.Commits) > 0 {
			parts = append(parts, plural(len(d.Commits), "commit"))
		}
		fmt.Fprintf(w, "%s  %s\n", st.bold(day.Format("Mon 02 Jan 2006")), st.dim(strings.Join(parts, " · ")))
		printDayEntries(env, st, &d)
	}
	fmt.Fprintf(w, "\n%s, %s, %s in %s\n", plural(tl.Sessions, "session"), plural(tl.Events, "event"),
		plural(tl.Commits, "commit"), plural(len(tl.Days), "day"))
}

// printDayEntries prints a day's sessions and commits in time order.
func printDayEntries(env *Env, st style, d *app.TimelineDay) {
	w, width := env.Stdout, env.width()
	si, ci := 0, 0
	for si < len(d.Sessions) || ci < len(d.Commits) {
		if ci < len(d.Commits) && (si == len(d.Sessions) || d.Commits[ci].Time.Before(*d.Sessions[si].Started)) {
			c := d.Commits[ci]
			cited := ""
			if len(c.Sessions) > 0 {
				cited = " ← " + strings.Join(shortIDs(c.Sessions), ", ")
			}
			fmt.Fprintf(w, "  %s  %s %s %s%s\n", c.Time.Local().Format("15:04"), st.yellow("commit"),
				st.yellow(c.Commit[:min(len(c.Commit), 10)]), fit(oneLine(c.Subject), max(width-40, 0)), st.dim(cited))
			ci++
			continue
		}
		s := d.Sessions[si]
		title := oneLine(s.Title)
		if title == "" {
			title = "(untitled)"
		}
		head := fmt.Sprintf("  %s  %s  %s  %s  %s  ", s.Started.Local().Format("15:04"), st.cyan(s.ShortID), s.Provider,
			humanDuration(time.Duration(s.DurationSeconds)*time.Second), plural(s.Events, "event"))
		fmt.Fprintf(w, "%s%s\n", head, fit(title, max(width-visibleLen(head), 0)))
		if ws := tildeHome(env, oneLine(s.Workspace)); ws != "" {
			fmt.Fprintf(w, "         %s %s\n", st.dim("in"), ws)
		}
		if len(s.Files) > 0 {
			fmt.Fprintf(w, "         %s %s\n", st.dim("edited"), filesLine(s.Files, s.FilesEdited, 4))
		}
		si++
	}
}

// filesLine lists up to n files and says how many more there are.
func filesLine(files []string, total, n int) string {
	shown := make([]string, 0, n)
	for _, f := range files[:min(len(files), n)] {
		shown = append(shown, oneLine(f))
	}
	line := strings.Join(shown, ", ")
	if more := total - len(shown); more > 0 {
		line += fmt.Sprintf(" (+%d more)", more)
	}
	return line
}

func shortIDs(ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id[:min(len(id), 12)]
	}
	return out
}

// machineFlagUsage is the help of --machine, a filter of search, the
// listings, timeline and stats.
const machineFlagUsage = "only sessions recorded on this machine: an id as ctx sync status lists them, or local (repeatable)"
