package reported

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// InboxDir is the inbox's directory under $CTX_HOME.
func InboxDir(home string) string { return filepath.Join(home, "inbox") }

// InboxPath is the inbox file under $CTX_HOME.
func InboxPath(home string) string { return filepath.Join(InboxDir(home), "reported.jsonl") }

// ErrNotFound is returned for an id no record has.
var ErrNotFound = errors.New("no reported session with that id")

// Redactor replaces secrets in a text and counts them.
type Redactor interface {
	String(string) (string, int)
}

// Inbox is the append-only file of records. One Inbox is safe for
// concurrent use; several processes append under an exclusive file lock.
type Inbox struct {
	path    string
	mu      sync.Mutex
	records []Record
	offset  int64 // bytes of the file read into records
}

// OpenInbox returns the inbox of $CTX_HOME without creating anything.
func OpenInbox(home string) *Inbox { return &Inbox{path: InboxPath(home)} }

// Path is the inbox file.
func (in *Inbox) Path() string { return in.path }

// Append redacts rec's report, numbers its revision, writes it as one line
// and fsyncs the file before returning: an acknowledged record is durable.
func (in *Inbox) Append(rec Record, red Redactor) (Record, error) {
	if red != nil && rec.Report != nil {
		rec.Redactions = redactReport(rec.Report, red)
	}
	rec.V = Version
	in.mu.Lock()
	defer in.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(in.path), 0o700); err != nil {
		return rec, fmt.Errorf("inbox: %w", err)
	}
	f, err := os.OpenFile(in.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return rec, fmt.Errorf("inbox: %w", err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return rec, fmt.Errorf("inbox lock: %w", err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if err := in.refresh(f); err != nil {
		return rec, err
	}
	rec.Revision = 1
	for _, r := range in.records {
		if r.ID == rec.ID && r.Op == OpSave {
			rec.Revision = r.Revision + 1
		}
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return rec, fmt.Errorf("inbox: %w", err)
	}
	line = append(line, '\n')
	if _, err := f.Write(line); err != nil {
		return rec, fmt.Errorf("inbox write: %w", err)
	}
	if err := f.Sync(); err != nil {
		return rec, fmt.Errorf("inbox fsync: %w", err)
	}
	in.records = append(in.records, rec)
	in.offset += int64(len(line))
	return rec, nil
}

// Records returns every record of the inbox in the order written,
// including those other processes appended since the last call. The slice
// is shared: callers never change it.
func (in *Inbox) Records() ([]Record, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	f, err := os.Open(in.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	defer f.Close()
	if err := in.refresh(f); err != nil {
		return nil, err
	}
	return in.records, nil
}

// refresh reads the complete lines written since offset. A torn last line
// (a writer that died mid-line) is left for later; a line that is not a
// record is skipped.
func (in *Inbox) refresh(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("inbox: %w", err)
	}
	if fi.Size() < in.offset { // replaced by a shorter file: read again
		in.records, in.offset = nil, 0
	}
	if fi.Size() == in.offset {
		return nil
	}
	r := bufio.NewReaderSize(io.NewSectionReader(f, in.offset, fi.Size()-in.offset), 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			return nil // no newline: not complete yet
		}
		if err != nil {
			return fmt.Errorf("inbox read: %w", err)
		}
		in.offset += int64(len(line))
		var rec Record
		if json.Unmarshal(bytes.TrimSpace(line), &rec) == nil && rec.V == Version && rec.ID != "" {
			in.records = append(in.records, rec)
		}
	}
}

// Sessions groups records by reported session, in order of first record.
type Session struct {
	ID        string
	Revisions []Record // the save records, oldest first
	Removed   *Record  // the remove record, when removed
}

// Latest returns the newest revision.
func (s *Session) Latest() *Record { return &s.Revisions[len(s.Revisions)-1] }

// Group returns the reported sessions of records.
func Group(records []Record) []*Session {
	by := map[string]*Session{}
	var out []*Session
	for i := range records {
		r := &records[i]
		s := by[r.ID]
		if s == nil {
			if r.Op != OpSave {
				continue
			}
			s = &Session{ID: r.ID}
			by[r.ID] = s
			out = append(out, s)
		}
		switch r.Op {
		case OpSave:
			s.Revisions = append(s.Revisions, *r)
			s.Removed = nil
		case OpRemove:
			s.Removed = r
		}
	}
	return out
}

// Remove appends a remove record for a reported session.
func (in *Inbox) Remove(id string, prov Provenance, now time.Time) error {
	recs, err := in.Records()
	if err != nil {
		return err
	}
	for _, s := range Group(recs) {
		if s.ID == id && s.Removed == nil {
			_, err := in.Append(Record{Op: OpRemove, ID: id, ReceivedAt: now.UTC(), Provenance: prov}, nil)
			return err
		}
	}
	return fmt.Errorf("%w: %s", ErrNotFound, id)
}

func redactReport(r *Report, red Redactor) int {
	n := 0
	one := func(p *string) {
		var k int
		*p, k = red.String(*p)
		n += k
	}
	for _, p := range []*string{&r.Summary, &r.Title, &r.State, &r.SuggestedFirstPrompt, &r.Thread} {
		one(p)
	}
	for _, list := range [][]string{r.OpenItems, r.Gotchas, r.FilesTouched} {
		for i := range list {
			one(&list[i])
		}
	}
	for i := range r.KeyDecisions {
		one(&r.KeyDecisions[i].Decision)
		one(&r.KeyDecisions[i].Rationale)
	}
	for i := range r.Artifacts {
		one(&r.Artifacts[i].Path)
		one(&r.Artifacts[i].Role)
	}
	return n
}
