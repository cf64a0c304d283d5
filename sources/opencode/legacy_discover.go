package opencode

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"ctx/core"
)

// storage adds one source per session of a legacy storage directory:
// session/<projectID>/<sessionID>.json, with every message file
// (message/<sessionID>/*.json) and part file (part/<messageID>/*.json) of
// the session as companions, since any of them changing changes the
// session. Message directories without a session and part directories
// without a message are counted as orphan problems. With migrated set (the
// session ids of opencode.db beside it), the sessions it holds are left to
// the database and orphans are not counted: OpenCode reads storage/ no
// more, and what is left of its migrated sessions is not history to read.
func (d *discovery) storage(root string, migrated map[string]bool) {
	sessions := map[string]bool{}
	messages := map[string]bool{}
	sessDir := filepath.Join(root, "session")
	for _, proj := range d.readDir(sessDir) {
		projDir := filepath.Join(sessDir, proj.Name())
		if !d.isDir(projDir, proj) {
			continue
		}
		for _, e := range d.readDir(projDir) {
			id, ok := strings.CutSuffix(e.Name(), ".json")
			path := filepath.Join(projDir, e.Name())
			if !ok || !d.isFile(path, e) || migrated[id] {
				continue
			}
			sessions[id] = true
			d.files = append(d.files, core.SourceFile{Provider: ProviderID, Path: path,
				Companions: d.sessionFiles(root, id, messages)})
		}
	}
	if migrated == nil {
		d.orphans(root, sessions, messages)
	}
}

// sessionFiles lists the message and part files of a session, recording
// its message ids.
func (d *discovery) sessionFiles(root, session string, messages map[string]bool) []string {
	var out []string
	for _, msg := range d.jsonFiles(filepath.Join(root, "message", session)) {
		out = append(out, msg)
		id := strings.TrimSuffix(filepath.Base(msg), ".json")
		messages[id] = true
		out = append(out, d.jsonFiles(filepath.Join(root, "part", id))...)
	}
	return out
}

// jsonFiles lists the *.json files of dir, sorted.
func (d *discovery) jsonFiles(dir string) []string {
	var out []string
	for _, e := range d.readDir(dir) {
		path := filepath.Join(dir, e.Name())
		if strings.HasSuffix(e.Name(), ".json") && d.isFile(path, e) {
			out = append(out, path)
		}
	}
	return out
}

// orphans counts message files whose session file is missing and part
// files whose message file is missing. OpenCode writes a message before
// its parts and deletes it before them, so these are left by interrupted
// deletions or caught mid-write; they are read once their owner exists.
func (d *discovery) orphans(root string, sessions, messages map[string]bool) {
	msgRoot := filepath.Join(root, "message")
	for _, e := range d.readDir(msgRoot) {
		if sessions[e.Name()] || !d.isDir(filepath.Join(msgRoot, e.Name()), e) {
			continue
		}
		for _, msg := range d.jsonFiles(filepath.Join(msgRoot, e.Name())) {
			messages[strings.TrimSuffix(filepath.Base(msg), ".json")] = true
			d.problem(ProblemOrphanMessage, msg)
		}
	}
	partRoot := filepath.Join(root, "part")
	for _, e := range d.readDir(partRoot) {
		if messages[e.Name()] || !d.isDir(filepath.Join(partRoot, e.Name()), e) {
			continue
		}
		for _, part := range d.jsonFiles(filepath.Join(partRoot, e.Name())) {
			d.problem(ProblemOrphanPart, part)
		}
	}
}

// isDir reports whether the entry is a directory, following symlinks.
func (d *discovery) isDir(path string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return e.IsDir()
	}
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
