package opencode

import (
	"encoding/json"
	"path"
	"strings"

	"ctx/core"
	"ctx/sources/applypatch"
)

// fileInput is the union of the file tools' arguments.
type fileInput struct {
	FilePath  string `json:"filePath"`
	OldString string `json:"oldString"`
	NewString string `json:"newString"`
	Content   string `json:"content"`
	PatchText string `json:"patchText"`
	Edits     []struct {
		FilePath  string `json:"filePath"`
		OldString string `json:"oldString"`
		NewString string `json:"newString"`
	} `json:"edits"`
}

// fileMeta is the union of the file tools' metadata: write says whether
// the file existed; apply_patch lists every file with its diff.
type fileMeta struct {
	Exists *bool `json:"exists"`
	Files  []struct {
		FilePath string `json:"filePath"`
		Type     string `json:"type"` // add, update, delete, move
		Patch    string `json:"patch"`
		Diff     string `json:"diff"`
		MovePath string `json:"movePath"`
	} `json:"files"`
}

// touches lists the files a tool call reads or changes: edit and multiedit
// keep old and new text, write the new content, apply_patch and patch each
// file's hunks. Relative paths are resolved against the message's cwd.
func touches(tool string, rawIn, rawMeta json.RawMessage, cwd string) []core.FileTouch {
	switch tool {
	case "read", "edit", "write", "multiedit", "patch", "apply_patch":
	default:
		return nil
	}
	var in fileInput
	if json.Unmarshal(rawIn, &in) != nil {
		return nil
	}
	var meta fileMeta
	_ = json.Unmarshal(rawMeta, &meta)
	fp := resolve(in.FilePath, cwd)
	switch tool {
	case "read":
		return one(fp, core.FileTouch{Op: core.OpRead})
	case "edit":
		return one(fp, core.FileTouch{Op: core.OpEdit, OldText: in.OldString, NewText: in.NewString})
	case "write":
		op := core.OpWrite
		if meta.Exists != nil && !*meta.Exists {
			op = core.OpCreate
		}
		return one(fp, core.FileTouch{Op: op, NewText: in.Content})
	case "multiedit":
		var out []core.FileTouch
		for _, e := range in.Edits {
			p := fp
			if e.FilePath != "" {
				p = resolve(e.FilePath, cwd)
			}
			out = append(out, one(p, core.FileTouch{Op: core.OpEdit, OldText: e.OldString, NewText: e.NewString})...)
		}
		return out
	}
	if t := metaPatchFiles(&meta, cwd); len(t) > 0 {
		return t
	}
	return applypatch.Parse(in.PatchText, func(p string) string { return resolve(p, cwd) })
}

func one(p string, t core.FileTouch) []core.FileTouch {
	if p == "" {
		return nil
	}
	t.Path = p
	return []core.FileTouch{t}
}

// resolve makes a relative path absolute against cwd, as OpenCode does.
func resolve(p, cwd string) string {
	p = strings.TrimSpace(p)
	if p == "" || cwd == "" || path.IsAbs(p) || isWindowsAbs(p) {
		return p
	}
	return path.Join(cwd, p)
}

func isWindowsAbs(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// patchOps maps apply_patch metadata file types to file operations.
var patchOps = map[string]string{"add": core.OpCreate, "update": core.OpPatch, "delete": core.OpDelete,
	"move": core.OpMove}

// metaPatchFiles reads the per-file diffs apply_patch records in its
// metadata (absolute paths, unified diffs).
func metaPatchFiles(meta *fileMeta, cwd string) []core.FileTouch {
	var out []core.FileTouch
	for _, f := range meta.Files {
		op, ok := patchOps[f.Type]
		if !ok {
			op = core.OpPatch
		}
		patch := f.Patch
		if patch == "" {
			patch = f.Diff
		}
		t := core.FileTouch{Op: op, Patch: patch}
		if f.MovePath != "" {
			t.Op, t.MovedTo = core.OpMove, resolve(f.MovePath, cwd)
		}
		out = append(out, one(resolve(f.FilePath, cwd), t)...)
	}
	return out
}
