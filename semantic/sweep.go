package semantic

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"ctx/objects"
)

// Sweep removes the manifests of generations not in keep and then every set
// directory that no remaining manifest names, and returns how many sets it
// removed. Callers hold the store's writer lock (like gc of the shards).
func Sweep(dir string, keep []objects.ID) (int, error) {
	kept := map[string]bool{}
	for _, id := range keep {
		kept[id.String()+".json"] = true
	}
	entries, err := os.ReadDir(manifestDir(dir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	named := map[string]bool{}
	for _, e := range entries {
		if !kept[e.Name()] {
			_ = os.Remove(filepath.Join(manifestDir(dir), e.Name()))
			continue
		}
		id, err := objects.ParseID(strings.TrimSuffix(e.Name(), ".json"))
		if err != nil {
			continue
		}
		m, err := LoadManifest(dir, id)
		if err != nil {
			return 0, err // never remove sets a damaged manifest may name
		}
		for _, n := range m.SetNames() {
			named[n] = true
		}
	}
	sets, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, err
	}
	removed := 0
	for _, e := range sets {
		if e.IsDir() && validSetName(e.Name()) && !named[e.Name()] {
			if os.RemoveAll(filepath.Join(dir, e.Name())) == nil {
				removed++
			}
		}
	}
	return removed, nil
}
