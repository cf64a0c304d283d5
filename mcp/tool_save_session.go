package mcp

import (
	"context"
	"strings"

	"ctx/app"
	"ctx/bearer"
	"ctx/sources/reported"
)

const saveSessionDescription = "Save a digest of this conversation to ctx so that a later session, or another " +
	"agent in another tool, can continue from it. Write summary yourself: what was done, in a few sentences. " +
	"Add key_decisions (each with its rationale), files_touched, open_items (most important first) and gotchas " +
	"when you have them. Include thread when the user named one (\"save this to my billing thread\"): the session " +
	"attaches to that durable thread, created on first use. Set continues_from to the ctx_session_id you resumed " +
	"from. When the user is handing the work off to someone or something else, set handoff: true and give the " +
	"complete package: state, key_decisions with rationale, ordered open_items, gotchas, artifacts with roles and " +
	"a suggested_first_prompt; an incomplete handoff is refused with one error per missing section in " +
	"details.errors: fix exactly those and call again. The harness is taken from your client; set harness only " +
	"when that is wrong. Saving again in the same conversation adds a revision and keeps the earlier ones. " +
	"Provenance (who, which door, when) is recorded by the server, never taken from the arguments."

type saveSessionInput struct {
	Summary              string              `json:"summary" jsonschema:"what this session did, in a few sentences"`
	Title                string              `json:"title,omitempty" jsonschema:"a short title; the summary's first line when omitted"`
	Thread               string              `json:"thread,omitempty" jsonschema:"the durable thread to attach to, as the user named it"`
	KeyDecisions         []reported.Decision `json:"key_decisions,omitempty" jsonschema:"decisions taken, each with its rationale"`
	FilesTouched         []string            `json:"files_touched,omitempty" jsonschema:"paths read or changed, relative to the workspace"`
	OpenItems            []string            `json:"open_items,omitempty" jsonschema:"what remains, most important first"`
	ContinuesFrom        string              `json:"continues_from,omitempty" jsonschema:"the ctx_session_id (ses_...) or reported_id (rep_...) this continues"`
	Handoff              bool                `json:"handoff,omitempty" jsonschema:"true when another agent or person takes over: requires the complete package"`
	State                string              `json:"state,omitempty" jsonschema:"where the work stands now"`
	Gotchas              []string            `json:"gotchas,omitempty" jsonschema:"traps the next agent should know"`
	Artifacts            []reported.Artifact `json:"artifacts,omitempty" jsonschema:"files or URLs produced or relied on, each with its role"`
	SuggestedFirstPrompt string              `json:"suggested_first_prompt,omitempty" jsonschema:"the first message the next agent should act on"`
	Harness              string              `json:"harness,omitempty" jsonschema:"override the harness inferred from the client, e.g. claude-code"`
}

func saveSessionTool() toolDef {
	return defineWriteTool[saveSessionInput, app.SaveResult]("save_session", "Save this session", saveSessionDescription,
		nil, runReport("save_session", (*app.Handoff).SaveSession))
}

// runReport runs a tool that reports a session to the inbox (save_session,
// ingest_context) with the use case that reads its arguments.
func runReport(tool string,
	report func(*app.Handoff, app.Caller, []byte) (*app.SaveResult, error)) func(context.Context, *Server, []byte) (*reply, error) {
	return func(ctx context.Context, s *Server, raw []byte) (*reply, error) {
		if err := requireScope(ctx, s, bearer.ScopeWrite, tool); err != nil {
			return nil, err
		}
		res, err := report(s.handoff, s.caller(ctx), raw)
		return answer(res, err, renderSave)
	}
}

func renderSave(r *app.SaveResult) string {
	t := newText()
	t.linef("Saved %s (%s), revision %d, as %s via %s.", r.ReportedID, r.CtxSessionID, r.Revision,
		r.Provenance.Harness, r.Provenance.Door)
	if r.Thread != nil {
		verb := "attached to"
		if r.ThreadCreated {
			verb = "created thread"
		}
		t.linef("%s %q.", capitalize(verb), *r.Thread)
	}
	if len(r.IgnoredFields) > 0 {
		t.linef("Ignored (provenance comes from the server): %v.", r.IgnoredFields)
	}
	t.linef("%s.", capitalize(r.Searchable))
	return t.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
