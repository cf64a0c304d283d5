package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"ctx/core"
	"ctx/ingest"
	"ctx/query"
	"ctx/sources/reported"
)

// IngestRow is one reported session of ctx ingest list.
type IngestRow struct {
	ReportedID   string    `json:"reported_id"`
	CtxSessionID string    `json:"ctx_session_id"`
	Kind         string    `json:"kind"`
	Title        string    `json:"title"`
	Thread       string    `json:"thread"`
	Harness      string    `json:"harness"`
	Door         string    `json:"door"`
	Client       string    `json:"client"`
	Revisions    int       `json:"revisions"`
	First        time.Time `json:"first_received_at"`
	Last         time.Time `json:"last_received_at"`
	Handoff      bool      `json:"handoff"`
	Workspace    string    `json:"workspace"`
}

// IngestList is the answer of ctx ingest list.
type IngestList struct {
	Untrusted string      `json:"untrusted"`
	Sessions  []IngestRow `json:"sessions"`
}

// ListReports lists the reported sessions of the inbox, newest first;
// removed ones are left out.
func (h *Handoff) ListReports() (*IngestList, error) {
	recs, err := h.inbox.Records()
	if err != nil {
		return nil, err
	}
	out := &IngestList{Untrusted: "agent-reported data: summaries and titles are what agents said, not verified",
		Sessions: []IngestRow{}}
	groups := reported.Group(recs)
	for i := len(groups) - 1; i >= 0; i-- {
		s := groups[i]
		if s.Removed != nil {
			continue
		}
		last := s.Latest()
		p := last.Provenance
		out.Sessions = append(out.Sessions, IngestRow{ReportedID: s.ID, CtxSessionID: reported.SessionID(s.ID).String(),
			Kind: p.Kind, Title: reported.TitleOf(last.Report), Thread: last.Report.Thread, Harness: p.Harness,
			Door: p.Door, Client: p.Client.Name, Revisions: len(s.Revisions), First: s.Revisions[0].ReceivedAt,
			Last: last.ReceivedAt, Handoff: last.Report.Handoff, Workspace: last.Workspace})
	}
	return out, nil
}

// RemoveReport forgets a reported session (by rep_ or ses_ id): the inbox
// keeps the removal as a record, and the same forget as ctx forget takes
// the session out of the store now (tree, search, vectors) and out of
// every later import; ctx gc then drops its bytes.
func (h *Handoff) RemoveReport(ctx context.Context, ref string, c Caller) (string, error) {
	ref = strings.TrimSpace(ref)
	recs, err := h.inbox.Records()
	if err != nil {
		return "", err
	}
	id := ref
	for _, s := range reported.Group(recs) {
		if reported.SessionID(s.ID).String() == ref {
			id = s.ID
		}
	}
	prov := reported.Provenance{ReportedBy: "user", Door: c.Door, Client: c.Client}
	if err := h.inbox.Remove(id, prov, h.now()); err != nil {
		if errors.Is(err, reported.ErrNotFound) {
			return "", query.Errorf(query.CodeNotFound, "no reported session %s (see ctx ingest list)", ref)
		}
		return "", err
	}
	_, err = ingest.Forget(ctx, ingest.Options{Home: h.opts.Home, Version: h.opts.Version, Now: h.now},
		ingest.ForgetRequest{Sessions: []core.SessionID{reported.SessionID(id)}, Reason: ingest.ForgetReported})
	if err != nil {
		return "", err
	}
	h.cache.Invalidate()
	return id, nil
}
