package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"ctx/core"
	"ctx/sources/jsonl"
)

// ErrSchema is returned for output without a supported header.
var ErrSchema = errors.New("plugin output: first line must be {\"ctx_plugin\": 1}")

var roles = map[core.Role]bool{core.RoleUser: true, core.RoleAssistant: true, core.RoleSystem: true, core.RoleTool: true}

// ParseOutput reads plugin output. A missing or unsupported header fails the
// whole run; bad records are counted problems.
func ParseOutput(r io.Reader, provider string, f core.SourceFile) (core.ParseResult, error) {
	var res core.ParseResult
	byID := map[string]*core.ParsedSession{}
	var order []string
	header := false
	problems, err := jsonl.Read(r, func(l jsonl.Line) error {
		var rec record
		if err := json.Unmarshal(l.Data, &rec); err != nil {
			res.Problems = append(res.Problems, core.Problem{Code: core.ProblemInvalidRecord, Line: l.No})
			return nil
		}
		if !header {
			if rec.Version == nil || *rec.Version != SchemaVersion {
				return ErrSchema
			}
			header = true
			return nil
		}
		code := apply(&rec, l.Data, provider, byID, &order)
		if code != "" {
			res.Problems = append(res.Problems, core.Problem{Code: code, Line: l.No})
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("plugin %s: %w", provider, err)
	}
	if !header {
		return res, fmt.Errorf("plugin %s: %w", provider, ErrSchema)
	}
	res.Problems = append(res.Problems, problems...)
	for i := range res.Problems {
		res.Problems[i].Provider, res.Problems[i].Path = provider, f.Path
	}
	for _, id := range order {
		ps := byID[id]
		ps.Finalize()
		res.Sessions = append(res.Sessions, *ps)
	}
	return res, nil
}

func apply(rec *record, raw []byte, provider string, byID map[string]*core.ParsedSession, order *[]string) string {
	switch rec.Type {
	case "session":
		if rec.ID == "" || byID[rec.ID] != nil {
			return core.ProblemInvalidRecord
		}
		byID[rec.ID] = &core.ParsedSession{ParentNativeID: rec.ParentID, RootNativeID: rec.RootID,
			Session: core.Session{Provider: provider, NativeID: rec.ID, Workspace: rec.Workspace,
				GitBranch: rec.Branch, Model: rec.Model, Title: rec.Title}}
		*order = append(*order, rec.ID)
	case "event":
		ps := byID[rec.Session]
		var ev event
		if ps == nil || json.Unmarshal(raw, &ev) != nil || !roles[ev.Role] || ev.Type == "" {
			return core.ProblemInvalidRecord
		}
		ps.Events = append(ps.Events, core.Event{Key: rec.Key, Timestamp: ev.Timestamp, Role: ev.Role, Type: ev.Type,
			Text: ev.Text, Tool: ev.Tool, CallID: ev.CallID, Command: ev.Command, ExitCode: ev.ExitCode, Files: ev.Files})
	default:
		return core.ProblemUnknownRecord
	}
	return ""
}
