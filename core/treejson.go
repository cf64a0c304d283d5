package core

import (
	"encoding/hex"
	"encoding/json"
	"sync"

	"ctx/objects"
)

// decodeTree decodes a tree object. Every read model (list, timeline,
// stats) and every import decodes the whole tree (one entry with a digest
// per session: 3 MB for 3,600 sessions), where encoding/json's reflection
// cost most of a command's time; jsonScan reads the same JSON directly and
// keeps recurring strings once. Input it does not take exactly as
// encoding/json would is decoded by encoding/json.
func decodeTree(data []byte) (*Tree, error) {
	if t, ok := scanTree(data); ok {
		return t, nil
	}
	t := new(Tree)
	if err := json.Unmarshal(data, t); err != nil {
		return nil, err
	}
	return t, nil
}

func scanTree(data []byte) (*Tree, bool) {
	s := newJSONScan(data)
	t := new(Tree)
	var seen uint64
	if s.object(func(k []byte) bool {
		switch string(k) {
		case "kind":
			return s.once(&seen, 0) && s.str(&t.Kind)
		case "sessions":
			return s.once(&seen, 1) && s.entries(&t.Sessions)
		}
		return s.fail()
	}) {
		return nil, false // a null tree: encoding/json's "not a tree"
	}
	return t, s.end()
}

// entries reads the sessions array into one allocation of entries and one
// of digests, sized by a guess from the length of the text (an entry with
// its digest takes some 900 bytes): memory reserved and never written costs
// nothing, copying a slice as it grows does.
func (s *jsonScan) entries(dst *[]TreeEntry) bool {
	n := (len(s.b)-s.i)/512 + 1
	out := make([]TreeEntry, 0, n)
	digests := make([]Digest, 0, n)
	if s.array(func() bool {
		if len(digests) == cap(digests) {
			digests = make([]Digest, 0, max(64, len(out)))
		}
		out = append(out, TreeEntry{})
		e := &out[len(out)-1]
		digests = digests[:len(digests)+1]
		return s.entry(e, &digests[len(digests)-1])
	}) {
		*dst = nil
		return s.ok
	}
	*dst = out
	return s.ok
}

func (s *jsonScan) entry(e *TreeEntry, d *Digest) bool {
	var seen uint64
	null := s.object(func(k []byte) bool {
		switch string(k) {
		case "ctx_session_id":
			return s.once(&seen, 0) && s.sessionID(&e.Session)
		case "object":
			return s.once(&seen, 1) && s.objectID(&e.Object)
		case "root_session_id":
			return s.once(&seen, 2) && s.sessionID(&e.Root)
		case "provider":
			return s.once(&seen, 3) && s.shared(&e.Provider)
		case "source":
			return s.once(&seen, 4) && s.str(&e.SourceKey)
		case "events":
			return s.once(&seen, 5) && s.int(&e.Events)
		case "started":
			return s.once(&seen, 6) && s.time(e.Started.UnmarshalJSON)
		case "ended":
			return s.once(&seen, 7) && s.time(e.Ended.UnmarshalJSON)
		case "workspace":
			return s.once(&seen, 8) && s.shared(&e.Workspace)
		case "digest":
			return s.once(&seen, 9) && s.digest(&e.Digest, d)
		case "machine":
			return s.once(&seen, 10) && s.shared(&e.Machine)
		}
		return s.fail()
	})
	return !null && s.ok
}

// time reads a time string with time.Time's own decoder.
func (s *jsonScan) time(unmarshal func([]byte) error) bool {
	s.ws()
	start := s.i
	if _, ok := s.rawString(); !ok {
		return false
	}
	return unmarshal(s.b[start:s.i]) == nil || s.fail()
}

