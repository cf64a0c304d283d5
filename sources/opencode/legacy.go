package opencode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctx/core"
	"ctx/sources/regular"
)

// maxParentDepth bounds the walk up a legacy session's parent chain.
const maxParentDepth = 64

// parseLegacy reads a legacy session file, its messages and their parts.
// The storage root is three levels above the session file
// (<root>/session/<projectID>/<sessionID>.json). Ids come from file
// names, as OpenCode's own migration takes them.
func parseLegacy(f core.SourceFile) (core.ParseResult, error) {
	data, err := regular.ReadFile(f.Path)
	if err != nil {
		return core.ParseResult{}, fmt.Errorf("opencode: read session: %w", err)
	}
	b := newBuilder(f)
	var s legacySession
	if code, ok := decodeObject(data, &s); !ok {
		b.problem(code, "")
		return b.finish(), nil
	}
	id := strings.TrimSuffix(filepath.Base(f.Path), ".json")
	root := filepath.Dir(filepath.Dir(filepath.Dir(f.Path)))
	b.addSession(SessionRow{ID: id, ParentID: s.ParentID, Directory: s.Directory, Title: s.Title,
		Created: int64(s.Time.Created)})
	legacyParents(b, filepath.Dir(f.Path), s.ParentID)
	for _, p := range legacyMessages(b, root, id) {
		b.at = p.path
		b.addPart(p.row)
	}
	b.at = ""
	return b.finish(), nil
}

// partFile is a legacy part read ahead of its addition.
type partFile struct {
	path string
	row  PartRow
}

// legacyMessages adds the messages of a session and returns their parts,
// to be added once every message is known.
func legacyMessages(b *builder, root, session string) []partFile {
	var parts []partFile
	for _, name := range legacyFiles(b, filepath.Join(root, "message", session)) {
		msgID := strings.TrimSuffix(name, ".json")
		path := filepath.Join(root, "message", session, name)
		if data, ok := readLegacy(b, path); ok {
			b.at = path
			b.addMessage(MessageRow{ID: msgID, SessionID: session, Data: data})
		}
		for _, pname := range legacyFiles(b, filepath.Join(root, "part", msgID)) {
			path := filepath.Join(root, "part", msgID, pname)
			if data, ok := readLegacy(b, path); ok {
				parts = append(parts, partFile{path, PartRow{ID: strings.TrimSuffix(pname, ".json"),
					MessageID: msgID, Data: data}})
			}
		}
	}
	return parts
}

// legacyFiles lists the *.json names of dir, sorted; a missing directory
// is empty.
func legacyFiles(b *builder, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		b.problem(core.ProblemUnreadable, dir)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// readLegacy reads one message or part file; one that vanished or cannot
// be read is a problem.
func readLegacy(b *builder, path string) ([]byte, bool) {
	data, err := regular.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.problem(core.ProblemFileVanished, path)
		return nil, false
	case err != nil:
		b.problem(core.ProblemUnreadable, path)
		return nil, false
	}
	return data, true
}

// legacyParents records the parent chain of a session for root
// resolution, reading each ancestor's session file from the session's
// project directory, else from any project directory.
func legacyParents(b *builder, projDir, parent string) {
	sessDir := filepath.Dir(projDir)
	for depth := 0; validID(parent) && depth < maxParentDepth; depth++ {
		if _, known := b.parents[parent]; known {
			return
		}
		next, ok := readParent(filepath.Join(projDir, parent+".json"))
		if !ok {
			matches, _ := filepath.Glob(filepath.Join(sessDir, "*", parent+".json"))
			if len(matches) == 0 {
				return
			}
			next, _ = readParent(matches[0])
		}
		b.addParent(parent, next)
		parent = next
	}
}

func readParent(path string) (string, bool) {
	data, err := regular.ReadFile(path)
	if err != nil {
		return "", false
	}
	var s struct {
		ParentID string `json:"parentID"`
	}
	_ = json.Unmarshal(data, &s)
	return s.ParentID, true
}

// validID reports whether id can name a file: OpenCode ids are
// [A-Za-z0-9_-] ("ses_…").
func validID(id string) bool {
	if id == "" {
		return false
	}
	for _, c := range id {
		if !(c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
