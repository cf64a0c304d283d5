package bearer

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestTokenLifecycle(t *testing.T) {
	home := t.TempDir()
	s := Open(home)
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	tok, e, err := s.Create("laptop", nil, 0, now)
	if err != nil || !e.Has(ScopeRead) || !e.Has(ScopeWrite) || !strings.HasPrefix(tok, "ctx_") {
		t.Fatal(tok, e, err)
	}
	data, _ := os.ReadFile(Path(home))
	if strings.Contains(string(data), tok[4:]) {
		t.Fatal("the secret is stored")
	}
	if fi, _ := os.Stat(Path(home)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if got, err := s.Check(tok, now); err != nil || got.ID != e.ID {
		t.Fatal(got, err)
	}
	ro, _, _ := s.Create("ro", []string{ScopeRead}, time.Hour, now)
	if got, _ := s.Check(ro, now); got.Has(ScopeWrite) {
		t.Fatal("read token has write")
	}
	if _, err := s.Check(ro, now.Add(2*time.Hour)); !errors.Is(err, ErrExpired) {
		t.Fatalf("expired = %v", err)
	}
	if _, err := s.Revoke("laptop", now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(tok, now); !errors.Is(err, ErrRevoked) {
		t.Fatalf("revoked = %v", err)
	}
	if _, err := s.Check("ctx_forged", now); !errors.Is(err, ErrUnknown) {
		t.Fatalf("unknown = %v", err)
	}
	if _, _, err := s.Create("x", []string{"admin"}, 0, now); !errors.Is(err, ErrScope) {
		t.Fatalf("scope = %v", err)
	}
	if _, err := s.Revoke("nope", now); !errors.Is(err, ErrNotFound) {
		t.Fatalf("revoke unknown = %v", err)
	}
}
