package app

import (
	"fmt"
	"strings"

	"ctx/core"
	"ctx/query"
	"ctx/sources/reported"
)

// SaveResult is the answer of save_session and ingest_context.
type SaveResult struct {
	Saved         bool                `json:"saved"`
	ReportedID    string              `json:"reported_id"`
	CtxSessionID  string              `json:"ctx_session_id"`
	Revision      int                 `json:"revision"`
	Thread        *string             `json:"thread"`
	ThreadCreated bool                `json:"thread_created"`
	Handoff       bool                `json:"handoff"`
	Provenance    reported.Provenance `json:"provenance"`
	IgnoredFields []string            `json:"ignored_fields"`
	Redactions    int                 `json:"redactions"`
	Searchable    string              `json:"searchable"`
}

// searchableNote says when a saved record reaches search.
const searchableNote = "durable now; searchable with ctx search once the daemon's next import (woken by this call) publishes it"

// SaveSession validates a save_session call and appends it to the inbox.
// The harness is the caller's client unless the call declares one.
func (h *Handoff) SaveSession(c Caller, raw []byte) (*SaveResult, error) {
	s, err := reported.DecodeSave(raw)
	if err != nil {
		return nil, err
	}
	prov := h.provenance(c, reported.KindSave, s.Harness)
	return h.store(c, prov, reported.NewID(c.Door+"\x00"+c.Conn), s.Report, s.Ignored)
}

// Ingest validates an ingest_context envelope and appends it to the inbox.
// The same harness session id ingested again is a new revision.
func (h *Handoff) Ingest(c Caller, raw []byte) (*SaveResult, error) {
	in, err := reported.DecodeIngest(raw)
	if err != nil {
		return nil, err
	}
	prov := h.provenance(c, reported.KindIngest, in.Harness)
	key := in.Harness + "\x00" + in.SessionID
	if in.SessionID == "" {
		key = c.Door + "\x00" + c.Conn + "\x00ingest"
	}
	return h.store(c, prov, reported.NewID(key), in.Report, in.Ignored)
}

func (h *Handoff) provenance(c Caller, kind, declared string) reported.Provenance {
	p := reported.Provenance{ReportedBy: "agent", Door: c.Door, Client: c.Client, Token: c.Token, Kind: kind}
	if declared != "" {
		p.Harness, p.Declared = declared, true
	} else {
		p.Harness = HarnessOf(c.Client.Name)
	}
	return p
}

func (h *Handoff) store(c Caller, prov reported.Provenance, id string, r *reported.Report, ignored []string) (*SaveResult, error) {
	now := h.now()
	if err := h.limiter.Allow(c.limitKey(), now); err != nil {
		return nil, err
	}
	h.saveMu.Lock()
	defer h.saveMu.Unlock()
	res := &SaveResult{Handoff: r.Handoff, IgnoredFields: ignored, Searchable: searchableNote}
	if res.IgnoredFields == nil {
		res.IgnoredFields = []string{}
	}
	from, err := h.continuesFrom(r)
	if err != nil {
		return nil, err
	}
	if r.Thread == "" && from.thread != "" {
		r.Thread = from.thread
	}
	if r.Thread != "" {
		name, created, err := h.threads.Ensure(r.Thread, now)
		if err != nil {
			return nil, fieldError(prov.Kind, "thread", reported.FieldInvalid, err.Error())
		}
		r.Thread, res.Thread, res.ThreadCreated = name, &name, created
		if from.imported != nil {
			if err := h.threads.Add(name, *from.imported, c.Door, now); err != nil {
				return nil, err
			}
		}
	}
	rec, err := h.inbox.Append(reported.Record{Op: reported.OpSave, ID: id, ReceivedAt: now, Workspace: c.Root,
		Provenance: prov, Report: r}, h.redactor)
	if err != nil {
		return nil, err
	}
	h.cache.Invalidate()
	h.wake()
	res.Saved, res.ReportedID, res.Revision = true, rec.ID, rec.Revision
	res.CtxSessionID, res.Provenance, res.Redactions = reported.SessionID(rec.ID).String(), rec.Provenance, rec.Redactions
	return res, nil
}

func fieldError(kind, field, code, msg string) error {
	return &reported.ValidationError{Kind: kind, Errors: []reported.FieldError{{Field: field, Code: code, Message: msg}}}
}

// origin is what continues_from named: a reported session's thread, or an
// imported session of the store.
type origin struct {
	thread   string
	imported *core.SessionID
}

// continuesFrom resolves continues_from: a rep_ id or the ses_ id of a
// reported session (its thread is inherited), or any ses_ of the store.
func (h *Handoff) continuesFrom(r *reported.Report) (origin, error) {
	ref := strings.TrimSpace(r.ContinuesFrom)
	if ref == "" {
		return origin{}, nil
	}
	recs, err := h.inbox.Records()
	if err != nil {
		return origin{}, err
	}
	for _, s := range reported.Group(recs) {
		if s.ID == ref || reported.SessionID(s.ID).String() == ref {
			r.ContinuesFrom = reported.SessionID(s.ID).String()
			return origin{thread: s.Latest().Report.Thread}, nil
		}
	}
	id, perr := core.ParseSessionID(ref)
	if perr != nil {
		return origin{}, fieldError(reported.KindSave, "continues_from", reported.FieldInvalid,
			"must be a session id: ses_ followed by 32 hex digits (from search or list_threads), or a rep_ id a save returned")
	}
	found := false
	err = h.withReader(func(rd *query.Reader) error {
		found = inTree(rd, id)
		return nil
	})
	if err != nil {
		return origin{}, err
	}
	if !found {
		return origin{}, fieldError(reported.KindSave, "continues_from", reported.FieldInvalid,
			fmt.Sprintf("no session %s in the ctx store or the inbox; search for the session first", ref))
	}
	return origin{imported: &id}, nil
}
