package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"ctx/budget"
)

// DefaultTokenBudget is the budget when the configuration names none.
const DefaultTokenBudget = 50000

// Redactor replaces secrets in a text and counts them.
type Redactor interface {
	String(string) (string, int)
}

// SessionsFunc finds the recent sessions of the root in the store and what
// they read and edited.
type SessionsFunc func(ctx context.Context, root string) ([]SessionBrief, []Activity, error)

// SummarizeFunc writes sessionSummary from the object read so far (plan,
// git state, sessions); it is bounded by its own timeout.
type SummarizeFunc func(ctx context.Context, o *Object) (string, error)

// Options configure one build.
type Options struct {
	Root        string
	TokenBudget int // DefaultTokenBudget when zero
	Version     string
	Now         func() time.Time
	Redactor    Redactor
	Sessions    SessionsFunc // nil: the sessions connector is not configured
	// Summarize writes sessionSummary; nil leaves it null (the summary
	// connector is not configured) and sends nothing anywhere.
	Summarize SummarizeFunc
}

// ErrRoot is returned when the root is not a readable directory.
var ErrRoot = errors.New("workspace root is not a directory")

// Build reads the workspace and returns its ContextObject.
func Build(ctx context.Context, opts Options) (*Object, error) {
	if opts.TokenBudget <= 0 {
		opts.TokenBudget = DefaultTokenBudget
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil || !isDir(root) {
		return nil, fmt.Errorf("%w: %s", ErrRoot, opts.Root)
	}
	o := &Object{
		Meta: Meta{Name: "ctx", Version: opts.Version, GeneratedAt: opts.Now().UTC(), Root: root,
			Scope: ScopeFull, TokenBudget: opts.TokenBudget, Tokenizer: budget.Encoding},
		Untrusted: Notice, PlanFiles: []PlanFile{}, KeyFiles: []KeyFile{}, NotionPages: []struct{}{},
		Sessions: []SessionBrief{}, tokens: map[string]int{},
	}
	b := &builder{o: o, root: root, opts: opts, left: opts.TokenBudget}
	gitDone := b.startGit(ctx) // git runs in its own processes beside the plan
	b.plan()
	gitDone()
	activity := b.sessions(ctx)
	summaryDone := b.startSummary(ctx) // beside the key files, from what is read so far
	b.files(activity)
	summaryDone()
	o.Meta.Connectors = append(o.Meta.Connectors, Connector{Name: "notion", Status: StatusNotConfigured})
	o.Meta.TokensUsed = opts.TokenBudget - b.left
	o.tokens[ScopeFull] = o.Meta.TokensUsed
	return o, nil
}

type builder struct {
	o    *Object
	root string
	opts Options
	left int
}

func (b *builder) timed(name string, f func() (string, string)) {
	start := time.Now()
	status, detail := f()
	b.o.Meta.Connectors = append(b.o.Meta.Connectors, Connector{Name: name, Status: status,
		DurationMs: time.Since(start).Milliseconds(), Detail: detail})
}

// timedAs records a connector whose work took took elsewhere.
func (b *builder) timedAs(name string, took time.Duration, f func() (string, string)) {
	status, detail := f()
	b.o.Meta.Connectors = append(b.o.Meta.Connectors, Connector{Name: name, Status: status,
		DurationMs: took.Milliseconds(), Detail: detail})
}

func (b *builder) spend(scope string, n int) {
	b.left -= n
	b.o.tokens[scope] += n
}

func (b *builder) plan() {
	b.timed("plan", func() (string, string) {
		var n int
		b.o.Plan, b.o.PlanFiles, n = readPlan(b.root, b.left/4, b.opts.Redactor)
		b.spend(ScopePlan, n)
		return StatusOK, ""
	})
}

// startGit reads the git state in the background; the returned function
// waits for it and spends its tokens.
func (b *builder) startGit(ctx context.Context) func() {
	type result struct {
		st   *GitState
		err  error
		took time.Duration
	}
	ch := make(chan result, 1)
	go func() {
		start := time.Now()
		st, err := ReadGit(ctx, b.root)
		ch <- result{st, err, time.Since(start)}
	}()
	return func() {
		r := <-ch
		b.git(r.st, r.err, r.took)
	}
}

func (b *builder) git(st *GitState, err error, took time.Duration) {
	b.timedAs("git", took, func() (string, string) {
		switch {
		case errors.Is(err, ErrNoRepository), errors.Is(err, ErrNoGit):
			return StatusUnavailable, err.Error()
		case err != nil:
			return StatusError, err.Error()
		}
		if b.opts.Redactor != nil {
			for i := range st.Commits {
				st.Commits[i].Subject, _ = b.opts.Redactor.String(st.Commits[i].Subject)
			}
		}
		b.o.GitState = st
		b.spend(ScopeGit, jsonTokens(st))
		return StatusOK, ""
	})
}

func (b *builder) sessions(ctx context.Context) []Activity {
	var activity []Activity
	if b.opts.Sessions == nil {
		b.o.Meta.Connectors = append(b.o.Meta.Connectors, Connector{Name: "sessions", Status: StatusNotConfigured})
		return nil
	}
	b.timed("sessions", func() (string, string) {
		briefs, act, err := b.opts.Sessions(ctx, b.root)
		if err != nil {
			return StatusError, err.Error()
		}
		activity = act
		for _, s := range briefs {
			n := jsonTokens(s)
			if n > b.left/4 {
				break
			}
			b.o.Sessions = append(b.o.Sessions, s)
			b.spend(ScopeFull, n)
		}
		return StatusOK, ""
	})
	return activity
}

// minFileTokens is the least a key file is worth including.
const minFileTokens = 64

func (b *builder) files(activity []Activity) {
	b.timed("file", func() (string, string) {
		skip := map[string]bool{}
		for _, p := range b.o.PlanFiles {
			skip[p.Path] = true
		}
		perFile := max(b.opts.TokenBudget/5, minFileTokens)
		for _, c := range rank(b.root, activity, skip) {
			if b.left < minFileTokens {
				break
			}
			limit := min(perFile, b.left)
			text, _, cutRead, err := readText(b.root, c.rel, int64(limit)*16)
			if err != nil {
				continue
			}
			kf := KeyFile{Path: c.rel, Reason: c.reason}
			if b.opts.Redactor != nil {
				text, kf.Redactions = b.opts.Redactor.String(text)
			}
			var cut bool
			kf.Content, kf.Tokens, cut = budget.Cut(text, limit)
			kf.Truncated = cut || cutRead
			b.o.KeyFiles = append(b.o.KeyFiles, kf)
			b.spend(ScopeFiles, kf.Tokens)
		}
		return StatusOK, ""
	})
}

func jsonTokens(v any) int {
	data, _ := json.Marshal(v)
	return budget.Count(string(data))
}
