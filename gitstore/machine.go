package gitstore

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"ctx/objects"
)

// MachineFile is the file under $CTX_HOME holding the machine id.
const MachineFile = "machine-id"

var machineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`) })

// ErrInvalidMachine is returned for a machine id that is not 1-63 of
// a-z 0-9 and '-', starting with a letter or digit.
var ErrInvalidMachine = errors.New("gitstore: invalid machine id")

// ValidMachine reports whether s can be a machine id (and a ref component).
func ValidMachine(s string) bool { return machineRE().MatchString(s) }

// Machine returns the machine id of the store in home, creating it on first
// use from the host name and random hex (for example "laptop-3f9a2c1b").
func Machine(home, hostname string) (string, error) {
	p := filepath.Join(home, MachineFile)
	b, err := os.ReadFile(p)
	if err == nil {
		id := strings.TrimSpace(string(b))
		if !ValidMachine(id) {
			return "", fmt.Errorf("%w: %q in %s", ErrInvalidMachine, id, p)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("gitstore: machine id: %w", err)
	}
	id := newMachineID(hostname)
	if err := writeFileAtomic(p, []byte(id+"\n")); err != nil {
		return "", fmt.Errorf("gitstore: machine id: %w", err)
	}
	return id, nil
}

// ExistingMachine returns the machine id of home, or "" when none was made.
func ExistingMachine(home string) string {
	b, err := os.ReadFile(filepath.Join(home, MachineFile))
	if err != nil {
		return ""
	}
	if id := strings.TrimSpace(string(b)); ValidMachine(id) {
		return id
	}
	return ""
}

func newMachineID(hostname string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(hostname) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-' || r == '.' || r == '_':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		}
		if b.Len() >= 40 {
			break
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		name = "machine"
	}
	var r [4]byte
	_, _ = rand.Read(r[:])
	return name + "-" + hex.EncodeToString(r[:])
}

// writeFileAtomic writes data to p (0600) through a temp file, fsync and
// rename, creating p's directory (0700).
func writeFileAtomic(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return objects.ReplaceFile(p, data)
}
