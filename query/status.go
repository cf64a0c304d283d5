package query

import (
	"errors"
	"sort"

	"ctx/config"
	"ctx/index"
	"ctx/refs"
	"ctx/semantic"
	"ctx/store"
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
	Shards int    `json:"shards"`
	Docs   int    `json:"docs"`
	Bytes  int64  `json:"bytes"`
	Path   string `json:"path"` // a local diagnostic hint, not a contract id
}

// Upgrade is the upgrade state: the formats this ctx reads and writes,
// and what of the active generation must be rebuilt before it is served
// in full.
type Upgrade struct {
	StoreFormat  int `json:"store_format"`
	IndexFormat  int `json:"index_format"`
	VectorFormat int `json:"vector_format"`
	// PendingRebuilds is empty when nothing waits for a rebuild.
	PendingRebuilds []PendingRebuild `json:"pending_rebuilds"`
}

// PendingRebuild is one kind of derived state the active generation lacks.
type PendingRebuild struct {
	Kind   string `json:"kind"`   // index_shards or vectors
	Reason string `json:"reason"` // see the Reason constants
	Count  int    `json:"count"`  // shards, or vector sets expected (1)
	Fix    string `json:"fix"`    // what rebuilds it
}

// Reasons of a pending rebuild.
const (
	ReasonShardFormat         = "shard_format_outdated" // written by an earlier index format
	ReasonShardMissing        = "shard_missing"
	ReasonShardDamaged        = "shard_damaged"
	ReasonVectorsMissing      = "vectors_not_built" // the generation has no vectors yet
	ReasonVectorsIncompatible = "vectors_incompatible"
	ReasonVectorsDamaged      = "vectors_damaged"
)

// Semantic vector states.
const (
	SemanticBuilt        = "built"
	SemanticPending      = "pending" // enabled, not built for this generation yet
	SemanticIncompatible = "incompatible"
	SemanticDamaged      = "damaged"
	SemanticDisabled     = "disabled" // turned off, or weight 0
	SemanticNoGeneration = "no_generation"
	SemanticInvalid      = "invalid_config"
)

// SemanticStatus is the state of semantic search for the active
// generation: the configured embedder and whether its vectors are built.
type SemanticStatus struct {
	Enabled  bool   `json:"enabled"`
	Embedder string `json:"embedder"` // the configured embedder's id ("" when the configuration is invalid)
	Dim      int    `json:"dim"`      // its dimension; 0 when it learns it from its server
	State    string `json:"state"`
	Vectors  int    `json:"vectors"` // live vectors of the active generation
	// BuiltEmbedder and BuiltDim describe the vectors that exist, when
	// they differ from the configuration.
	BuiltEmbedder string `json:"built_embedder,omitempty"`
	BuiltDim      int    `json:"built_dim,omitempty"`
	Path          string `json:"path"` // a local diagnostic hint
}

// Status is the store part of the status read model (the rest, about the
// current repository, the daemon and usage, is added by sdk.ReadStatus).
type Status struct {
	CtxHome    string             `json:"ctx_home"`
	Generation *GenerationInfo    `json:"generation"`
	Sources    []refs.SourceStats `json:"sources"`
	Problems   map[string]int     `json:"problems"`
	Index      IndexInfo          `json:"index"`
	Semantic   SemanticStatus     `json:"semantic"`
	Upgrade    Upgrade            `json:"upgrade"`
	ReadOnly   bool               `json:"read_only"`
}

// StatusOptions says how semantic search is configured.
type StatusOptions struct {
	Semantic config.Semantic
	Getenv   func(string) string // resolves the embedder's key variable
	// SemanticErr is the error of reading the configuration, if any.
	SemanticErr error
}

// EmptyStatus is the status of a store with nothing imported.
func EmptyStatus(home string, opts StatusOptions) *Status {
	st := &Status{CtxHome: home, Sources: []refs.SourceStats{}, Problems: map[string]int{}, ReadOnly: true,
		Index: IndexInfo{Path: store.At(home).Index()},
		Upgrade: Upgrade{StoreFormat: refs.StoreFormat, IndexFormat: index.Format, VectorFormat: semantic.Format,
			PendingRebuilds: []PendingRebuild{}}}
	st.Semantic = semanticStatus(home, opts)
	if st.Semantic.State == "" {
		st.Semantic.State = SemanticNoGeneration
	}
	return st
}

