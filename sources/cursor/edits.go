package cursor

import (
	"cmp"
	"encoding/json"
	"strings"

	"ctx/core"
)

// emptyContent is the content id of the empty file (the SHA-256 of "").
const emptyContent = prefixContent + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

// fileArgs are the path and text fields of Cursor's file tools across
// versions.
type fileArgs struct {
	RelativeWorkspacePath string `json:"relativeWorkspacePath"`
	TargetFile            string `json:"targetFile"`
	TargetFileSnake       string `json:"target_file"`
	FilePath              string `json:"file_path"`
	FilePathCamel         string `json:"filePath"`
	Path                  string `json:"path"`
	OldString             string `json:"old_string"`
	NewString             string `json:"new_string"`
	Contents              string `json:"contents"`
	CodeEdit              string `json:"code_edit"`
	CodeEditCamel         string `json:"codeEdit"`
}

func (a *fileArgs) path() string {
	for _, p := range []string{a.RelativeWorkspacePath, a.TargetFile, a.TargetFileSnake, a.FilePath,
		a.FilePathCamel, a.Path} {
		if p != "" {
			return p
		}
	}
	return ""
}

// fileOps are the file tools and the operation each performs.
var fileOps = map[string]string{
	"read_file": core.OpRead, "read_file_v2": core.OpRead, "read": core.OpRead,
	"delete_file": core.OpDelete,
	"edit_file":   core.OpEdit, "edit_file_v2": core.OpEdit, "search_replace": core.OpEdit,
	"write": core.OpWrite, "write_file": core.OpWrite, "create_file": core.OpWrite,
}

// fileTouches returns the file a file tool read or changed, with the text
// of the change.
func (b *sessionBuilder) fileTouches(c *call) []core.FileTouch {
	op, ok := fileOps[c.name]
	if !ok {
		return nil
	}
	var a fileArgs
	if json.Unmarshal(c.args, &a) != nil || a.path() == "" {
		return nil
	}
	ft := core.FileTouch{Path: joinPath(b.ps.Session.Workspace, a.path()), Op: op}
	switch {
	case c.name == "edit_file_v2":
		b.editV2(c, &ft)
	case op == core.OpWrite:
		ft.NewText = a.Contents
	case op == core.OpEdit:
		ft.OldText, ft.NewText = a.OldString, a.NewString
		if ft.NewText == "" {
			ft.NewText = cmp.Or(a.CodeEdit, a.CodeEditCamel)
		}
		ft.Patch = unifiedPatch(ft.Path, diffLines(c.tf.AdditionalData))
	}
	return []core.FileTouch{ft}
}

// editV2 fills an edit_file_v2 change: the before and after contents when
// their composer.content rows exist, and the precomputed diff as a patch.
// Without the after content, a new file's text is rebuilt from a complete
// diff; otherwise the patch alone is kept.
func (b *sessionBuilder) editV2(c *call, ft *core.FileTouch) {
	var r struct {
		Before string `json:"beforeContentId"`
		After  string `json:"afterContentId"`
	}
	_ = json.Unmarshal(c.result, &r)
	lines := diffLines(c.tf.AdditionalData)
	ft.Patch = unifiedPatch(ft.Path, lines)
	before, hasBefore := b.content(r.Before)
	after, hasAfter := b.content(r.After)
	switch {
	case hasAfter && hasBefore && before == "":
		ft.Op, ft.NewText = core.OpCreate, after
	case hasAfter && hasBefore:
		ft.OldText, ft.NewText = before, after
	case hasAfter:
		ft.Op, ft.NewText = core.OpWrite, after
	case hasBefore && before == "":
		if text, ok := newSide(lines); ok {
			ft.Op, ft.NewText = core.OpCreate, text
		} else if ft.Patch != "" {
			ft.Op = core.OpPatch
		}
	case ft.Patch != "":
		ft.Op = core.OpPatch
	}
}

// content returns a composer.content row (file contents by SHA-256).
func (b *sessionBuilder) content(id string) (string, bool) {
	if id == emptyContent {
		return "", true
	}
	if !strings.HasPrefix(id, prefixContent) {
		return "", false
	}
	v, ok, err := b.p.st.value(tableKV, id)
	if err != nil {
		if b.err == nil {
			b.err = err
		}
		return "", false
	}
	return string(v), ok && v != nil
}

// joinPath resolves a relative tool path against the workspace.
func joinPath(workspace, p string) string {
	if workspace == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) ||
		(len(p) > 1 && p[1] == ':') || strings.Contains(p, "://") {
		return p
	}
	sep := "/"
	if strings.Contains(workspace, `\`) && !strings.Contains(workspace, "/") {
		sep = `\`
	}
	return strings.TrimRight(workspace, sep) + sep + p
}
