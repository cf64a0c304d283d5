package gitstore

import (
	"ctx/core"
	"ctx/objects"

	"github.com/go-git/go-git/v5/plumbing"
)

// objectSet returns every object of the view with its git id: the previous
// commit's set, less the sessions that changed or left and plus those that
// changed or came, so that an incremental push reads only what changed.
func (w *exportWriter) objectSet(v *view) (map[objects.ID]plumbing.Hash, error) {
	set := map[objects.ID]plumbing.Hash{}
	old := map[core.SessionID]core.TreeEntry{}
	if w.prev != nil && w.prev.view != nil {
		for id, h := range w.prev.tree.objects {
			set[id] = h
		}
		delete(set, w.prev.manifest.Tree)
		if f := w.prev.manifest.Forgotten; f != nil {
			delete(set, *f)
		}
		for _, e := range w.prev.view.Sessions {
			old[e.Session] = e
		}
	}
	for _, e := range v.tree.Sessions {
		o, had := old[e.Session]
		delete(old, e.Session)
		if had && o.Object == e.Object {
			if _, ok := set[e.Object]; ok {
				continue
			}
		}
		keep, err := w.addSession(set, e.Object)
		if err != nil {
			return nil, err
		}
		if had && o.Object != e.Object {
			if err := w.dropSession(set, o.Object, keep); err != nil {
				return nil, err
			}
		}
	}
	for _, o := range old {
		if err := w.dropSession(set, o.Object, nil); err != nil {
			return nil, err
		}
	}
	h, err := w.blob(v.id, v.raw)
	if err != nil {
		return nil, err
	}
	set[v.id] = h
	if v.forgotten != nil {
		if set[*v.forgotten], err = w.blob(*v.forgotten, v.forgottenRaw); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// addSession adds a local session object and its chunks, returning the
// chunk ids.
func (w *exportWriter) addSession(set map[objects.ID]plumbing.Hash, id objects.ID) (map[objects.ID]bool, error) {
	so, err := core.LoadSession(w.src, id)
	if err != nil {
		return nil, err
	}
	keep := map[objects.ID]bool{id: true}
	for _, ids := range [][]objects.ID{{id}, chunkIDs(so)} {
		for _, c := range ids {
			keep[c] = true
			h, err := w.blob(c, nil)
			if err != nil {
				return nil, err
			}
			set[c] = h
		}
	}
	return keep, nil
}

// dropSession removes a session object of the previous commit and its
// chunks, except those in keep.
func (w *exportWriter) dropSession(set map[objects.ID]plumbing.Hash, id objects.ID, keep map[objects.ID]bool) error {
	so, err := core.LoadSession(w.prev.snap, id)
	if err != nil {
		return err
	}
	for _, c := range append(chunkIDs(so), id) {
		if !keep[c] {
			delete(set, c)
		}
	}
	return nil
}

func chunkIDs(so *core.SessionObject) []objects.ID {
	out := make([]objects.ID, len(so.Chunks))
	for i, c := range so.Chunks {
		out[i] = c.ID
	}
	return out
}
