package app

import (
	"context"
	"io"

	"ctx/core"
	"ctx/export"
)

// ExportOptions say what of a session to export and how.
type ExportOptions = export.Options

// Export formats.
const (
	ExportMarkdown = export.Markdown
	ExportHTML     = export.HTML
	ExportJSONL    = export.JSONL
	// ExportDefaultClip is the most bytes of one tool output shown.
	ExportDefaultClip = export.DefaultClip
)

// ParseExportRange reads FIRST-LAST event ordinals (either side may be
// empty); "" is the whole session.
func ParseExportRange(s string) (from, to int, err error) { return export.ParseRange(s) }

// Export streams the session id of the pinned generation to w as a
// transcript document, one chunk at a time. Resolve the id first
// (Pinned.ResolveSession) so that a bad id fails before a file is created.
func (p *Pinned) Export(ctx context.Context, w io.Writer, id core.SessionID, opts ExportOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return export.Write(w, p.r, id, opts)
}
