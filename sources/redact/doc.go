// Package redact removes secrets that agents printed or typed (API keys,
// tokens, private keys, passwords) from event text before anything is stored
// or indexed.
//
// Vocabulary:
//   - Secret: a credential in text. It is replaced by a marker,
//     [REDACTED:<rule-id>]; the text around it stays. For assignments the
//     key stays (DB_PASSWORD=[REDACTED:secret-assignment]); for URLs the
//     user and host stay (https://ci:[REDACTED:url-password]@host); for
//     Authorization headers the scheme stays (Bearer [REDACTED:auth-header]).
//   - Rule: one kind of secret, named by a stable kebab-case id. Rules()
//     lists them in priority order with a description and the shape matched
//     in regular-expression notation (for documentation; matching is
//     hand-written, see Performance).
//   - Anchor: a literal that every match of a rule contains (ghp_, AKIA,
//     -----BEGIN, ://, or a key word such as token); case-insensitive for
//     key words, header names and connection-string keys.
//   - Token rule: a fixed prefix then runs of a character class with length
//     bounds, not preceded by a letter or digit (task-… is not sk-…).
//   - Key word: a word that makes a key name a secret's: one ending in
//     password, passwd, passphrase, secret, token, apikey, accesskey,
//     secretkey or privatekey (PGPASSWORD, githubToken, client_secret);
//     auth; key after api, access, private, secret, auth, signing,
//     encryption, master, account, heroku or app (X-Api-Key); pass or pwd
//     after another word (DB_PASS; a bare PASS is test output). Trailing
//     value/b64/raw/string/base words are skipped (secret_key_base); any
//     other trailing word means the value is not the secret (token_limit,
//     password_file, secretName).
//   - Placeholder: a value that stands for a secret: ${VAR}, $VAR, <token>,
//     {{ var }}, %s, ****, xxx, …, changeme, example, your_…, dummy,
//     [REDACTED:…]. Never redacted.
//   - Credential shape: an assigned value of 8 to 512 bytes without blanks
//     that is not a placeholder, path, URL, number, type or state word
//     (required, disabled, string…), upper-case variable name or code (a
//     dotted reference, or followed by ( or [), and has a digit or a symbol;
//     a letters-only value counts when quoted or when the key is an
//     upper-case variable (POSTGRES_PASSWORD=hunterhunter).
//   - Overlap: matches that overlap are merged into one marker (no piece of
//     either survives) named by the earliest, then longest, then
//     higher-priority rule: vendor formats win over jwt, url-password,
//     auth-header and secret-assignment.
//
// Rules (ids): private-key, github-token, gitlab-token, npm-token,
// pypi-token, anthropic-key, openai-key, huggingface-token,
// aws-access-key-id, google-api-key, google-oauth-secret,
// google-oauth-token, azure-storage-key, digitalocean-token,
// heroku-api-key, slack-token, slack-webhook, discord-bot-token,
// stripe-key, twilio-api-key, sendgrid-key, mailgun-key, jwt, url-password,
// auth-header, aws-secret-key, secret-assignment.
//
// Not covered: secrets without a recognisable prefix or key name (Twilio
// auth tokens, Mailgun's newer keys, legacy Heroku UUIDs and generic
// high-entropy strings are found only when assigned to a secret-named key;
// entropy alone would flag git shas, UUIDs and ctx's own ids), passwords
// given as command arguments without a key (curl -u user:pw, mysql -pPW),
// quoted values holding blanks (passphrases, but also UI strings such as
// "Password must be…"), and letters-only values assigned in lower-case code
// (token = response is a variable).
//
// Performance. One pass over the text tests each byte pair against a bitset
// of the anchors' first two bytes (in both cases for case-insensitive
// anchors); only where it hits are
// the anchors compared and a rule's matcher run on the bytes around the
// anchor, so a typical 500-byte event without secrets costs about a
// microsecond of CPU and no allocation. Matchers are bounded and report how
// far they looked, so dense anchors cannot make a scan quadratic. Text with
// secrets is scanned again until nothing matches, which makes String
// idempotent. A Redactor is immutable and safe for concurrent use.
package redact
