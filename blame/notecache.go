package blame

import (
	"bufio"
	"bytes"
	"context"
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
}

// NewNoteCache lists the notes of the repository.
func NewNoteCache(ctx context.Context, repo *Repo) (*NoteCache, error) {
	nc := &NoteCache{repo: repo, blobs: map[string]string{}, notes: map[string]*Note{}}
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
		n, err := ParseNote(data)
		if err != nil {
			nc.Problems = append(nc.Problems, fmt.Sprintf("note of commit %s ignored: %v", short(c), err))
			continue
		}
		nc.notes[c] = Dedupe(n) // a cat_sort_uniq merge may repeat a record
	}
	return nil
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
