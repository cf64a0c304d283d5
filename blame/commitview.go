package blame

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// CommitView is the read model of ctx blame --commit REV.
type CommitView struct {
	Commit  string         `json:"commit"`
	Subject string         `json:"subject"`
	Files   []FileEvidence `json:"files"`
	// Sessions are sessions that were active in the repository at commit
	// time without writing any of its lines: a weaker signal than
	// evidence, listed only when asked for (CommitOptions.Active) and never
	// cited.
	Sessions []Evidence `json:"sessions_active"`
	Problems []string   `json:"problems,omitempty"`
}

// FileEvidence is the evidence of one file of a commit.
type FileEvidence struct {
	File    string       `json:"file"`
	Records []RecordView `json:"records"`
}

// RecordView is one note record with its resolved evidence.
type RecordView struct {
	Lines    [][2]int   `json:"lines"`
	Evidence []Evidence `json:"evidence"`
}

// CommitOptions tune BlameCommitWith.
type CommitOptions struct {
	// Active lists the sessions the note records as active at commit time
	// with no line of the commit (session_active records).
	Active bool
}

// BlameCommit lists a commit's evidence by file: only records whose lines
// the commit holds (record nothing rather than guess).
func BlameCommit(ctx context.Context, repo *Repo, rev string, rs *Resolver) (*CommitView, error) {
	return BlameCommitWith(ctx, repo, rev, rs, CommitOptions{})
}

// BlameCommitWith is BlameCommit with options.
func BlameCommitWith(ctx context.Context, repo *Repo, rev string, rs *Resolver, opts CommitOptions) (*CommitView, error) {
	c, err := repo.Commit(ctx, rev)
	var problems []string
	if errors.Is(err, ErrNoParent) { // the note is readable all the same
		id, rerr := repo.Resolve(ctx, rev)
		if rerr != nil {
			return nil, rerr
		}
		c, problems = &CommitInfo{ID: id}, []string{err.Error()}
	} else if err != nil {
		return nil, err
	}
	v := &CommitView{Commit: c.ID, Subject: c.Subject, Files: []FileEvidence{}, Sessions: []Evidence{}, Problems: problems}
	n, err := repo.ReadNote(ctx, c.ID)
	switch {
	case errors.Is(err, ErrNewerNote) && n != nil:
		v.Problems = append(v.Problems, fmt.Sprintf("note of commit %s read in part: %v", short(c.ID), err))
	case err != nil:
		v.Problems = append(v.Problems, fmt.Sprintf("note of commit %s ignored: %v", short(c.ID), err))
		return v, nil
	}
	if n == nil {
		return v, nil
	}
	n = Dedupe(n) // a cat_sort_uniq merge may repeat a record
	at := map[string]int{}
	for i := range n.Records {
		r := &n.Records[i]
		if r.File == nil {
			if opts.Active {
				v.Sessions = append(v.Sessions, rs.Evidence(r)...)
			}
			continue
		}
		if len(r.Lines) == 0 {
			continue // no line of the commit carries it
		}
		k, ok := at[*r.File]
		if !ok {
			k = len(v.Files)
			at[*r.File] = k
			v.Files = append(v.Files, FileEvidence{File: *r.File})
		}
		v.Files[k].Records = append(v.Files[k].Records, RecordView{Lines: r.Lines, Evidence: rs.Evidence(r)})
	}
	sort.SliceStable(v.Files, func(i, j int) bool { return v.Files[i].File < v.Files[j].File })
	return v, nil
}

// PRView is the read model of ctx blame --pr BASE..HEAD: over the commits
// of the range, the lines each commit added and those its notes attribute.
type PRView struct {
	Range      string         `json:"range"`
	Commits    int            `json:"commits"`
	AddedLines int            `json:"added_lines"`
	AgentLines int            `json:"agent_lines"`
	AgentShare float64        `json:"agent_share"`
	ByProvider map[string]int `json:"by_provider"`
	BySession  []SessionLines `json:"by_session"`
	// Cited are the sessions that wrote lines the range added: those of
	// BySession, never a session only active at commit time.
	Cited    []string `json:"sessions_cited"`
	Problems []string `json:"problems,omitempty"`
}

