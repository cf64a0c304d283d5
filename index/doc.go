// Package index builds and searches the Bleve index shards of a generation.
//
// Vocabulary:
//   - Shard: an immutable Bleve (scorch) index directory under an index
//     root, named by random hex. BuildShards writes new shards from a stream
//     of Docs; nothing writes a shard after it is published. A shard
//     directory appears under its final name only once it is complete,
//     private (dirs 0700, files 0600), fsynced and verified by reopening.
//   - Doc: one event, its session, the id of the chunk object storing it and
//     its position there. BuildShards indexes the consecutive events of one
//     chunk (up to 64) as one Bleve document, a group, named by its first
//     event id; the ev field holds its events' ids (their first 64 bits).
//   - Group scoring: a search matches groups, then reads the matched
//     groups' events from the store (WithChunks, or WithEvents) and scores
//     each event against the same query, compiled twice (eval.go). A
//     group's text is analyzed with each event's terms once after an event
//     marker, so a term's frequency in a group is the number of its events
//     holding it: summed over the generation, these are the document count
//     and document frequencies of a per-event index, and BM25 scores an
//     event from its own terms and length exactly as when each event had a
//     document. The cost of that stays with the events that can match: a
//     chunk is kept as its events' JSON (Chunk) and an event is decoded only
//     when its bytes hold the query's terms or identifiers; its length is
//     stored in the group's hit (format 3), and a term is counted by
//     analyzing only the pieces of its text that hold it. A
//     group holds each distinct term once and pays the fixed cost of each
//     field once, measured at 2.4 times fewer postings than one document
//     per event.
//   - Reader: the shards of one generation opened read-only (with a bolt
//     timeout) behind one index alias. Shards are listed oldest first.
//   - Superseded: a generation's tombstones. An event re-imported into a
//     newer shard leaves its old copy in an older shard; the predicate drops
//     such copies from results.
//   - Scope and class weights (spec 000): applied at query time. The scope
//     selects event types with a filter, and the top candidates by Bleve
//     score — max(5×limit, 100) of them, never every hit — are multiplied by
//     the weight of their stored event type and re-sorted.
//   - Root group: sessions sharing a root_session_id (a primary session and
//     its subagents). Results give one hit per group before any repeats;
//     see core.GroupHits and core.PrimaryPreference.
//
// Text analysis. The text field (event text plus command, tool name, file
// paths and MCP server/tool names) is indexed with the code-aware analysis
// (codeTokenizer and English stop words; the group is analyzed as the shard
// is built and handed to bleve as its terms: a finished document whose
// fields hold their term frequencies, see fields.go), which keeps
// compound tokens whole and also gives their parts: internal/store/index.go
// yields the path, its suffixes, index.go, index and go; s.parseConfig yields
// s.parseconfig, parseconfig, parse and config; parse_config also yields the
// folded parseconfig. The index holds all but the derived forms (the
// compound, its path suffixes, the folded identifier): they cost a quarter
// of the index and an eighth of the import's CPU, and a search finds them
// through the terms they are made of (a path by its words, the folded
// parseconfig of a camelCase query by parse_config), then checks each
// candidate event's own analysis, which scores it as before. Queries are analyzed with the plain standard
// analyzer, so parseConfig, ParseConfig and parse_config find each other, a
// path finds its file name, and a query does not explode into many
// sub-terms (which the study measured at 10 ms against 4 ms). A query typed
// in lower case (parseconfig) finds parseConfig but not parse_config. The text is neither stored nor
// indexed with term vectors: phrase queries are never issued (bleve would
// silently return nothing), so quoted text is searched as its words.
// Query words that look like exact identifiers — ses_…/evt_… ids, 7–64
// digit hex hashes, paths and file names, error codes such as E0308 or
// ENOENT — add boosted exact clauses so that exact matches rank first.
//
// Storage. Keyword fields (session, root session, provider, workspace,
// source root and group; the union of the group's event types, roles, files
// with their base names and tools) are indexed for filters and exact
// clauses; the session-level ones are exact, the others select groups and
// are checked again on each event. Time is two keywords: day (the group's
// UTC YYYYMMDD days; time filters are a term range over days, the exact
// bound is checked on each event) and ts (a sortable hex of the group's
// newest time with doc values: a search without text reads groups newest
// first until no further group can hold a newer event). A datetime field
// would index about 16 prefix-coded terms per value, measured at a third of
// the indexing CPU and over a quarter of the shard. The only stored field,
// hit, packs the group's session values, chunk id and event positions;
// loading one field through a shard reader costs about half of bleve's
// field loading.
//
// Build performance (2 cores, bleve v2.6.3; the throughput study and the
// benchmarks here): each writer goroutine owns one shard and two run at once;
// one goroutine before them gathers the docs into groups.
// A shard is written by bleve's offline builder: each batch becomes a
// segment file in the shard's build directory, and Close merges them
// mergeFanIn at a time into one segment, so an event is merged once in a
// shard of up to mergeFanIn segments and about log64(segments) times in a
// larger one; a build's writers merge in turn while the input flows and
// their last shards side by side once the parse's heap is returned (see
// mergeGate). It replaced bleve's online index (docs/benchmarks.md, "The offline
// builder and ASCII words"): 35% less CPU for a 200k import, a 38% smaller
// index and a lower peak, with the same answers. The online index's merge
// planner counts documents, and with a document per group every segment of
// a build stayed under its 2,000-document floor, so it merged the same
// small segments again and again (38% of an import's CPU).
package index
