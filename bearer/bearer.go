package bearer

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Scopes.
const (
	ScopeRead  = "read:context"
	ScopeWrite = "write:sessions"
)

// Scopes lists every scope.
var Scopes = []string{ScopeRead, ScopeWrite}

// Errors of Check and the registry.
var (
	ErrUnknown  = errors.New("unknown token")
	ErrRevoked  = errors.New("token revoked")
	ErrExpired  = errors.New("token expired")
	ErrScope    = errors.New("unknown scope: want read:context or write:sessions")
	ErrNotFound = errors.New("no token with that id or name")
)

// Path is the token file under $CTX_HOME.
func Path(home string) string { return filepath.Join(home, "tokens.json") }

// Entry is one stored token (never the secret).
type Entry struct {
	ID      string     `json:"id"`
	Name    string     `json:"name"`
	Hash    string     `json:"sha256"`
	Scopes  []string   `json:"scopes"`
	Created time.Time  `json:"created"`
	Expires *time.Time `json:"expires"`
	Revoked *time.Time `json:"revoked"`
}

// Has reports whether the entry grants scope.
func (e *Entry) Has(scope string) bool { return slices.Contains(e.Scopes, scope) }

// State is active, expired or revoked at now.
func (e *Entry) State(now time.Time) string {
	switch {
	case e.Revoked != nil:
		return "revoked"
	case e.Expires != nil && !now.Before(*e.Expires):
		return "expired"
	}
	return "active"
}

// Store is the token file of one $CTX_HOME.
type Store struct {
	path string
	mu   sync.Mutex
}

// Open returns the store of home without creating anything.
func Open(home string) *Store { return &Store{path: Path(home)} }

type file struct {
	Tokens []Entry `json:"tokens"`
}

func (s *Store) load() (*file, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return &file{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tokens: %w", err)
	}
	f := &file{}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, fmt.Errorf("tokens: %s is not a token file: %w", s.path, err)
	}
	return f, nil
}

// save writes the file atomically (temp, fsync, rename), 0600.
func (s *Store) save(f *file) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return fmt.Errorf("tokens: %w", err)
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp := s.path + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("tokens: %w", err)
	}
	if _, err := out.Write(data); err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("tokens: %w", err)
	}
	return os.Rename(tmp, s.path)
}

// Create makes a token with the scopes (both when empty) and an optional
// lifetime, stores its hash and returns the secret, which is never stored.
func (s *Store) Create(name string, scopes []string, ttl time.Duration, now time.Time) (string, Entry, error) {
	if len(scopes) == 0 {
		scopes = Scopes
	}
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return "", Entry{}, fmt.Errorf("%w: %q", ErrScope, sc)
		}
	}
	secret, id := make([]byte, 32), make([]byte, 6)
	if _, err := rand.Read(secret); err != nil {
		return "", Entry{}, err
	}
	if _, err := rand.Read(id); err != nil {
		return "", Entry{}, err
	}
	token := "ctx_" + base64.RawURLEncoding.EncodeToString(secret)
	e := Entry{ID: "tok_" + hex.EncodeToString(id), Name: name, Hash: hash(token), Scopes: slices.Compact(slices.Sorted(slices.Values(scopes))),
		Created: now.UTC()}
	if e.Name == "" {
		e.Name = e.ID
	}
	if ttl > 0 {
		exp := now.Add(ttl).UTC()
		e.Expires = &exp
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return "", Entry{}, err
	}
	f.Tokens = append(f.Tokens, e)
	return token, e, s.save(f)
}

// List returns every token entry, oldest first.
func (s *Store) List() ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return nil, err
	}
	return f.Tokens, nil
}

// Revoke marks the token with that id or name revoked.
func (s *Store) Revoke(idOrName string, now time.Time) (Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.load()
	if err != nil {
		return Entry{}, err
	}
	for i := range f.Tokens {
		e := &f.Tokens[i]
		if (e.ID == idOrName || e.Name == idOrName) && e.Revoked == nil {
			at := now.UTC()
			e.Revoked = &at
			return *e, s.save(f)
		}
	}
	return Entry{}, fmt.Errorf("%w: %s", ErrNotFound, idOrName)
}

// Check resolves a presented token at now. The file is read on every call
// so that a revocation by another process applies to the next request.
func (s *Store) Check(token string, now time.Time) (Entry, error) {
	token = strings.TrimSpace(token)
	h := hash(token)
	list, err := s.List()
	if err != nil {
		return Entry{}, err
	}
	for _, e := range list {
		if subtle.ConstantTimeCompare([]byte(e.Hash), []byte(h)) != 1 {
			continue
		}
		switch e.State(now) {
		case "revoked":
			return e, ErrRevoked
		case "expired":
			return e, ErrExpired
		}
		return e, nil
	}
	return Entry{}, ErrUnknown
}

func hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
