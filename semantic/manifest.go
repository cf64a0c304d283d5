package semantic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"ctx/objects"
)

// Manifest lists the vector sets that cover one generation: every
// transcript event of its tree has exactly one live row in them. It is a
// sidecar file keyed by the generation id, written once the sets are
// complete; a reader pinned to a generation reads that generation's
// manifest or finds none (the vectors are not built yet).
type Manifest struct {
	Format     int        `json:"format"`
	Generation objects.ID `json:"generation"`
	Number     uint64     `json:"number"`
	Embedder   string     `json:"embedder"`
	Dim        int        `json:"dim"`
	Sets       []SetRef   `json:"sets"`
	// Vectors counts the live rows of the sets.
	Vectors int       `json:"vectors"`
	Created time.Time `json:"created"`
	Sum     string    `json:"sum,omitempty"` // see sealed.go
}

// SetRef is a set as a manifest uses it.
type SetRef struct {
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Chunks int    `json:"chunks"`
	// Generation is the number of the generation whose build wrote the set.
	Generation uint64 `json:"generation"`
	// Dead lists the indexes in the set's chunk table of chunks that are no
	// longer in this generation (rewritten or gone); their rows are skipped.
	Dead []uint32 `json:"dead_chunks,omitempty"`
}

// ErrNotBuilt means the generation has no vectors (yet).
var ErrNotBuilt = errors.New("semantic: no vectors for this generation")

// Vector sets live in the vectors directory (store.Layout.Vectors): <set>/, beside the index
// shards, with the manifests under generations/.
func manifestDir(dir string) string { return filepath.Join(dir, "generations") }

func manifestPath(dir string, gen objects.ID) string {
	return filepath.Join(manifestDir(dir), gen.String()+".json")
}

// LoadManifest reads the manifest of a generation; ErrNotBuilt when it has
// none.
func LoadManifest(dir string, gen objects.ID) (*Manifest, error) {
	data, err := os.ReadFile(manifestPath(dir, gen))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotBuilt
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Format != setFormat || m.Generation != gen || !sealed(data, &m, &m.Sum) {
		return nil, fmt.Errorf("%w: manifest of generation %s", ErrDamaged, gen.Short())
	}
	return &m, nil
}

// writeManifest publishes a manifest: a temporary file synced and renamed
// over any previous manifest of the generation.
func writeManifest(vectors string, m *Manifest) error {
	dir := manifestDir(vectors)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data, err := sealJSON(m, &m.Sum)
	if err != nil {
		return err
	}
	final := manifestPath(vectors, m.Generation)
	tmp := final + ".tmp"
	if err := writeFileSync(tmp, data); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return objects.SyncDir(dir)
}

// Compatible reports whether vectors of the manifest can be compared with
// vectors of the embedder: the same id, and the same dimension when the
// embedder knows its own.
func (m *Manifest) Compatible(e Embedder) bool {
	return m.Embedder == e.ID() && (e.Dim() == 0 || e.Dim() == m.Dim)
}

// SetNames lists the sets of the manifest, for garbage collection: a set
// that no kept generation's manifest names can be removed.
func (m *Manifest) SetNames() []string {
	out := make([]string, len(m.Sets))
	for i, s := range m.Sets {
		out[i] = s.Name
	}
	return out
}
