package redact

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
)

// Character sets of the fake secrets. Every secret in the tests is built at
// run time from a seeded generator: syntactically valid, never real.
const (
	digits   = "0123456789"
	uppers   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lowers   = "abcdefghijklmnopqrstuvwxyz"
	alnums   = uppers + lowers + digits
	b64urls  = alnums + "-_"
	hexes    = "0123456789abcdef"
	base32s  = uppers + "234567"
	pwChars  = alnums + "!%*+-_"
	letterCs = uppers + lowers
)

type fake struct{ r *rand.Rand }

func newFake(seed uint64) *fake { return &fake{rand.New(rand.NewPCG(seed, 0x5eed))} }

// str returns n bytes drawn from set.
func (f *fake) str(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[f.r.IntN(len(set))]
	}
	return string(b)
}

// mixed returns n alphanumerics holding at least one digit, one upper and
// one lower case letter (as every real random token does).
func (f *fake) mixed(set string, n int) string {
	b := []byte(f.str(set, n))
	b[f.r.IntN(n/3)] = digits[f.r.IntN(10)]
	b[n/3+f.r.IntN(n/3)] = uppers[f.r.IntN(26)]
	b[2*n/3+f.r.IntN(n-2*n/3)] = lowers[f.r.IntN(26)]
	return string(b)
}

func (f *fake) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(f.r.IntN(256))
	}
	return b
}

func (f *fake) b64(n int) string    { return base64.StdEncoding.EncodeToString(f.bytes(n)) }
func (f *fake) b64url(n int) string { return base64.RawURLEncoding.EncodeToString(f.bytes(n)) }

func (f *fake) uuid() string {
	h := f.str(hexes, 32)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// password is a human-ish password: letters, a digit, a symbol.
func (f *fake) password() string {
	return f.str(letterCs, 6) + f.str(digits, 2) + f.str("!%*+", 1) + f.str(alnums, 3)
}

func (f *fake) awsKeyID(prefix string) string { return prefix + f.str(base32s, 16) }
func (f *fake) awsSecret() string             { return f.mixed(alnums+"+/", 40) }
func (f *fake) ghToken(prefix string) string  { return prefix + f.mixed(alnums, 36) }
func (f *fake) ghFineGrained() string {
	return "github_pat_11" + f.mixed(uppers+digits, 20) + "_" + f.mixed(alnums, 59)
}
func (f *fake) slack(prefix string) string {
	return prefix + f.str(digits, 12) + "-" + f.str(digits, 13) + "-" + f.mixed(alnums, 24)
}
func (f *fake) slackHook() string {
	return "T" + f.str(uppers+digits, 10) + "/B" + f.str(uppers+digits, 10) + "/" + f.mixed(alnums, 24)
}
func (f *fake) openAI() string {
	if f.r.IntN(2) == 0 {
		return "sk-" + f.mixed(alnums, 20) + "T3BlbkFJ" + f.mixed(alnums, 20)
	}
	return "sk-proj-" + f.mixed(b64urls, 74) + "T3BlbkFJ" + f.mixed(b64urls, 74)
}
func (f *fake) anthropic() string { return "sk-ant-api03-" + f.mixed(b64urls, 93) + "AA" }
func (f *fake) googleKey() string { return "AIza" + f.mixed(b64urls, 35) }
func (f *fake) sendgrid() string {
	return "SG." + f.mixed(b64urls, 22) + "." + f.mixed(b64urls, 43)
}
func (f *fake) discord() string {
	id := base64.RawURLEncoding.EncodeToString([]byte("1" + f.str(digits, 17)))
	return id + "." + f.mixed(b64urls, 6) + "." + f.mixed(b64urls, 38)
}
func (f *fake) jwt() string {
	payload := `{"sub":"` + f.str(digits, 10) + `","name":"Ada","iat":1700000000}`
	return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." +
		base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + f.b64url(32)
}

// pem returns a private key block of the given label; body lines are joined
// by nl ("\n", or `\n` for a key inside a JSON string).
func (f *fake) pem(label, nl string, lines int) string {
	var b strings.Builder
	b.WriteString("-----BEGIN " + label + "-----" + nl)
	for range lines {
		b.WriteString(f.b64(48) + nl)
	}
	b.WriteString(f.b64(20) + nl)
	b.WriteString("-----END " + label + "-----")
	return b.String()
}