// SessionLines counts the lines one session wrote in the range.
type SessionLines struct {
	CtxSessionID    string `json:"ctx_session_id"`
	Provider        string `json:"provider"`
	NativeSessionID string `json:"native_session_id"`
	Lines           int    `json:"lines"`
}

// BlamePR aggregates the notes of the commits in rng (BASE..HEAD). A merge
// counts only its own lines (new against every parent, such as a conflict
// resolution): the lines it brings are counted with the commits that wrote
// them.
func BlamePR(ctx context.Context, repo *Repo, rng string) (*PRView, error) {
	if !strings.Contains(rng, "..") || strings.Contains(rng, "...") {
		return nil, fmt.Errorf("%w: want BASE..HEAD", ErrBadRevision)
	}
	out, err := repo.Git(ctx, "rev-list", "--end-of-options", rng)
	if err != nil {
		return nil, repo.badRevision(ctx, rng)
	}
	commits := strings.Fields(out)
	v := &PRView{Range: rng, Commits: len(commits), ByProvider: map[string]int{}, BySession: []SessionLines{}, Cited: []string{}}
	nc, err := NewNoteCache(ctx, repo)
	if err != nil {
		return nil, err
	}
	if err := nc.Load(ctx, commits); err != nil {
		return nil, err
	}
	v.Problems = nc.Problems
	sess := map[string]*SessionLines{}
	shallow := repo.Shallow(ctx)
	for _, id := range commits {
		if shallow[id] {
			v.Commits--
			v.Problems = append(v.Problems, fmt.Sprintf("commit %s skipped: it is a boundary of this shallow clone, "+
				"its parent is not here, so what it added is unknown (git fetch --unshallow)", short(id)))
			continue
		}
		if err := v.addCommit(ctx, repo, id, nc.Note(id), sess); err != nil {
			return nil, err
		}
	}
	v.finish(sess)
	return v, nil
}

func (v *PRView) addCommit(ctx context.Context, repo *Repo, id string, n *Note, sess map[string]*SessionLines) error {
	c, err := repo.Commit(ctx, id)
	if err != nil {
		return err
	}
	added, err := repo.AddedLines(ctx, c)
	if err != nil {
		return err
	}
	agent := map[string]bool{}
	for p, ls := range added.Files {
		v.AddedLines += len(ls)
		if n == nil {
			continue
		}
		for _, l := range ls {
			credited := map[string]bool{}
			for i := range n.Records {
				r := &n.Records[i]
				if r.File == nil || *r.File != p || !r.Covers(l.N) || credited[r.CtxSessionID] {
					continue
				}
				credited[r.CtxSessionID] = true
				s := sess[r.CtxSessionID]
				if s == nil {
					s = &SessionLines{CtxSessionID: r.CtxSessionID, Provider: r.Provider, NativeSessionID: r.NativeSessionID}
					sess[r.CtxSessionID] = s
				}
				s.Lines++
				agent[fmt.Sprintf("%s:%d", p, l.N)] = true
			}
		}
	}
	v.AgentLines += len(agent)
	return nil
}

func (v *PRView) finish(sess map[string]*SessionLines) {
	for _, s := range sess {
		v.BySession = append(v.BySession, *s)
		v.ByProvider[s.Provider] += s.Lines
	}
	sort.Slice(v.BySession, func(i, j int) bool {
		a, b := v.BySession[i], v.BySession[j]
		return a.Lines > b.Lines || (a.Lines == b.Lines && a.CtxSessionID < b.CtxSessionID)
	})
	for s := range sess {
		v.Cited = append(v.Cited, s)
	}
	sort.Strings(v.Cited)
	if v.AddedLines > 0 {
		v.AgentShare = float64(v.AgentLines) / float64(v.AddedLines)
	}
}
