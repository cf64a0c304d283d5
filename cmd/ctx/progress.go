package main

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"

	"ctx/ingest"
)

// importProgress draws the progress bar of a long import on a terminal:
// changed files read of those planned, their rate, the time left, and
// the events read so far. It draws on stderr only, and only when stderr is
// a terminal: a pipe, a log or the MCP server's stdio never see it.
type importProgress struct {
	bar *progressbar.ProgressBar
}

// newImportProgress returns the bar, or nil (which draws nothing) when
// stderr is not a terminal.
func newImportProgress(env *Env, on bool) *importProgress {
	if !on || !env.IsTTY(env.Stderr) {
		return nil
	}
	return &importProgress{bar: progressbar.NewOptions(-1, progressbar.OptionSetWriter(env.Stderr),
		progressbar.OptionSetDescription("importing"), progressbar.OptionSetWidth(24),
		progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("files"),
		progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish())}
}

// update shows a progress report of the import.
func (p *importProgress) update(ip ingest.Progress) {
	if p == nil {
		return
	}
	if int64(ip.FilesTotal) != p.bar.GetMax64() {
		p.bar.ChangeMax(ip.FilesTotal)
	}
	p.bar.Describe(fmt.Sprintf("importing %s events", humanCount(ip.Events)))
	_ = p.bar.Set(ip.FilesDone)
}

// done clears the bar.
func (p *importProgress) done() {
	if p != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
}
