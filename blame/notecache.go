package blame

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// NoteCache reads notes for many commits with two git processes: one
// listing of the notes ref and one cat-file --batch of the notes needed.
// A note that cannot be read is reported once in Problems and treated as
// absent.
type NoteCache struct {
	repo     *Repo
	blobs    map[string]string // commit → note blob
	notes    map[string]*Note
	Problems []string
	problem  map[string]string // commit → its entry in Problems
}

// NewNoteCache lists the notes of the repository.
func NewNoteCache(ctx context.Context, repo *Repo) (*NoteCache, error) {
	nc := &NoteCache{repo: repo, blobs: map[string]string{}, notes: map[string]*Note{}, problem: map[string]string{}}
	out, err := repo.Git(ctx, "notes", "--ref", NotesRef, "list")
	if err != nil {
		return nc, nil // no notes ref yet
	}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			nc.blobs[f[1]] = f[0]
		}
	}
	return nc, nil
}

// Load reads the notes of commits not read yet.
func (nc *NoteCache) Load(ctx context.Context, commits []string) error {
	var want []string
	var in bytes.Buffer
	for _, c := range commits {
		if _, done := nc.notes[c]; done {
			continue
		}
		nc.notes[c] = nil
		if b, ok := nc.blobs[c]; ok {
			want = append(want, c)
			fmt.Fprintln(&in, b)
		}
	}
	if len(want) == 0 {
		return nil
	}
	out, err := nc.repo.GitIn(ctx, in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return err
	}
	br := bufio.NewReader(strings.NewReader(out))
	for _, c := range want {
		data, err := readBatchEntry(br)
		if err != nil {
			return fmt.Errorf("notes of %s: %w", short(c), err)
		}
		n, err := parseNoteFast(data)
		if err != nil {
			p := fmt.Sprintf("note of commit %s ignored: %v", short(c), err)
			if errors.Is(err, ErrNewerNote) && n != nil {
				p = fmt.Sprintf("note of commit %s read in part: %v", short(c), err)
			}
			nc.Problems = append(nc.Problems, p)
			nc.problem[c] = p
			if n == nil {
				continue
			}
		}
		nc.notes[c] = Dedupe(n) // a cat_sort_uniq merge may repeat a record
	}
	return nil
}

// ProblemsOf lists the problems of the notes of commits, each once, in
// the order of commits.
func (nc *NoteCache) ProblemsOf(commits []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range commits {
		if p, ok := nc.problem[c]; ok && !seen[c] {
			seen[c] = true
			out = append(out, p)
		}
	}
	return out
}

// Commits lists the commits that have a note.
func (nc *NoteCache) Commits() []string {
	out := make([]string, 0, len(nc.blobs))
	for c := range nc.blobs {
		out = append(out, c)
	}
	return out
}

// Cited lists the records of the loaded notes that cite events for path.
func (nc *NoteCache) Cited(path string) []*Record {
	var out []*Record
	for _, n := range nc.notes {
		if n == nil {
			continue
		}
		for i := range n.Records {
			if r := &n.Records[i]; r.File != nil && *r.File == path && len(r.CtxEventIDs) > 0 {
				out = append(out, r)
			}
		}
	}
	return out
}

// Note returns the loaded note of commit (nil when none).
func (nc *NoteCache) Note(commit string) *Note { return nc.notes[commit] }

func readBatchEntry(br *bufio.Reader) ([]byte, error) {
	head, err := br.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("cat-file: %s", strings.TrimSpace(head))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("cat-file: %w", err)
	}
	data := make([]byte, size+1) // content and its newline
	if _, err := io.ReadFull(br, data); err != nil {
		return nil, err
	}
	return data[:size], nil
}

// headerLine is the header this ctx writes.
var headerLine = []byte(`{"ctx_notes":1}`)

// parseNoteFast is ParseNote for the notes ctx writes, with one decode per
// record line instead of two; anything else (another header, a line
// naming ctx_notes, a line that is not a record, a note without a header)
// is left to ParseNote, so the result and the errors are ParseNote's.
func parseNoteFast(data []byte) (*Note, error) {
	n := &Note{}
	sawHeader := false
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
			continue
		case bytes.Equal(line, headerLine):
			sawHeader = true
			continue
		case len(line) >= 16<<20 || bytes.Contains(line, []byte(`"ctx_notes"`)):
			return ParseNote(data)
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil || r.CtxSessionID == "" {
			return ParseNote(data)
		}
		n.Records = append(n.Records, r)
	}
	if !sawHeader {
		return ParseNote(data)
	}
	return n, nil
}
