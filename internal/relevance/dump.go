package relevance

import (
	"encoding/json"
	"io"

	"ctx/core"
	"ctx/query"
)

// dumpRow is one event of a dump: what a person judging the set needs to
// pick targets.
type dumpRow struct {
	EventID  string   `json:"ctx_event_id"`
	Provider string   `json:"provider"`
	NativeID string   `json:"native_session_id"`
	Ordinal  int      `json:"ordinal"`
	Type     string   `json:"event_type"`
	Role     string   `json:"role"`
	Tool     string   `json:"tool,omitempty"`
	Command  string   `json:"command,omitempty"`
	Files    []string `json:"files,omitempty"`
	Text     string   `json:"text"`
}

// Dump writes every event of the active generation as JSON lines, session
// by session, for choosing and reviewing judged targets.
func Dump(r *query.Reader, w io.Writer) error {
	enc := json.NewEncoder(w)
	return eachEvent(r, func(s *query.SessionInfo, e *core.Event) error {
		row := dumpRow{EventID: e.ID.String(), Provider: s.Provider, NativeID: s.NativeID,
			Ordinal: e.Ordinal, Type: string(e.Type), Role: string(e.Role), Tool: e.Tool,
			Command: e.Command, Text: e.Text}
		for _, f := range e.Files {
			row.Files = append(row.Files, f.Path)
		}
		return enc.Encode(row)
	})
}

// eachEvent calls fn with every event of the active generation and its
// session, session by session in tree order.
func eachEvent(r *query.Reader, fn func(*query.SessionInfo, *core.Event) error) error {
	tree, err := r.Tree()
	if err != nil {
		return err
	}
	for _, te := range tree.Sessions {
		var sess *query.SessionInfo
		_, err := r.ShowSession(query.ShowSessionRequest{ID: te.Session.String(), Mode: query.ModeLog},
			func(s *query.SessionInfo) error { sess = s; return nil },
			func(e *core.Event) error { return fn(sess, e) })
		if err != nil {
			return err
		}
	}
	return nil
}
