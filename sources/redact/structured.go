package redact

import "strings"

const (
	maxPEM      = 64 << 10 // bytes of body searched for the END line
	minPEMBody  = 32       // base64 bytes a block must carry to be a key
	maxUserinfo = 256
)

var (
	pemLabel = newCharset("A-Z0-9 ")
	// pemBody: base64, line breaks (real or JSON-escaped), and the header
	// lines of legacy encrypted keys (Proc-Type: 4,ENCRYPTED).
	pemBody    = newCharset("A-Za-z0-9+/= \t\r\n\\:,-")
	schemeSet  = newCharset("A-Za-z0-9+.-")
	userSet    = userinfoSet(false)
	passSet    = userinfoSet(true)
	hostStart  = newCharset("A-Za-z0-9[")
	b64Letters = newCharset("A-Za-z0-9+/")
)

// userinfoSet is the bytes of a URL user name (or password, which may also
// hold ':'): printable ASCII except delimiters, quotes and brackets, plus
// UTF-8.
func userinfoSet(pass bool) *charset {
	c := newCharset("!-~")
	for _, b := range []byte("/?#@[]{}<>\"'`\\|^ ") {
		c.in[b] = false
	}
	c.in[':'] = pass
	for b := 0x80; b < 0x100; b++ {
		c.in[b] = true
	}
	return c
}

// matchPEM matches "-----BEGIN <label> PRIVATE KEY-----", a body of at
// least minPEMBody base64 bytes, and the END line; without an END line (a
// truncated print) the body up to its last base64 line.
func matchPEM(s string, at, n int) hit {
	i := at + n
	if i >= len(s) || s[i] != ' ' {
		return hit{next: i}
	}
	j := pemLabel.end(s, i+1)
	label := s[i+1 : j]
	if !strings.HasSuffix(label, "PRIVATE KEY") && !strings.HasSuffix(label, "PRIVATE KEY BLOCK") {
		return hit{next: j}
	}
	if !strings.HasPrefix(s[j:], "-----") {
		return hit{next: j}
	}
	body := j + 5
	k, count := body, 0
	for ; k < len(s) && k-body < maxPEM && pemBody.in[s[k]]; k++ {
		if s[k] == '-' && strings.HasPrefix(s[k:], "-----END ") {
			e := strings.Index(s[k+9:min(len(s), k+9+64)], "-----")
			if e < 0 || count < minPEMBody {
				return hit{next: k}
			}
			end := k + 9 + e + 5
			return hit{lo: at, hi: end, next: end, ok: true}
		}
		if b64Letters.in[s[k]] {
			count++
		}
	}
	if count < minPEMBody {
		return hit{next: k}
	}
	return hit{lo: at, hi: trimPEMTail(s, body, k), next: k, ok: true}
}

// trimPEMTail ends a block that has no END line: trailing whitespace and a
// last line holding a space (prose that follows the key) are left out.
func trimPEMTail(s string, body, end int) int {
	nl := max(strings.LastIndexByte(s[body:end], '\n'), strings.LastIndex(s[body:end], `\n`))
	if nl >= 0 && strings.ContainsAny(s[body+nl:end], " \t") {
		end = body + nl
	}
	for end > body {
		switch {
		case strings.ContainsRune(" \t\r\n", rune(s[end-1])):
			end--
		case end-body >= 2 && s[end-2:end] == `\n`:
			end -= 2
		default:
			return end
		}
	}
	return end
}

// matchURL matches the password of scheme://user:password@host; the anchor
// is "://". The user may be empty; the password must not be a placeholder.
func matchURL(s string, at, n int) hit {
	st := at
	for st > 0 && at-st < 32 && schemeSet.in[s[st-1]] {
		st--
	}
	if st == at || !isLetter(s[st]) {
		return hit{next: at + n}
	}
	u := at + n
	c := userSet.end(s[:min(len(s), u+maxUserinfo)], u)
	if c >= len(s) || s[c] != ':' {
		return hit{next: c}
	}
	p := c + 1
	e := passSet.end(s[:min(len(s), p+maxUserinfo)], p)
	if e == p || e+1 >= len(s) || s[e] != '@' || !hostStart.in[s[e+1]] {
		return hit{next: e}
	}
	if isPlaceholder(s[p:e]) || isStopWord(s[p:e]) {
		return hit{next: e}
	}
	return hit{lo: p, hi: e, next: e, ok: true}
}

func isLetter(c byte) bool { return lower[c] >= 'a' && lower[c] <= 'z' }

// authSchemes are the Authorization schemes whose credentials follow a space.
var authSchemes = []string{"bearer", "basic", "token", "bot", "apikey"}

// matchAuthorization matches `Authorization: <scheme> <credentials>` in
// headers, JSON, code (set("Authorization", "…")) and logs; a value without
// a known scheme is the credential itself.
func matchAuthorization(s string, at, n int) hit {
	i := skipQuote(s, at+n)
	i = skipBlanks(s, i)
	if i >= len(s) || (s[i] != ':' && s[i] != '=' && s[i] != ',') {
		return hit{next: i}
	}
	i = skipQuote(s, skipBlanks(s, i+1))
	w := i
	for w < len(s) && isLetter(s[w]) {
		w++
	}
	if w < len(s) && (s[w] == ' ' || s[w] == '\t') && inFold(s[i:w], authSchemes) {
		i = skipBlanks(s, w)
	}
	return credential(s, i)
}

// matchBearer matches a bare "Bearer <token>" (logs, curl lines, code).
func matchBearer(s string, at, n int) hit {
	if at > 0 && alnum.in[s[at-1]] {
		return hit{next: at + 1}
	}
	i := at + n
	if i >= len(s) || (s[i] != ' ' && s[i] != '\t') {
		return hit{next: i}
	}
	return credential(s, skipBlanks(s, i))
}

// credential matches a token68 credential at i: at least 8 bytes with a
// digit, or mixed case from 16 bytes, and not a placeholder.
func credential(s string, i int) hit {
	e := token68.end(s, i)
	for e > i && s[e-1] == '.' {
		e--
	}
	v := s[i:e]
	if len(v) < 8 || isPlaceholder(v) || (!hasDigit(v) && (len(v) < 16 || !hasUpperLower(v))) {
		return hit{next: e}
	}
	return hit{lo: i, hi: e, next: e, ok: true}
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// skipQuote skips one quote, or a backslash-escaped quote (JSON inside a
// JSON string).
func skipQuote(s string, i int) int {
	if i+1 < len(s) && s[i] == '\\' && isQuote(s[i+1]) {
		return i + 2
	}
	if i < len(s) && isQuote(s[i]) {
		return i + 1
	}
	return i
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }

func inFold(w string, list []string) bool {
	for _, x := range list {
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}
