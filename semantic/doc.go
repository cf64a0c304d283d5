// Package semantic embeds the transcript of a generation and searches it
// by vector similarity, for the semantic and hybrid search modes (spec 000).
//
// Vocabulary:
//   - Embedder: turns texts into L2-normalized vectors of one space, named
//     by its ID and Dim. Two embedders are compatible when both are equal.
//     Hash is the built-in one (feature hashing, deterministic, offline);
//     OpenAI calls an OpenAI-compatible /v1/embeddings endpoint that the
//     user configured (a local Ollama, LM Studio, llama.cpp or a hosted
//     service); nothing else ever leaves the machine.
//   - Projection: the events that get vectors — messages and summaries with
//     text (InProjection). Tool calls and outputs are searched lexically
//     only, so hybrid search of the calls or outputs scope falls back to
//     lexical and semantic-only search of them is unsupported.
//   - Set: an immutable directory $CTX_HOME/vectors/<32 hex>/ holding
//     set.json (embedder, dimension, counts, CRC-32C) and vectors.bin: the
//     int8-quantized vectors column-major with a scale per row, and per row
//     the event id, time, type, role, chunk and session (see format.go).
//     The chunk table lists every chunk the set covers, with or without rows.
//   - Manifest: $CTX_HOME/vectors/generations/<generation id>.json, the
//     sets that cover one generation and, per set, its dead chunks (chunks
//     rewritten or gone since the set was written, whose rows are skipped).
//     Build writes it after the lexical generation is published; a reader
//     pinned to a generation reads only that generation's manifest, so a
//     result never mixes generations, and a generation without one simply
//     has no vectors yet. A sidecar keyed by generation id was chosen over
//     publishing a second generation: the generation (and every cursor bound
//     to it) stays the same while its vectors are built behind it.
//   - Incremental build: the nearest ancestor generation with vectors of the
//     same embedder is the base; its sets are carried over, the sessions
//     whose objects changed are diffed chunk by chunk, only uncovered chunks
//     are read and embedded, and the chunks the new tree no longer names are
//     marked dead. Once there are more than DefaultMaxSets sets, the small
//     ones are merged. Sweep removes what no kept generation names.
//
// Search is exact: the query is quantized to integers (so no int32 sum can
// overflow), and every live row's dot product with it is computed over the
// query's non-zero dimensions only, one column at a time, in blocks that
// stay in cache, on GOMAXPROCS goroutines; a row's score is its dot product
// times its scale. The built-in embedder's queries have a few dozen non-zero
// dimensions of 384, so a search reads a small fraction of the codes. Rows
// are filtered with the lexical index's rules (core.Filter), and the k best kept
// in a heap. No cgo: Bleve's own vector search needs FAISS.
//
// The built-in embedder hashes features of a text into 384 signed buckets:
// each word folded to lower case without underscores (parseConfig,
// ParseConfig and parse_config are one feature), the parts of compound
// identifiers, pairs of consecutive words and boundary-padded character
// trigrams of each part, with English stopwords dropped; each bucket is
// dampened by a square root and the vector normalized. Texts that share
// identifiers and vocabulary are close; synonyms are not. Point the
// configuration at a real embedding model for meaning.
package semantic
