// Package sources finds agent history and holds one parser per provider
// (sources/claude, sources/codex, …), each a core.Provider.
//
// Vocabulary:
//   - Provider: an agent whose history ctx reads, named by its provider id
//     (claude-code, codex).
//   - Discovery: listing a provider's history files in its default
//     locations, honouring its environment overrides (CLAUDE_CONFIG_DIR,
//     CODEX_HOME); problems are counted by stable code, never with contents.
package sources
