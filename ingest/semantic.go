package ingest

import (
	"context"

	"ctx/config"
	"ctx/semantic"
	"ctx/store"
)

// buildVectors is the semantic pass: after the lexical generation is
// published it makes sure that the generation this run leaves active (the
// new one, or the previous one when nothing changed) has vectors of the
// configured embedder, embedding only what earlier generations' vectors do
// not cover. It runs under the writer lock. A failure never fails the
// import: it is reported in Report.VectorsErr, and until vectors exist a
// hybrid search answers lexically and says so.
func (r *run) buildVectors(ctx context.Context) {
	id, gen := r.rep.GenerationID, r.rep.Generation
	if !r.rep.Published {
		id, gen = r.st.prevID, r.st.prev
	}
	if gen == nil {
		return
	}
	cfg, err := r.semanticConfig()
	if err != nil || !cfg.Active() {
		r.rep.VectorsErr = err
		return
	}
	emb, err := semantic.NewEmbedder(cfg, r.opts.Env.Get)
	if err != nil {
		r.rep.VectorsErr = err
		return
	}
	r.rep.Vectors, r.rep.VectorsErr = semantic.Build(ctx, semantic.BuildOptions{
		Dir: store.At(r.opts.Home).Vectors(), Objects: r.store, Generation: id, Embedder: emb})
}

func (r *run) semanticConfig() (config.Semantic, error) {
	if r.opts.Semantic != nil {
		return *r.opts.Semantic, nil
	}
	cfg, err := config.Load(r.opts.Env)
	if err != nil {
		return config.Semantic{}, err
	}
	return cfg.SemanticConfig(), nil
}
