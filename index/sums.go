package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"ctx/objects"
)

// SumsFile is the checksum list a shard carries from the moment it is
// sealed: every other file of the shard with its size and blake3. The
// generation records the list's own hash (ShardMeta.Sums), so verify
// detects a flipped byte or a cut anywhere in the shard, the list
// included; opening a shard checks the sizes only.
const SumsFile = "ctx-sums.json"

// fileSum is one file of a shard.
type fileSum struct {
	Path string     `json:"path"` // relative, slash-separated
	Size int64      `json:"size"`
	Sum  objects.ID `json:"blake3"`
}

type sums struct {
	Files []fileSum `json:"files"`
}

// writeSums hashes every file under dir and writes the list as SumsFile;
// it returns the list's hash. seal makes it private and durable.
func writeSums(dir string) (objects.ID, error) {
	var list sums
	err := walkFiles(dir, func(rel, p string) error {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sum, n, err := objects.HashReader(f)
		if err != nil {
			return err
		}
		list.Files = append(list.Files, fileSum{Path: rel, Size: n, Sum: sum})
		return nil
	})
	if err != nil {
		return objects.ID{}, err
	}
	data, err := json.Marshal(list)
	if err != nil {
		return objects.ID{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, SumsFile), data, 0o600); err != nil {
		return objects.ID{}, err
	}
	return objects.Hash(data), nil
}

// walkFiles calls fn for every file under dir but SumsFile, in lexical
// order, with its slash-separated relative path.
func walkFiles(dir string, fn func(rel, path string) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel = filepath.ToSlash(rel); rel == SumsFile {
			return nil
		}
		return fn(rel, p)
	})
}

// errNoSums marks a shard sealed before checksums were recorded.
var errNoSums = errors.New("no checksums recorded")

// readSums reads a shard's checksum list; want, when set, is the hash the
// generation recorded for it.
func readSums(dir string, want *objects.ID) (*sums, error) {
	data, err := os.ReadFile(filepath.Join(dir, SumsFile))
	if errors.Is(err, fs.ErrNotExist) && want == nil {
		return nil, errNoSums
	}
	if err != nil {
		return nil, err
	}
	if want != nil && objects.Hash(data) != *want {
		return nil, fmt.Errorf("%s does not match the checksum the generation recorded", SumsFile)
	}
	var list sums
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", SumsFile, err)
	}
	return &list, nil
}

// checkSums compares the files under dir with the list: the same set of
// files, each of its recorded size and, when full, its recorded blake3.
func checkSums(dir string, list *sums, full bool) error {
	want := make(map[string]fileSum, len(list.Files))
	for _, f := range list.Files {
		want[f.Path] = f
	}
	var extra []string
	err := walkFiles(dir, func(rel, p string) error {
		w, ok := want[rel]
		if !ok {
			extra = append(extra, rel)
			return nil
		}
		delete(want, rel)
		return checkFile(p, w, full)
	})
	if err != nil {
		return err
	}
	if len(want) > 0 {
		var missing []string
		for rel := range want {
			missing = append(missing, rel)
		}
		slices.Sort(missing)
		return fmt.Errorf("file %s is missing", missing[0])
	}
	if len(extra) > 0 {
		return fmt.Errorf("file %s was not there when the shard was sealed", extra[0])
	}
	return nil
}

func checkFile(p string, w fileSum, full bool) error {
	f, size, err := openSized(p)
	if err != nil {
		return err
	}
	defer f.Close()
	if size != w.Size {
		return fmt.Errorf("file %s holds %d bytes, %d when sealed", w.Path, size, w.Size)
	}
	if !full {
		return nil
	}
	sum, _, err := objects.HashReader(f)
	if err != nil {
		return err
	}
	if sum != w.Sum {
		return fmt.Errorf("file %s does not match its checksum", w.Path)
	}
	return nil
}

// openSized opens a file and returns its size.
func openSized(p string) (*os.File, int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}
