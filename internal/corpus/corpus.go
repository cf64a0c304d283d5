package corpus

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"
)

// Provider names accepted in Options.Providers.
const (
	ProviderClaude = "claude-code"
	ProviderCodex  = "codex"
)

// DefaultStart is the base time used when Options.Start is zero.
var DefaultStart = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// Spread is how far before Options.Start sessions begin.
const Spread = 90 * 24 * time.Hour

// Options controls Generate.
type Options struct {
	Events    int       // approximate total number of normalized events to write
	Seed      int64     // same seed, same bytes
	Providers []string  // ProviderClaude, ProviderCodex; default both, split about 60/40
	Start     time.Time // sessions begin within Spread before it; default DefaultStart
}

// Stats reports what Generate or Append wrote.
type Stats struct {
	Files    int   // files written, transcripts and .meta.json files
	Sessions int   // transcripts: sessions and subagent runs
	Events   int   // normalized events, counted as doc.go describes
	Bytes    int64 // bytes written
}

// ErrOptions reports invalid Options.
var ErrOptions = errors.New("corpus: invalid options")

// Generate writes a synthetic history of about opts.Events events under
// home: Claude Code transcripts in home/.claude/projects and Codex rollouts
// in home/.codex/sessions.
func Generate(home string, opts Options) (Stats, error) {
	provs, shares, err := providerShares(opts.Providers)
	if err != nil {
		return Stats{}, err
	}
	if opts.Events < 1 {
		return Stats{}, fmt.Errorf("%w: Events must be positive", ErrOptions)
	}
	start := opts.Start
	if start.IsZero() {
		start = DefaultStart
	}
	w := &writer{}
	master := newRand(uint64(opts.Seed), 0)
	left := opts.Events
	for i, p := range provs {
		budget := left
		if i < len(provs)-1 {
			budget = opts.Events * shares[i] / 100
		}
		before := w.st.Events
		generateProvider(w, home, p, budget, master, start)
		left -= w.st.Events - before
		if w.err != nil {
			return w.st, w.err
		}
	}
	return w.st, nil
}

func providerShares(list []string) ([]string, []int, error) {
	if len(list) == 0 {
		list = []string{ProviderClaude, ProviderCodex}
	}
	var provs []string
	var shares []int
	seen := map[string]bool{}
	for _, p := range list {
		if p != ProviderClaude && p != ProviderCodex {
			return nil, nil, fmt.Errorf("%w: unknown provider %q", ErrOptions, p)
		}
		if !seen[p] {
			seen[p] = true
			provs = append(provs, p)
		}
	}
	for _, p := range provs {
		share := 100
		if len(provs) == 2 {
			share = map[string]int{ProviderClaude: 60, ProviderCodex: 40}[p]
		}
		shares = append(shares, share)
	}
	return provs, shares, nil
}

// generateProvider writes sessions of one provider until budget events
// are written. Each session draws from its own random source, seeded from
// master, so a session's bytes do not depend on the sessions before it.
func generateProvider(w *writer, home, prov string, budget int, master *rand.Rand, start time.Time) {
	lx := theLexicon()
	written := 0
	for n := uint64(0); written < budget && w.err == nil; n++ {
		r := newRand(master.Uint64(), n)
		size := sessionSize(r, budget-written)
		ws := lx.spaces[min(len(lx.spaces)-1, int(r.ExpFloat64()*5))]
		t0 := start.Add(-Spread + time.Duration(r.Int64N(int64(Spread-12*time.Hour))))
		before := w.st.Events
		if prov == ProviderClaude {
			writeClaudeSession(w, home, r, ws, t0, size)
		} else {
			writeCodexSession(w, home, r, ws, t0, size)
		}
		written += w.st.Events - before
	}
}

// sessionSize draws 50–650 events, letting the last session take the rest.
func sessionSize(r *rand.Rand, left int) int {
	size := 50 + r.IntN(601)
	if left-size < 50 {
		return left
	}
	return size
}

func writeClaudeSession(w *writer, home string, r *rand.Rand, ws *workspace, t0 time.Time, size int) {
	s := newClaudeSess(r, ws, t0)
	s.w = w
	s.projDir = filepath.Join(home, ".claude", "projects", claudeSlug(ws.cwd))
	s.out = w.create(filepath.Join(s.projDir, s.sessionID+".jsonl"))
	main := s.planSubagents(size)
	s.run(main)
	w.finish(s.out, s.events)
}
