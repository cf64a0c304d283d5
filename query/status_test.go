package query

import (
	"os"
	"path/filepath"
	"testing"

	"ctx/config"
	"ctx/index"
	"ctx/store"
)

// TestStatusUpgradeState reads the upgrade and semantic state of a real
// store, then takes away what a rebuild would bring back: the vectors of
// the generation, then one index shard.
func TestStatusUpgradeState(t *testing.T) {
	home := fixtureStore(t, t.TempDir())
	def := StatusOptions{Semantic: config.DefaultSemantic()}
	st, err := ReadStatusWith(home, def)
	if err != nil {
		t.Fatal(err)
	}
	if st.Upgrade.StoreFormat != 1 || st.Upgrade.IndexFormat != index.Format || st.Upgrade.VectorFormat != 1 ||
		len(st.Upgrade.PendingRebuilds) != 0 {
		t.Fatalf("upgrade of a fresh store: %+v", st.Upgrade)
	}
	if st.Semantic.State != SemanticBuilt || st.Semantic.Vectors == 0 || st.Semantic.Embedder == "" || st.Semantic.Dim == 0 {
		t.Fatalf("semantic of a fresh store: %+v", st.Semantic)
	}

	other := config.Semantic{Enabled: true, Embedder: config.EmbedderOpenAI, Endpoint: "http://127.0.0.1:1",
		Model: "m", Weight: 0.5}
	st, err = ReadStatusWith(home, StatusOptions{Semantic: other})
	if err != nil || st.Semantic.State != SemanticIncompatible || st.Semantic.BuiltEmbedder == "" ||
		len(st.Upgrade.PendingRebuilds) != 1 || st.Upgrade.PendingRebuilds[0].Reason != ReasonVectorsIncompatible {
		t.Fatalf("vectors of another embedder: %+v %+v %v", st.Semantic, st.Upgrade, err)
	}
	off := config.DefaultSemantic()
	off.Enabled = false
	if st, err = ReadStatusWith(home, StatusOptions{Semantic: off}); err != nil || st.Semantic.State != SemanticDisabled ||
		len(st.Upgrade.PendingRebuilds) != 0 {
		t.Fatalf("semantic off: %+v %+v", st.Semantic, st.Upgrade)
	}

	r := openReader(t, home)
	gen, id := r.Generation()
	r.Close()
	manifest := filepath.Join(store.At(home).Vectors(), "generations", id.String()+".json")
	if err := os.Rename(manifest, manifest+".away"); err != nil {
		t.Fatal(err)
	}
	st, err = ReadStatusWith(home, def)
	if err != nil || st.Semantic.State != SemanticPending || len(st.Upgrade.PendingRebuilds) != 1 ||
		st.Upgrade.PendingRebuilds[0].Kind != "vectors" || st.Upgrade.PendingRebuilds[0].Reason != ReasonVectorsMissing {
		t.Fatalf("vectors not built: %+v %+v %v", st.Semantic, st.Upgrade, err)
	}
	if err := os.Rename(manifest+".away", manifest); err != nil {
		t.Fatal(err)
	}

	shard := filepath.Join(store.At(home).Index(), gen.Shards[0].Name)
	if err := os.Rename(shard, shard+".away"); err != nil {
		t.Fatal(err)
	}
	st, err = ReadStatusWith(home, def)
	if err != nil || len(st.Upgrade.PendingRebuilds) != 1 || st.Upgrade.PendingRebuilds[0].Kind != "index_shards" ||
		st.Upgrade.PendingRebuilds[0].Reason != ReasonShardMissing || st.Upgrade.PendingRebuilds[0].Count != 1 {
		t.Fatalf("a missing shard: %+v %v", st.Upgrade, err)
	}
}
