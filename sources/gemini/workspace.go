package gemini

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
	"ctx/sources/regular"
)

// maxRootFile bounds the size of .project_root read (a path).
const maxRootFile = 64 << 10

// projectDirs returns the project directory (tmp/<slug or hash>) and the
// data directory of a chat path, or "" when the path is not in that layout.
func projectDirs(chat string) (project, data string) {
	dir := filepath.Dir(chat)
	if filepath.Base(dir) != chatsDir {
		dir = filepath.Dir(dir) // chats/<parent>/<id>.jsonl
	}
	if filepath.Base(dir) != chatsDir {
		return "", ""
	}
	project = filepath.Dir(dir)
	tmp := filepath.Dir(project)
	if filepath.Base(tmp) != tmpDir {
		return project, ""
	}
	return project, filepath.Dir(tmp)
}

// resolveWorkspace reads what names a chat's project root: the project
// directory's .project_root, else projects.json (by slug, and by hash for
// legacy directories and for the projectHash inside the chat). Missing
// files are not problems; unreadable or invalid ones are.
func resolveWorkspace(chat string) (Workspace, []core.Problem) {
	var ws Workspace
	project, data := projectDirs(chat)
	if project == "" {
		return ws, nil
	}
	var problems []core.Problem
	root, p := readProjectRoot(filepath.Join(project, projectRootFile))
	problems = append(problems, p...)
	if root != "" || data == "" {
		ws.Root = root
		return ws, problems
	}
	projects, p := readProjects(filepath.Join(data, projectsFile))
	problems = append(problems, p...)
	slug := filepath.Base(project)
	for path, s := range projects {
		if s == slug && (ws.Root == "" || path < ws.Root) {
			ws.Root = path
		}
		if ws.ByHash == nil {
			ws.ByHash = make(map[string]string, len(projects))
		}
		ws.ByHash[projectHash(path)] = path
	}
	if ws.Root == "" {
		ws.Root = ws.ByHash[slug]
	}
	return ws, problems
}

// projectHash is Gemini's project hash: the hex sha256 of the root path.
func projectHash(root string) string {
	h := sha256.Sum256([]byte(root))
	return hex.EncodeToString(h[:])
}

func readProjectRoot(path string) (string, []core.Problem) {
	data, err := regular.ReadFile(path)
	if err != nil {
		return "", fileProblem(path, err)
	}
	if len(data) > maxRootFile {
		return "", []core.Problem{{Code: core.ProblemInvalidRecord, Provider: ProviderID, Path: path}}
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(data), "")), nil
}

// readProjects reads projects.json: {"projects":{"<root>":"<slug>"}}.
func readProjects(path string) (map[string]string, []core.Problem) {
	data, err := regular.ReadFile(path)
	if err != nil {
		return nil, fileProblem(path, err)
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if code := jsonx.Unmarshal(data, &reg); code != "" {
		return nil, []core.Problem{{Code: code, Provider: ProviderID, Path: path}}
	}
	return reg.Projects, nil
}

// fileProblem reports an unreadable file; a missing one is no problem.
func fileProblem(path string, err error) []core.Problem {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return []core.Problem{{Code: core.ProblemUnreadable, Provider: ProviderID, Path: path}}
}
