package threads

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"ctx/core"
)

// Path is the registry file under $CTX_HOME.
func Path(home string) string { return filepath.Join(home, "threads.jsonl") }

// MaxName bounds a thread name in characters.
const MaxName = 128

// ErrName is returned for an empty or oversized thread name.
var ErrName = errors.New("a thread name must be 1 to 128 characters with a letter or digit")

// Operations of the registry log.
const (
	OpCreate = "create"
	OpAdd    = "add"
)

// Op is one line of the registry.
type Op struct {
	Op      string         `json:"op"`
	Name    string         `json:"name"`
	Session core.SessionID `json:"ctx_session_id,omitzero"`
	At      time.Time      `json:"at"`
	Door    string         `json:"door,omitempty"`
}

// Thread is a name and the imported sessions added to it.
type Thread struct {
	Name    string
	Created time.Time
	Added   []Op // add operations, oldest first
}

// Registry is the thread log of one $CTX_HOME.
type Registry struct {
	path string
	mu   sync.Mutex
}

// Open returns the registry of home without creating anything.
func Open(home string) *Registry { return &Registry{path: Path(home)} }

// Key is the form names are compared in: lowercase letters and digits,
// words separated by one space.
func Key(name string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		} else {
			space = true
		}
	}
	return b.String()
}

// CheckName validates a thread name.
func CheckName(name string) error {
	if Key(name) == "" || len([]rune(name)) > MaxName {
		return ErrName
	}
	return nil
}

// Threads reads every thread, in order of creation.
func (r *Registry) Threads() ([]*Thread, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.read()
}

func (r *Registry) read() ([]*Thread, error) {
	f, err := os.Open(r.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("threads: %w", err)
	}
	defer f.Close()
	by := map[string]*Thread{}
	var out []*Thread
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var op Op
		if json.Unmarshal(sc.Bytes(), &op) != nil || Key(op.Name) == "" {
			continue
		}
		k := Key(op.Name)
		t := by[k]
		if t == nil {
			t = &Thread{Name: op.Name, Created: op.At}
			by[k] = t
			out = append(out, t)
		}
		if op.Op == OpAdd && !op.Session.IsZero() {
			t.Added = append(t.Added, op)
		}
	}
	return out, sc.Err()
}

// Ensure returns the thread whose name has the same Key as name, creating
// it when there is none; created says which.
func (r *Registry) Ensure(name string, now time.Time) (canonical string, created bool, err error) {
	if err := CheckName(name); err != nil {
		return "", false, err
	}
	name = strings.TrimSpace(name)
	err = r.locked(func(ts []*Thread, appendOp func(Op) error) error {
		for _, t := range ts {
			if Key(t.Name) == Key(name) {
				canonical = t.Name
				return nil
			}
		}
		canonical, created = name, true
		return appendOp(Op{Op: OpCreate, Name: name, At: now.UTC()})
	})
	return canonical, created, err
}

// Add records that an imported session belongs to an existing thread (the
// caller resolved the name); adding it twice is a no-op.
func (r *Registry) Add(name string, id core.SessionID, door string, now time.Time) error {
	return r.locked(func(ts []*Thread, appendOp func(Op) error) error {
		for _, t := range ts {
			if Key(t.Name) != Key(name) {
				continue
			}
			for _, a := range t.Added {
				if a.Session == id {
					return nil
				}
			}
			return appendOp(Op{Op: OpAdd, Name: t.Name, Session: id, At: now.UTC(), Door: door})
		}
		return fmt.Errorf("threads: no thread %q", name)
	})
}

// locked runs f with the registry read under an exclusive file lock; ops
// f appends are fsynced before locked returns.
func (r *Registry) locked(f func([]*Thread, func(Op) error) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(r.path), 0o700); err != nil {
		return fmt.Errorf("threads: %w", err)
	}
	file, err := os.OpenFile(r.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("threads: %w", err)
	}
	defer file.Close()
	if err := syscall.Flock(int(file.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("threads lock: %w", err)
	}
	defer syscall.Flock(int(file.Fd()), syscall.LOCK_UN)
	ts, err := r.read()
	if err != nil {
		return err
	}
	wrote := false
	appendOp := func(op Op) error {
		line, err := json.Marshal(op)
		if err != nil {
			return err
		}
		wrote = true
		_, err = file.Write(append(line, '\n'))
		return err
	}
	if err := f(ts, appendOp); err != nil {
		return err
	}
	if wrote {
		return file.Sync()
	}
	return nil
}
