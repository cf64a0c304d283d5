package copilot

import (
	"cmp"
	"encoding/json"
	"strings"

	"ctx/core"
)

// fileArgs are the arguments of Copilot's file tools: view {path},
// create {path, file_text}, edit {path, old_str, new_str}, the older
// str_replace_editor {command, path, …} and apply_patch (a patch string or
// {input}).
type fileArgs struct {
	Command  string  `json:"command"`
	Path     string  `json:"path"`
	OldStr   *string `json:"old_str"`
	NewStr   *string `json:"new_str"`
	FileText *string `json:"file_text"`
	Input    string  `json:"input"`
	Patch    string  `json:"patch"`
}

// fileTouches returns the files a tool call reads or changes.
func fileTouches(name string, args json.RawMessage) []core.FileTouch {
	if name == "apply_patch" {
		return patchTouches(patchText(args))
	}
	var a fileArgs
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return nil
	}
	op := name
	if name == "str_replace_editor" {
		op = a.Command
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	switch op {
	case "view":
		return []core.FileTouch{{Path: a.Path, Op: core.OpRead}}
	case "create":
		return []core.FileTouch{{Path: a.Path, Op: core.OpCreate, NewText: str(a.FileText)}}
	case "edit", "str_replace", "insert":
		return []core.FileTouch{{Path: a.Path, Op: core.OpEdit, OldText: str(a.OldStr), NewText: str(a.NewStr)}}
	}
	return nil
}

// patchText reads an apply_patch call's patch: a JSON string, or the
// input or patch field of an object.
func patchText(args json.RawMessage) string {
	var a fileArgs
	if json.Unmarshal(args, &a) == nil {
		return cmp.Or(a.Input, a.Patch)
	}
	return jsonString(args)
}

// Patch file headers of the apply_patch format.
var patchHeaders = []struct{ prefix, op string }{
	{"*** Add File: ", core.OpCreate}, {"*** Update File: ", core.OpPatch}, {"*** Delete File: ", core.OpDelete},
}

// patchTouches splits an apply_patch patch into one touch per file, each
// with its own section; "*** Move to: " names an update's new path.
func patchTouches(patch string) []core.FileTouch {
	var out []core.FileTouch
	var section []string
	flush := func() {
		if len(out) > 0 && len(section) > 0 {
			out[len(out)-1].Patch = strings.Join(section, "\n") + "\n"
		}
		section = nil
	}
	for _, line := range strings.Split(patch, "\n") {
		if to, ok := strings.CutPrefix(line, "*** Move to: "); ok && len(out) > 0 {
			out[len(out)-1].MovedTo = strings.TrimSpace(to)
		}
		for _, h := range patchHeaders {
			if path, ok := strings.CutPrefix(line, h.prefix); ok && strings.TrimSpace(path) != "" {
				flush()
				out = append(out, core.FileTouch{Path: strings.TrimSpace(path), Op: h.op})
			}
		}
		if line != "*** End Patch" && len(out) > 0 {
			section = append(section, line)
		}
	}
	flush()
	return out
}
