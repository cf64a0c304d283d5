package mcp

import (
	"context"
	"maps"
	"slices"

	"ctx/app"
)

const statusDescription = "Report the state of the local ctx history store: the active generation " +
	"(sessions, events, when it was imported), per-source counts and import problems, the search index, " +
	"semantic vectors, the upgrade state (formats, pending rebuilds), the attribution state of the " +
	"server's git repository (ctx hooks installed, commits with ctx notes), the daemon and compact local " +
	"usage accounting: the same read model as ctx status --format json. Call it first when search finds " +
	"nothing, to check whether history has been imported. It only reads; it never imports or refreshes " +
	"anything. read_only is always true."

// statusInput takes no arguments.
type statusInput struct{}

// StatusOutput is the CLI status read model (ctx status --format json),
// unchanged.
type StatusOutput = app.StatusReport

func statusTool() toolDef {
	return defineTool[statusInput, StatusOutput]("status", "Store status", statusDescription, nil, runStatus)
}

func runStatus(ctx context.Context, s *Server, _ *statusInput) (*reply, error) {
	out, err := s.app.Status(ctx, s.cfg.Dir)
	return answer(out, err, renderStatus)
}

func renderStatus(out *StatusOutput) string {
	t := newText()
	if out.Generation == nil {
		t.linef("Nothing imported yet: run ctx import in a terminal, then search.")
	} else {
		g := out.Generation
		t.linef("Generation %d, imported %s: %d sessions, %d events.", g.Number,
			g.Created.Format("2006-01-02 15:04:05Z07:00"), g.Sessions, g.Events)
		t.linef("Index: %d shards, %d documents.", out.Index.Shards, out.Index.Docs)
	}
	for _, src := range out.Sources {
		name := src.Provider
		if src.Root != "" {
			name += " (root " + src.Root + ")"
		}
		t.linef("Source %s: %d files, %d sessions, %d events.", name, src.Files, src.Sessions, src.Events)
	}
	codes := slices.Sorted(maps.Keys(out.Problems))
	for _, c := range codes {
		t.linef("Problem %s: %d (the good records were imported).", c, out.Problems[c])
	}
	return t.String() // local_usage stays machine-only (spec 000)
}
