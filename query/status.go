package query

import (
	"sort"

	"ctx/refs"
)

// GenerationInfo describes the active generation in status.
type GenerationInfo struct {
	GenerationRef
	Parent   string `json:"parent,omitempty"`
	Importer string `json:"importer"`
	Sessions int    `json:"sessions"`
	Events   int    `json:"events"`
}

// IndexInfo describes the index shards of the active generation.
type IndexInfo struct {
	Shards int   `json:"shards"`
	Docs   int   `json:"docs"`
	Bytes  int64 `json:"bytes"`
}

// Status is the status read model.
type Status struct {
	CtxHome    string             `json:"ctx_home"`
	Generation *GenerationInfo    `json:"generation"`
	Sources    []refs.SourceStats `json:"sources"`
	Problems   map[string]int     `json:"problems"`
	Index      IndexInfo          `json:"index"`
	ReadOnly   bool               `json:"read_only"`
}

// ReadStatus returns the status of the store in home without writing
// anything. A store with nothing imported has a null generation.
func ReadStatus(home string) (*Status, error) {
	st := &Status{CtxHome: home, Sources: []refs.SourceStats{}, Problems: map[string]int{}, ReadOnly: true}
	r, err := Open(home)
	if CodeOf(err) == CodeNoHistory {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	g, _ := r.Generation()
	info := &GenerationInfo{GenerationRef: r.Ref(), Importer: g.Importer, Sessions: g.Sessions, Events: g.Events}
	if g.Parent != nil {
		info.Parent = g.Parent.String()
	}
	st.Generation = info
	st.Sources = append(st.Sources, g.Sources...)
	sort.SliceStable(st.Sources, func(i, j int) bool { return st.Sources[i].Provider < st.Sources[j].Provider })
	for _, s := range g.Sources {
		for code, n := range s.Problems {
			st.Problems[code] += n
		}
	}
	for _, s := range g.Shards {
		st.Index.Shards++
		st.Index.Docs += s.Docs
		st.Index.Bytes += s.Bytes
	}
	return st, nil
}
