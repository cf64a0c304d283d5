package mcp

import (
	"context"
	"ctx/app"
)

const sourcesDescription = "List the local agent history sources ctx discovers: each built-in provider's " +
	"default location (automatic rows), configured roots with their group (configured rows) and plugin " +
	"sources, whether each is present, how many history files it holds, and bounded discovery issues with " +
	"stable codes. Use the root and non-null group values of configured rows as search source_roots and " +
	"source_groups. It reads no history content."

// sourcesInput takes no arguments.
type sourcesInput struct{}

func sourcesTool() toolDef {
	return defineTool[sourcesInput, app.SourcesReport]("sources", "Agent history sources", sourcesDescription, nil, runSources)
}

// runSources builds the sources read model exactly as ctx sources does.
func runSources(ctx context.Context, s *Server, _ *sourcesInput) (*reply, error) {
	rep, err := s.app.Sources(ctx)
	return answer(rep, err, renderSources)
}

func renderSources(rep *app.SourcesReport) string {
	t := newText()
	if !rep.AutomaticDiscovery {
		t.linef("Automatic discovery is off (config.toml); only configured roots and plugins are read.")
	}
	for _, row := range rep.Sources {
		name := row.Provider + " " + row.Selection.Kind
		if row.Selection.Root != nil {
			name += " root=" + *row.Selection.Root
		}
		if row.Selection.Group != nil {
			name += " group=" + *row.Selection.Group
		}
		state := "not found"
		if row.Present {
			state = "present"
		}
		t.linef("%s: %s, %d files, %d issues%s", name, state, row.Files, len(row.Issues), truncatedNote(row.Truncated))
	}
	return t.String()
}

func truncatedNote(truncated bool) string {
	if truncated {
		return " (more not shown)"
	}
	return ""
}
