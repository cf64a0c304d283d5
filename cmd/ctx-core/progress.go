package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"ctx/ingest"
)

// importProgress draws the progress bar of a long import on a terminal:
// changed files read of those planned, their rate, the time left, and
// the events read so far. It draws on stderr only, and only when stderr is
// a terminal: a pipe, a log or the MCP server's stdio never see it.
type importProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar // made at the first report, when the total is known
}

// newImportProgress returns the bar, or nil (which draws nothing) when
// stderr is not a terminal.
func newImportProgress(env *Env, on bool) *importProgress {
	if !on || !env.IsTTY(env.Stderr) {
		return nil
	}
	return &importProgress{w: env.Stderr}
}

// update shows a progress report of the import.
func (p *importProgress) update(ip ingest.Progress) {
	if p == nil {
		return
	}
	desc := fmt.Sprintf("importing %s events", humanCount(ip.Events))
	if p.bar == nil {
		p.bar = progressbar.NewOptions(ip.FilesTotal, progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(desc), progressbar.OptionSetWidth(24),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("files"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	if int64(ip.FilesTotal) != p.bar.GetMax64() {
		p.bar.ChangeMax(ip.FilesTotal)
	}
	p.bar.Describe(desc)
	_ = p.bar.Set(ip.FilesDone)
}

// done clears the bar.
func (p *importProgress) done() {
	if p != nil && p.bar != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
}
