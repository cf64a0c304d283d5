package semantic

import (
	"os"
	"path/filepath"
	"sort"
)

// compact merges small sets once a generation has more than MaxSets: the
// smallest sets (by live rows) are copied, live rows and live chunks only,
// into new sets until MaxSets/2 of the largest plus the merged ones remain
// (sets already full stay as they are, so a history of more than MaxSets
// full sets keeps them all),
// so a big set is rewritten only once small ones have grown to its size.
// Sets this build wrote and merged away are deleted; older ones stay for the
// generations that name them.
func (b *build) compact() error {
	if len(b.sets) <= b.o.MaxSets {
		return nil
	}
	order := make([]int, len(b.sets))
	live := make([]int, len(b.sets))
	for i, s := range b.sets {
		order[i], live[i] = i, s.Len()-countTrue(deadRows(s, b.refs[i].Dead))
	}
	sort.SliceStable(order, func(x, y int) bool { return live[order[x]] < live[order[y]] })
	n := len(b.sets) - b.o.MaxSets/2
	// A full set is as large as a merge would make it: merging it would
	// rewrite it for nothing (every build, once there are MaxSets/2 + 1 of
	// them), so only the sets with room are picked.
	var pick, keep []int
	for k, i := range order {
		if k < n && live[i] < b.o.MaxSetRows {
			pick = append(pick, i)
		} else {
			keep = append(keep, i)
		}
	}
	if len(pick) < 2 {
		return nil
	}
	sort.Ints(keep)
	oldSets, oldRefs := b.sets, b.refs
	b.sets, b.refs = nil, nil
	for _, i := range keep {
		b.sets, b.refs = append(b.sets, oldSets[i]), append(b.refs, oldRefs[i])
	}
	sb := newSetBuilder(b.o.Dir, b.dim)
	for _, i := range pick {
		var err error
		if sb, err = b.copyLive(sb, oldSets[i], oldRefs[i]); err != nil {
			sb.discard()
			return err
		}
	}
	if err := b.flush(sb); err != nil {
		return err
	}
	for _, i := range pick {
		name := oldSets[i].Info.Name
		_ = oldSets[i].Close()
		if b.fresh[name] {
			delete(b.fresh, name)
			_ = os.RemoveAll(filepath.Join(b.o.Dir, name))
		}
	}
	b.rep.Merged += len(pick)
	return nil
}

// copyLive copies the live rows and chunks of s into sb, writing sb out
// whenever it is full at a chunk boundary; it returns the builder in use.
func (b *build) copyLive(sb *setBuilder, s *Set, ref SetRef) (*setBuilder, error) {
	dead := make([]bool, s.Info.Chunks)
	for _, c := range ref.Dead {
		if int(c) < len(dead) {
			dead[c] = true
		}
	}
	hasRows := make([]bool, s.Info.Chunks)
	codes := make([]int8, b.dim)
	prev := uint32(1<<32 - 1)
	for row := range s.Len() {
		if row%spillRows == spillRows-1 {
			dropPages(s.data) // what was copied is not read again
		}
		c := s.chunkOf(row)
		hasRows[c] = true
		if dead[c] {
			continue
		}
		if c != prev && sb.rows() >= b.o.MaxSetRows {
			if err := b.flush(sb); err != nil {
				return sb, err
			}
			sb = newSetBuilder(b.o.Dir, b.dim)
		}
		prev = c
		meta, err := s.rowMeta(row)
		if err != nil {
			return sb, err
		}
		s.rowCodes(row, codes)
		if err := sb.addRow(codes, s.scale(row), meta); err != nil {
			return sb, err
		}
	}
	for c := range uint32(s.Info.Chunks) {
		if !dead[c] && !hasRows[c] {
			sb.addChunk(s.chunkID(c))
		}
	}
	return sb, nil
}
