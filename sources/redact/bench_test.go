package redact

import (
	"strings"
	"testing"
)

// typicalTexts are ~500-byte event texts of the kinds an agent history
// holds: prose, code, a diff, test and build output, JSON tool output, a
// shell session. They mention tokens and passwords but hold no secret.
var typicalTexts = []string{
	"I'll start by looking at how the session token is refreshed. The auth middleware reads the bearer token from the " +
		"Authorization header, validates it against the key set, and stores the user id in the request context. When the " +
		"token has expired, the client is expected to call /v1/auth/refresh with its refresh token; the password is only " +
		"asked for again when the refresh token is revoked. Let me read internal/auth/middleware.go and the tests next to it " +
		"so that the fix keeps the existing behaviour for API keys.",
	"func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {\n\tvar req loginRequest\n" +
		"\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n\t\thttp.Error(w, \"bad request\", http.StatusBadRequest)\n\t\treturn\n\t}\n" +
		"\tuser, err := s.users.Authenticate(r.Context(), req.Username, req.Password)\n\tif err != nil {\n" +
		"\t\ts.log.Warn(\"login failed\", \"user\", req.Username, \"err\", err)\n\t\thttp.Error(w, \"unauthorized\", http.StatusUnauthorized)\n\t\treturn\n\t}\n" +
		"\ttoken, err := s.tokens.Issue(user.ID, 24*time.Hour)\n\tif err != nil {\n\t\treturn\n\t}\n\twriteJSON(w, loginResponse{Token: token})\n}\n",
	"diff --git a/internal/auth/token.go b/internal/auth/token.go\nindex 3f2a9c1..9b8c7d6 100644\n--- a/internal/auth/token.go\n" +
		"+++ b/internal/auth/token.go\n@@ -41,7 +41,9 @@ func (t *Tokens) Issue(uid string, ttl time.Duration) (string, error) {\n" +
		" \tclaims := jwt.MapClaims{\"sub\": uid, \"exp\": time.Now().Add(ttl).Unix()}\n-\treturn jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)\n" +
		"+\ttok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)\n+\ttok.Header[\"kid\"] = t.keyID\n+\treturn tok.SignedString(t.key)\n }\n",
	"=== RUN   TestIssueToken\n--- PASS: TestIssueToken (0.00s)\n=== RUN   TestRefreshExpired\n--- PASS: TestRefreshExpired (0.01s)\n" +
		"=== RUN   TestLoginWrongPassword\n    middleware_test.go:88: status = 401, want 401\n--- PASS: TestLoginWrongPassword (0.00s)\n" +
		"=== RUN   TestKeyRotation\n--- FAIL: TestKeyRotation (0.02s)\n    token_test.go:131: kid = \"k1\", want \"k2\"\nFAIL\n" +
		"FAIL\tgithub.com/acme/app/internal/auth\t0.412s\nok  \tgithub.com/acme/app/internal/users\t0.108s\nFAIL\n",
	`{"type":"tool_result","tool_use_id":"toolu_01HXkq3Vf8Zt2s","content":[{"type":"text","text":"internal/auth/middleware.go\n` +
		`internal/auth/middleware_test.go\ninternal/auth/token.go\ninternal/auth/token_test.go\ninternal/users/store.go\n` +
		`internal/users/store_test.go\ncmd/server/main.go\n"}],"is_error":false,"ctx_event_id":"evt_4b1f0c2d9e8a7b6c5d4e3f2a1b0c9d8e",` +
		`"ctx_session_id":"ses_0a1b2c3d4e5f60718293a4b5c6d7e8f9","timestamp":"2024-05-01T10:00:00Z","model":"claude-sonnet-4"}`,
	"$ git log --oneline -8\n9b8c7d6 (HEAD -> fix/token-kid) auth: set kid header on issued tokens\n3f2a9c1 users: hash passwords with argon2id\n" +
		"8e7d6c5 ci: cache go build\n7d6c5b4 auth: refresh endpoint returns 401 on revoked token\n6c5b4a3 docs: explain API key scopes\n" +
		"5b4a392 deps: bump golang.org/x/crypto to v0.58.0\n4a39281 server: graceful shutdown\n3928170 initial import\n$ go build ./... && go vet ./...\n$ ",
}

// withSecrets plants one secret in each typical text.
func withSecrets() []string {
	f := newFake(7)
	secrets := []string{"export GITHUB_TOKEN=" + f.ghToken("ghp_"), "DB_PASSWORD=" + f.password(),
		"Authorization: Bearer " + f.jwt(), "postgres://app:" + f.password() + "@db/app", "OPENAI_API_KEY=" + f.openAI(),
		"aws_secret_access_key = " + f.awsSecret()}
	out := make([]string, len(typicalTexts))
	for i, s := range typicalTexts {
		out[i] = s[:len(s)/2] + "\n" + secrets[i%len(secrets)] + "\n" + s[len(s)/2:]
	}
	return out
}

// BenchmarkString reports events/s by the wall clock and events/cpu-s by
// the process's CPU time (the honest figure on a shared machine).
func BenchmarkString(b *testing.B) {
	r := New()
	for _, c := range []struct {
		name  string
		texts []string
	}{{"benign", typicalTexts}, {"secrets", withSecrets()}} {
		b.Run(c.name, func(b *testing.B) {
			size := 0
			for _, s := range c.texts {
				size += len(s)
			}
			b.SetBytes(int64(size / len(c.texts)))
			b.ReportAllocs()
			i, cpu0 := 0, cpuTime()
			for b.Loop() {
				r.String(c.texts[i%len(c.texts)])
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(b.N)/cpu.Seconds(), "events/cpu-s")
			}
		})
	}
}

func TestTypicalTexts(t *testing.T) {
	r := New()
	for _, s := range typicalTexts {
		if n := len(s); n < 400 || n > 700 {
			t.Errorf("typical text of %d bytes, want about 500", n)
		}
		if out, n := r.String(s); n != 0 {
			t.Errorf("typical text redacted: %q", out)
		}
	}
	for _, s := range withSecrets() {
		if out, n := r.String(s); n != 1 || !strings.Contains(out, markerOpen) {
			t.Errorf("planted text: %d replacements in %q", n, out)
		}
	}
}