func (s *jsonScan) digest(dst **Digest, d *Digest) bool {
	var seen uint64
	if s.object(func(k []byte) bool {
		switch string(k) {
		case "title":
			return s.once(&seen, 0) && s.str(&d.Title)
		case "title_source":
			return s.once(&seen, 1) && s.shared(&d.TitleSource)
		case "native_id":
			return s.once(&seen, 2) && s.str(&d.NativeID)
		case "parent":
			return s.once(&seen, 3) && s.sessionID(&d.Parent)
		case "subagent":
			return s.once(&seen, 4) && s.bool(&d.Subagent)
		case "source_root":
			return s.once(&seen, 5) && s.shared(&d.SourceRoot)
		case "source_group":
			return s.once(&seen, 6) && s.shared(&d.SourceGroup)
		case "prompts":
			return s.once(&seen, 7) && s.int(&d.Prompts)
		case "messages":
			return s.once(&seen, 8) && s.int(&d.Messages)
		case "tool_calls":
			return s.once(&seen, 9) && s.int(&d.ToolCalls)
		case "commands":
			return s.once(&seen, 10) && s.int(&d.Commands)
		case "errors":
			return s.once(&seen, 11) && s.int(&d.Errors)
		case "compactions":
			return s.once(&seen, 12) && s.int(&d.Compactions)
		case "edited":
			return s.once(&seen, 13) && s.int(&d.Edited)
		case "files":
			return s.once(&seen, 14) && s.strings(&d.Files)
		case "models":
			return s.once(&seen, 15) && s.strings(&d.Models)
		case "tokens":
			return s.once(&seen, 16) && s.tokens(&d.Tokens)
		}
		return s.fail()
	}) {
		*dst = nil
		return s.ok
	}
	*dst = d
	return s.ok
}

func (s *jsonScan) tokens(dst **Tokens) bool {
	t := new(Tokens)
	var seen uint64
	if s.object(func(k []byte) bool {
		switch string(k) {
		case "input":
			return s.once(&seen, 0) && s.int64(&t.Input)
		case "output":
			return s.once(&seen, 1) && s.int64(&t.Output)
		case "cache_read":
			return s.once(&seen, 2) && s.int64(&t.CacheRead)
		case "cache_create":
			return s.once(&seen, 3) && s.int64(&t.CacheCreate)
		}
		return s.fail()
	}) {
		*dst = nil
		return s.ok
	}
	*dst = t
	return s.ok
}

// sessionID reads a session id; what is not lowercase ses_<32 hex> or
// empty goes through SessionID's own UnmarshalText.
func (s *jsonScan) sessionID(dst *SessionID) bool {
	b, ok := s.rawString()
	switch {
	case !ok:
		return false
	case len(b) == 0:
		*dst = SessionID{}
		return true
	case len(b) == len(sessionPrefix)+32 && string(b[:len(sessionPrefix)]) == sessionPrefix &&
		lowerHex(dst[:], b[len(sessionPrefix):]):
		return true
	}
	return dst.UnmarshalText(b) == nil || s.fail()
}

// objectID reads an object id (64 lowercase hex digits).
func (s *jsonScan) objectID(dst *objects.ID) bool {
	b, ok := s.rawString()
	if !ok {
		return false
	}
	if len(b) == 2*objects.IDSize && lowerHex(dst[:], b) {
		return true
	}
	return dst.UnmarshalText(b) == nil || s.fail()
}

// lowerHex decodes lowercase hex digits into dst (len(src) = 2*len(dst)).
func lowerHex(dst, src []byte) bool {
	for _, c := range src {
		if 'A' <= c && c <= 'F' {
			return false
		}
	}
	_, err := hex.Decode(dst, src)
	return err == nil
}

// lastTree is the tree LoadSharedTree decoded last in this process.
var lastTree struct {
	sync.Mutex
	id   objects.ID
	tree *Tree
}

// LoadSharedTree is LoadTree for callers that never modify the tree (nor
// the digests it points to): a process that reads one generation twice
// decodes its tree once. The post-commit hook's import and the reader
// that collects its evidence both read the active generation's tree,
// which for a few thousand sessions costs more than the rest of the hook.
// An object's id is the hash of its bytes, so a tree decoded once stands
// for every store holding that id.
func LoadSharedTree(g objects.Getter, id objects.ID) (*Tree, error) {
	lastTree.Lock()
	t := lastTree.tree
	hit := t != nil && lastTree.id == id
	lastTree.Unlock()
	if hit {
		return t, nil
	}
	t, err := LoadTree(g, id)
	if err != nil {
		return nil, err
	}
	lastTree.Lock()
	lastTree.id, lastTree.tree = id, t
	lastTree.Unlock()
	return t, nil
}
