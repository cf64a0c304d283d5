package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"
)

// IdentityFile is the age identity of a store, under $CTX_HOME/sync (0600).
const IdentityFile = "identity.age"

var (
	// ErrNoKey is returned when an encrypted remote is read without an
	// identity that opens it (none imported, or another one).
	ErrNoKey = errors.New("the remote is encrypted and this store holds no key that opens it (ctx sync key import)")
	// ErrInvalidKey is returned by ImportKey for text that is not an age
	// X25519 identity.
	ErrInvalidKey = errors.New("not an age identity (AGE-SECRET-KEY-1…)")
)

// Key is the age identity that seals and opens the blobs of encrypted
// remotes. Every machine of a team imports the same one.
type Key struct{ id *age.X25519Identity }

func identityPath(home string) string { return filepath.Join(home, "sync", IdentityFile) }

// LoadKey returns the store's key, or ErrNoKey when none exists.
func LoadKey(home string) (*Key, error) {
	b, err := os.ReadFile(identityPath(home))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoKey
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: key: %w", err)
	}
	return parseKey(string(b))
}

// EnsureKey returns the store's key, generating one on first use.
func EnsureKey(home string, now time.Time) (*Key, error) {
	k, err := LoadKey(home)
	if !errors.Is(err, ErrNoKey) {
		return k, err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, fmt.Errorf("gitstore: key: %w", err)
	}
	k = &Key{id: id}
	return k, writeFileAtomic(identityPath(home), k.file(now))
}

// ImportKey replaces the store's key by the identity in text (what
// ExportKey printed on another machine).
func ImportKey(home, text string, now time.Time) (*Key, error) {
	k, err := parseKey(text)
	if err != nil {
		return nil, err
	}
	return k, writeFileAtomic(identityPath(home), k.file(now))
}

func parseKey(text string) (*Key, error) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, err := age.ParseX25519Identity(line)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidKey, err)
		}
		return &Key{id: id}, nil
	}
	return nil, ErrInvalidKey
}

// file is the identity file's text, in age-keygen's layout.
func (k *Key) file(now time.Time) []byte {
	return []byte(fmt.Sprintf("# created: %s\n# public key: %s\n%s\n",
		now.UTC().Format(time.RFC3339), k.id.Recipient(), k.id))
}

// Export returns the identity file's text, for ctx sync key import.
func (k *Key) Export() string { return string(k.file(time.Now())) }

// Recipient is the public half, printable.
func (k *Key) Recipient() string { return k.id.Recipient().String() }

// seal encrypts b to the key's recipient.
func (k *Key) seal(b []byte) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(b) + 256)
	w, err := age.Encrypt(&out, k.id.Recipient())
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// open decrypts b; a key that does not open it is ErrNoKey.
func (k *Key) open(b []byte) ([]byte, error) {
	if k == nil {
		return nil, ErrNoKey
	}
	r, err := age.Decrypt(bytes.NewReader(b), k.id)
	if err != nil {
		var nm *age.NoIdentityMatchError
		if errors.As(err, &nm) {
			return nil, ErrNoKey
		}
		return nil, err
	}
	return io.ReadAll(r)
}
