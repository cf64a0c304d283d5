package semantic

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ctx/core"
	"ctx/objects"
)

// Index is the vector sets of one generation opened read-only, with the
// rows of dead chunks masked out. It is safe for concurrent searches.
type Index struct {
	Manifest *Manifest
	sets     []*Set
	dead     [][]bool // per set, per row; nil when the set has no dead row
	live     int
}

// ErrIncompatible means a query vector is not of the index's space.
var ErrIncompatible = errors.New("semantic: query vector of another embedder")

// Open opens the vectors of generation gen in dir: ErrNotBuilt when it has
// none, an error wrapping ErrDamaged when a set is missing or malformed.
func Open(dir string, gen objects.ID) (*Index, error) {
	m, err := LoadManifest(dir, gen)
	if err != nil {
		return nil, err
	}
	ix := &Index{Manifest: m}
	for _, ref := range m.Sets {
		s, err := openSet(dir, ref.Name)
		if err == nil && (s.Info.Embedder != m.Embedder || s.Info.Dim != m.Dim || s.Len() != ref.Count) {
			_ = s.Close()
			err = fmt.Errorf("%w: set %s does not match its manifest", ErrDamaged, ref.Name)
		}
		if err != nil {
			_ = ix.Close()
			return nil, err
		}
		ix.sets = append(ix.sets, s)
		ix.dead = append(ix.dead, deadRows(s, ref.Dead))
	}
	for i, s := range ix.sets {
		ix.live += s.Len() - countTrue(ix.dead[i])
	}
	return ix, nil
}

// deadRows marks the rows of the dead chunks; nil when there are none.
func deadRows(s *Set, dead []uint32) []bool {
	if len(dead) == 0 {
		return nil
	}
	chunk := make([]bool, s.Info.Chunks)
	for _, c := range dead {
		if int(c) < len(chunk) {
			chunk[c] = true
		}
	}
	rows := make([]bool, s.Len())
	for i := range rows {
		rows[i] = chunk[s.chunkOf(i)]
	}
	return rows
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// Close unmaps every set.
func (ix *Index) Close() error {
	var first error
	for _, s := range ix.sets {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	ix.sets = nil
	return first
}

// Verify opens the vectors of generation gen and re-computes the checksum
// of every set; ErrNotBuilt when the generation has none, an error
// wrapping ErrDamaged naming the set when one does not read back.
func Verify(dir string, gen objects.ID) error {
	ix, err := Open(dir, gen)
	if err != nil {
		return err
	}
	defer ix.Close()
	for _, s := range ix.sets {
		if err := s.Verify(); err != nil {
			return err
		}
	}
	return nil
}

// Len is the number of live rows.
func (ix *Index) Len() int { return ix.live }

// Result is the answer of Search.
type Result struct {
	// Matches are the best rows, best first (ties by event id); a match's
	// Score is the cosine similarity of the query and the row's quantized
	// vector, its Origin the vector set.
	Matches []core.Hit
	// Considered counts the live rows that passed the filter with a
	// positive similarity.
	Considered int
}

// Search returns the k live rows most similar to q (an L2-normalized vector
// of the index's embedder) among those f accepts, by exact int8 dot product
// over every row; rows with no positive similarity are never returned.
func (ix *Index) Search(ctx context.Context, q []float32, f *core.Filter, k int) (Result, error) {
	if len(q) != ix.Manifest.Dim {
		return Result{}, ErrIncompatible
	}
	terms, qscale := quantizeQuery(q)
	if len(terms) == 0 || k <= 0 {
		return Result{}, nil
	}
	filters := make([]*rowFilter, len(ix.sets))
	for i, s := range ix.sets {
		filters[i] = compileFilter(f, s, ix.dead[i])
	}
	top, considered, err := ix.scan(ctx, terms, filters, k)
	if err != nil {
		return Result{}, err
	}
	for _, rf := range filters {
		if rf.filesErr != nil {
			return Result{}, rf.filesErr
		}
	}
	return Result{Matches: ix.matches(top, qscale), Considered: considered}, nil
}

// matches turns the best candidates into Matches, best first.
func (ix *Index) matches(top []cand, qscale float64) []core.Hit {
	out := make([]core.Hit, len(top))
	for i, c := range top {
		s, row := ix.sets[c.set], int(c.row)
		m := s.session(row)
		out[i] = core.Hit{Score: c.score * qscale, EventID: s.eventID(row), SessionID: m.ID, RootSessionID: m.Root,
			IsSubagent: m.Subagent, EventType: typeOf(s.typeCode(row)), Role: roleOf(s.roleCode(row)),
			Provider: m.Provider, Workspace: m.Workspace, Chunk: s.chunkID(s.chunkOf(row)), Origin: s.Info.Name}
		if t := s.time(row); t != noTime {
			out[i].Timestamp = time.Unix(0, t).UTC()
		}
	}
	sortMatches(out)
	return out
}
