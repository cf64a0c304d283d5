package gemini

import (
	"encoding/json"
	"strings"

	"ctx/core"
	"ctx/sources/jsonx"
)

// fileDisplay is the resultDisplay of an edit or write: the absolute path
// Gemini CLI resolved, and whether the file was new.
type fileDisplay struct {
	FilePath  string `json:"filePath"`
	IsNewFile *bool  `json:"isNewFile"`
}

// createdPrefix starts the result of a write_file that made a new file.
const createdPrefix = "Successfully created and wrote to new file"

// fileTouches returns the file a call read or changed, with the edit text.
// Edits and writes that failed or were cancelled changed nothing and list
// no file.
func fileTouches(c *call) []core.FileTouch {
	name, a := c.tc.Name, &c.args
	path := a.path()
	if path == "" {
		return nil
	}
	changes := editTools[name] || writeTools[name]
	if !changes {
		if readTools[name] {
			return []core.FileTouch{{Path: path, Op: core.OpRead}}
		}
		return nil
	}
	if c.failed {
		return nil
	}
	var disp fileDisplay
	if jsonx.FirstByte(c.tc.ResultDisplay) == '{' {
		_ = json.Unmarshal(c.tc.ResultDisplay, &disp)
	}
	if !isAbs(path) && isAbs(disp.FilePath) {
		path = disp.FilePath
	}
	if writeTools[name] {
		t := core.FileTouch{Path: path, Op: core.OpWrite, NewText: deref(a.Content)}
		if (disp.IsNewFile != nil && *disp.IsNewFile) || strings.HasPrefix(c.result.text, createdPrefix) {
			t.Op = core.OpCreate
		}
		return []core.FileTouch{t}
	}
	if a.OldString == nil && a.NewString == nil {
		return []core.FileTouch{{Path: path, Op: core.OpEdit}}
	}
	if deref(a.OldString) == "" {
		// replace with an empty old_string creates the file.
		return []core.FileTouch{{Path: path, Op: core.OpCreate, NewText: deref(a.NewString)}}
	}
	return []core.FileTouch{{Path: path, Op: core.OpEdit, OldText: *a.OldString, NewText: deref(a.NewString)}}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// isAbs reports whether p is absolute on POSIX or Windows (the chat may
// come from either), whatever system ctx runs on.
func isAbs(p string) bool {
	switch {
	case strings.HasPrefix(p, "/"), strings.HasPrefix(p, `\\`):
		return true
	case len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'):
		c := p[0] | 0x20
		return c >= 'a' && c <= 'z'
	}
	return false
}
