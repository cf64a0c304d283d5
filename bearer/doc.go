// Package bearer keeps the bearer tokens of the HTTP door.
//
// Vocabulary:
//   - Token: a secret printed once at creation ("ctx_" and 43 base64url
//     characters); only its SHA-256 is stored, in $CTX_HOME/tokens.json
//     (0600), beside its id (tok_...), name, scopes, expiry and revocation.
//   - Scope: read:context (get_context, continue_thread, list_threads, the
//     resources, load-context) or write:sessions (save_session,
//     ingest_context). A token defaults to both.
//   - Check: the token of a request resolved to its entry, or a typed error
//     (unknown, revoked, expired).
package bearer
