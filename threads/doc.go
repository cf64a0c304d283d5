// Package threads keeps durable thread names and merges a thread's
// sessions into one history a fresh agent can resume from.
//
// Vocabulary:
//   - Thread: a durable name (created on first use) grouping reported
//     sessions (their records name it) and imported sessions added to it
//     (ctx threads add, or save_session's continues_from).
//   - Registry: $CTX_HOME/threads.jsonl, an append-only log of create and
//     add operations (0600), appended under an exclusive file lock.
//   - Match: how a name given by a user or model found its thread: exact
//     (case, spacing and punctuation aside), prefix, fuzzy (a few typos),
//     or most_recent when no name was given; several close names are a
//     shortlist, never a guess.
//   - Merge: the thread's entries in time order within a token budget, the
//     newest detailed and the oldest summarised, each tagged with its
//     harness, door and time.
package threads
