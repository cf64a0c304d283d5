package blame

import (
	"context"
	"strconv"
	"strings"
	"time"

	"ctx/query"
)

// NotedCommits returns the commits of the repository whose ctx notes cite
// sessions, committed in [since, until) (a zero bound is open), for the
// timeline. Notes of commits no longer in the repository are skipped.
func NotedCommits(ctx context.Context, repo *Repo, since, until time.Time) ([]query.TimelineCommit, error) {
	nc, err := NewNoteCache(ctx, repo)
	if err != nil {
		return nil, err
	}
	commits := nc.Commits()
	if len(commits) == 0 {
		return nil, nil
	}
	in := strings.Join(commits, "\n") + "\n"
	out, err := repo.GitIn(ctx, []byte(in), "log", "--no-walk=unsorted", "--stdin", "--ignore-missing",
		"--format=%H%x00%ct%x00%s")
	if err != nil {
		return nil, err
	}
	var found []query.TimelineCommit
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\x00", 3)
		if len(f) != 3 {
			continue
		}
		secs, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		t := time.Unix(secs, 0).UTC()
		if (!since.IsZero() && t.Before(since)) || (!until.IsZero() && !t.Before(until)) {
			continue
		}
		found = append(found, query.TimelineCommit{Commit: f[0], Time: t, Subject: f[2], Repo: repo.Root})
	}
	want := make([]string, len(found))
	for i := range found {
		want[i] = found[i].Commit
	}
	if err := nc.Load(ctx, want); err != nil {
		return nil, err
	}
	for i := range found {
		found[i].Sessions = citedSessions(nc.Note(found[i].Commit))
	}
	return found, nil
}

func citedSessions(n *Note) []string {
	out := []string{}
	if n == nil {
		return out
	}
	seen := map[string]bool{}
	for _, r := range n.Records {
		if r.CtxSessionID != "" && !seen[r.CtxSessionID] {
			seen[r.CtxSessionID] = true
			out = append(out, r.CtxSessionID)
		}
	}
	return out
}
