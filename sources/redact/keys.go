package redact

import (
	"bytes"
	"strings"
)

// Vocabulary of key names. A key names a secret when its last word (after
// dropping trailer words such as _value or _b64) ends with a secret word
// (PGPASSWORD, githubToken, client_secret), is "auth", is "key" after a
// qualifier (api_key, X-Api-Key, SECRET_KEY), or is "pass"/"pwd" after
// another word (DB_PASS, MYSQL_PWD; a bare PASS is test output).
var (
	secretWords   = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey", "secretkey", "privatekey"}
	keyQualifiers = []string{"api", "access", "private", "secret", "auth", "signing", "encryption", "master", "account", "heroku", "app"}
	trailerWords  = []string{"value", "val", "b64", "base64", "hex", "raw", "str", "string", "base"}
	// stopWords are values that name a state or type, not a secret.
	stopWords = []string{"password", "passwd", "secret", "token", "undefined", "required", "optional", "disabled",
		"enabled", "anonymous", "readonly", "readwrite", "redacted", "changeit", "changeme", "inherit", "default",
		"hidden", "masked", "omitted", "removed", "sensitive", "protected", "encrypted", "override", "external",
		"username", "postgres", "localhost", "automatic", "string", "boolean", "integer", "none", "null", "true", "false", "nil"}
	// placeholderParts mark template values (compared case-insensitively).
	placeholderParts = []string{"xxx", "***", "...", "\u2026", "{{", "}}", "${", "<", ">", "changeme", "change_me", "change-me",
		"example", "placeholder", "your_", "your-", "yourkey", "yourtoken", "yourpass", "yoursecret", "dummy", "redacted",
		"replace_me", "replaceme", "insert_", "sample", "foobar", "fake", "mock"}
	// letterValueWords reject letter-only values that merely name the
	// secret (the-api-key, mySecretName).
	letterValueWords = []string{"secret", "token", "passw", "apikey", "api_key", "api-key", "credential"}
	pathSuffixes     = []string{".pem", ".key", ".json", ".txt", ".crt", ".p12", ".pfx", ".env", ".yaml", ".yml", ".toml"}
)

func isSep(c byte) bool   { return c == '_' || c == '-' || c == '.' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// lastSeg splits the last word off a key: words are separated by _ - . and
// by camel case (dbPassword → db Password, APIKey → API Key).
func lastSeg(k string) (rest, seg string) {
	end := len(k)
	for end > 0 && isSep(k[end-1]) {
		end--
	}
	i := end
	for i > 0 && !isSep(k[i-1]) {
		c := k[i-1]
		if isUpper(c) && i < end && !isUpper(k[i]) && !isDigitByte(k[i]) {
			i--
			break
		}
		if !isUpper(c) && i < end && isUpper(k[i]) {
			break
		}
		i--
	}
	return k[:i], k[i:end]
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// secretKey reports whether a key name says its value is a secret.
func secretKey(key string) bool {
	rest, last := lastSeg(key)
	for rest != "" && inFold(last, trailerWords) {
		rest, last = lastSeg(rest)
	}
	if last == "" {
		return false
	}
	for _, w := range secretWords {
		if len(last) >= len(w) && strings.EqualFold(last[len(last)-len(w):], w) {
			return true
		}
	}
	_, prev := lastSeg(rest)
	switch {
	case strings.EqualFold(last, "auth"):
		return true
	case strings.EqualFold(last, "key"):
		return inFold(prev, keyQualifiers)
	case strings.EqualFold(last, "pass"), strings.EqualFold(last, "pwd"):
		return prev != ""
	}
	return false
}

// plausible reports whether v, assigned to key, looks like a credential
// rather than code, a reference, a path, a type or a placeholder.
func plausible(key, v string, quoted bool) bool {
	if len(v) < minValue || len(v) > maxValue || strings.ContainsAny(v, " \t\r\n") ||
		isPlaceholder(v) || isStopWord(v) || strings.EqualFold(v, key) ||
		strings.Contains(v, "://") || isPath(v) || isConstantName(v) || allDigits(v) {
		return false
	}
	if hasDigit(v) || strings.ContainsAny(v, "!@#$%^&*+=?~") {
		return true
	}
	// Letters and - _ . only: a passphrase, or an identifier.
	for _, w := range letterValueWords {
		if containsFold(v, w) {
			return false
		}
	}
	if strings.ContainsAny(v, "._") {
		return false
	}
	return quoted || !hasClass(key, 'a', 'z')
}

// isPlaceholder reports template values: ${VAR}, <token>, xxx, changeme…
func isPlaceholder(v string) bool {
	if v == "" || strings.IndexByte("$<{[%*&@#!", v[0]) >= 0 || strings.Count(v, v[:1]) == len(v) {
		return true
	}
	if len(v) > maxValue {
		return false
	}
	var buf [maxValue]byte
	lv := buf[:len(v)]
	for i := 0; i < len(v); i++ {
		lv[i] = lower[v[i]]
	}
	for _, p := range placeholderBytes {
		if bytes.Contains(lv, p) {
			return true
		}
	}
	return false
}

var placeholderBytes = func() (out [][]byte) {
	for _, p := range placeholderParts {
		out = append(out, []byte(foldString(p)))
	}
	return out
}()

func isStopWord(v string) bool { return inFold(v, stopWords) }

func isPath(v string) bool {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") {
		return true
	}
	for _, suf := range pathSuffixes {
		if len(v) > len(suf) && strings.EqualFold(v[len(v)-len(suf):], suf) {
			return true
		}
	}
	return false
}

// isConstantName reports an environment variable name used as a value
// (api_key: OPENAI_API_KEY): upper case, digits and underscores, with one.
func isConstantName(v string) bool {
	if !strings.Contains(v, "_") || !isUpper(v[0]) {
		return false
	}
	return constSet.end(v, 0) == len(v)
}

var constSet = newCharset("A-Z0-9_")

func allDigits(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isDigitByte(v[i]) {
			return false
		}
	}
	return true
}
