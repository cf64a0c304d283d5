package ingest

import (
	"context"
	"os"

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
	var emb semantic.Embedder
	if r.early != nil {
		emb = r.early.Embedder()
	} else if emb, err = semantic.NewEmbedder(cfg, r.opts.Env.Get); err != nil {
		r.rep.VectorsErr = err
		return
	}
	r.rep.Vectors, r.rep.VectorsErr = semantic.Build(ctx, semantic.BuildOptions{
		Dir: store.At(r.opts.Home).Vectors(), Objects: r.store, Generation: id, Embedder: emb, Early: r.early})
	r.closeEarly()
}

// closeEarly drops the rows embedded early.
func (r *run) closeEarly() {
	r.early.Close()
	r.early = nil
}

// earlyVectors returns what embeds the chunks of this run as they are
// written, for its vector pass (semantic.Early); nil when vectors are off
// or their embedder is not one to run early.
func (r *run) earlyVectors() *semantic.Early {
	cfg, err := r.semanticConfig()
	if err != nil || !cfg.Active() {
		return nil
	}
	emb, err := semantic.NewEmbedder(cfg, r.opts.Env.Get)
	if err != nil {
		return nil
	}
	dir := store.At(r.opts.Home).Vectors()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	return semantic.NewEarly(emb, dir, 0)
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