// ReadStatus is ReadStatusWith under the default semantic configuration.
func ReadStatus(home string) (*Status, error) {
	return ReadStatusWith(home, StatusOptions{Semantic: config.DefaultSemantic()})
}

// ReadStatusWith returns the status of the store in home without writing
// anything. A store with nothing imported has a null generation. It opens
// each index shard of the active generation read-only to check its
// format.
func ReadStatusWith(home string, opts StatusOptions) (*Status, error) {
	st := EmptyStatus(home, opts)
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
	st.Upgrade.PendingRebuilds = append(st.Upgrade.PendingRebuilds, shardRebuilds(home, g)...)
	st.Semantic = semanticStatus(home, opts)
	if p := vectorState(home, r, opts, &st.Semantic); p != nil {
		st.Upgrade.PendingRebuilds = append(st.Upgrade.PendingRebuilds, *p)
	}
	return st, nil
}

// shardRebuilds opens every shard of the generation read-only and counts
// those that cannot serve it, by reason.
func shardRebuilds(home string, g *refs.Generation) []PendingRebuild {
	counts := map[string]int{}
	for _, s := range g.Shards {
		err := index.Verify(store.At(home).Index(), s.Name, s.Docs)
		switch {
		case err == nil:
		case errors.Is(err, index.ErrShardFormat):
			counts[ReasonShardFormat]++
		case errors.Is(err, index.ErrShardMissing):
			counts[ReasonShardMissing]++
		default:
			counts[ReasonShardDamaged]++
		}
	}
	var out []PendingRebuild
	for _, reason := range []string{ReasonShardFormat, ReasonShardMissing, ReasonShardDamaged} {
		if n := counts[reason]; n > 0 {
			out = append(out, PendingRebuild{Kind: "index_shards", Reason: reason, Count: n,
				Fix: "a running daemon rebuilds them from the store; else run ctx verify --repair"})
		}
	}
	return out
}

// semanticStatus fills what the configuration says.
func semanticStatus(home string, opts StatusOptions) SemanticStatus {
	s := SemanticStatus{Enabled: opts.Semantic.Active(), Path: store.At(home).Vectors()}
	if opts.SemanticErr != nil {
		s.State = SemanticInvalid
		return s
	}
	emb, err := semantic.NewEmbedder(opts.Semantic, opts.Getenv)
	if err != nil {
		s.State = SemanticInvalid
		return s
	}
	s.Embedder, s.Dim = emb.ID(), emb.Dim()
	if !s.Enabled {
		s.State = SemanticDisabled
	}
	return s
}

// vectorState reads the manifest of the pinned generation and returns the
// pending rebuild of its vectors, if any.
func vectorState(home string, r *Reader, opts StatusOptions, s *SemanticStatus) *PendingRebuild {
	m, err := semantic.LoadManifest(store.At(home).Vectors(), r.id)
	if err == nil {
		s.Vectors = m.Vectors
		if m.Embedder != s.Embedder || (s.Dim != 0 && m.Dim != s.Dim) {
			s.BuiltEmbedder, s.BuiltDim = m.Embedder, m.Dim
		}
	}
	if s.State != "" { // disabled or invalid: nothing is pending
		return nil
	}
	fix := "ctx import builds the vectors of the active generation"
	switch {
	case errors.Is(err, semantic.ErrNotBuilt):
		s.State = SemanticPending
		return &PendingRebuild{Kind: "vectors", Reason: ReasonVectorsMissing, Count: 1, Fix: fix}
	case err != nil:
		s.State = SemanticDamaged
		return &PendingRebuild{Kind: "vectors", Reason: ReasonVectorsDamaged, Count: 1, Fix: fix}
	case s.BuiltEmbedder != "":
		s.State = SemanticIncompatible
		return &PendingRebuild{Kind: "vectors", Reason: ReasonVectorsIncompatible, Count: 1, Fix: fix}
	}
	s.State = SemanticBuilt
	return nil
}
