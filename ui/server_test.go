package ui

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:0", "example.com:0", ":0", "nonsense"} {
		if ln, err := Listen(addr); !errors.Is(err, ErrNotLoopback) {
			if ln != nil {
				ln.Close()
			}
			t.Errorf("Listen(%q) = %v, want ErrNotLoopback", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := Listen(addr)
		if err != nil {
			t.Fatalf("Listen(%q): %v", addr, err)
		}
		ln.Close()
	}
}

func TestGuard(t *testing.T) {
	rn := startServer(t, getWorld(t))
	if code, body := rn.get(t, "/"); code != http.StatusForbidden || !strings.Contains(body, "secret") {
		t.Fatalf("no secret: %d", code)
	}
	if code, _ := rn.get(t, "/?k=wrong"); code != http.StatusForbidden {
		t.Fatalf("a wrong secret: %d", code)
	}
	res, err := rn.client.Get(rn.srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" || len(res.Cookies()) != 1 {
		t.Fatalf("first load: %d to %q with %d cookies", res.StatusCode, res.Header.Get("Location"), len(res.Cookies()))
	}
	if c := res.Cookies()[0]; !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", c)
	}
	if code, _ := rn.get(t, "/"); code != http.StatusOK {
		t.Fatalf("with the cookie: %d", code)
	}
	port := rn.base[strings.LastIndex(rn.base, ":"):]
	for _, tc := range []struct {
		name string
		hdr  []string
		want int
	}{
		{"rebinding host", []string{"Host", "attacker.example" + port}, http.StatusMisdirectedRequest},
		{"other port", []string{"Host", "127.0.0.1:1"}, http.StatusMisdirectedRequest},
		{"forged origin", []string{"Origin", "http://attacker.example"}, http.StatusForbidden},
		{"null origin", []string{"Origin", "null"}, http.StatusForbidden},
		{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		{"localhost passes the host check", []string{"Host", "localhost" + port, "Cookie", ""}, http.StatusForbidden},
		{"same origin", []string{"Origin", rn.base, "Sec-Fetch-Site", "same-origin"}, http.StatusOK},
	} {
		if code, _ := rn.get(t, "/", tc.hdr...); code != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.want)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, rn.base+"/search", strings.NewReader("q=x"))
	res, err = rn.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", res.StatusCode)
	}
	res, err = rn.client.Get(rn.base + "/assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("headers: %v", res.Header)
	}
}

// TestBadInput sends what a confused or hostile caller would: each answer
// is a typed error page, the server keeps serving, the store is unchanged.
func TestBadInput(t *testing.T) {
	w := getWorld(t)
	before := storeDigest(t, w.store)
	rn := startServer(t, w)
	rn.login(t)
	sid := w.hostile.String()
	for _, tc := range []struct {
		path string
		want int
		code string
	}{
		{"/session/ses_00000000000000000000000000000000", 404, "not_found"},
		{"/session/..%2F..%2Fetc%2Fpasswd", 404, "not_found"}, // resolved like any id or prefix: no such session
		{"/session/" + sid + "?mode=everything", 400, "invalid_request"},
		{"/session/" + sid + "?from=-3", 400, "invalid_request"},
		{"/session/" + sid + "?from=99999999", 400, "invalid_request"},
		{"/session/" + sid + "?at=abc", 400, "invalid_request"},
		{"/event/evt_00000000000000000000000000000000", 404, "not_found"},
		{"/event?id=../../etc/passwd", 400, "invalid_request"},
		{"/raw/nope", 400, "invalid_request"},
		{"/search?q=x&scope=everything", 400, "invalid_request"},
		{"/search?q=x&mode=psychic", 400, "invalid_request"},
		{"/assets/../../../etc/passwd", 307, ""}, // the mux cleans the path: /etc/passwd, no such page
		{"/assets/%2e%2e/%2e%2e/etc/passwd", 404, ""},
		{"/etc/passwd", 404, "not_found"},
		{"/assets/", 404, ""},
		{"/nope", 404, "not_found"},
		{"/blame?repo=relative/dir&file=x", 400, "invalid_request"},
		{"/blame?repo=/etc/../etc&file=x", 400, "invalid_request"},
		{"/blame?repo=" + os.TempDir() + "&file=x", 400, "invalid_request"},
		{"/blame?repo=" + w.repo + "&file=../../../../etc/passwd", 400, "invalid_request"},
		{"/blame?repo=" + w.repo + "&file=/etc/passwd", 400, "invalid_request"},
		{"/blame?repo=" + w.repo + "&file=hello.go&lines=9-3", 400, "invalid_request"},
		{"/blame?repo=" + w.repo + "&file=hello.go&lines=500-600", 400, "invalid_request"},
		{"/blame/commit?repo=" + w.repo + "&rev=no-such-rev", 400, "invalid_request"},
		{"/blame/pr?repo=" + w.repo + "&range=HEAD", 400, "invalid_request"},
		{"/timeline?since=yesterday-ish", 400, "invalid_request"},
		{"/timeline?repo=" + os.TempDir(), 400, "invalid_request"},
		{"/timeline?repo=../../etc", 400, "invalid_request"},
		{"/stats?period=month", 400, "invalid_request"},
		{"/stats?until=2026-13-45", 400, "invalid_request"},
	} {
		code, body := rn.get(t, tc.path)
		if code != tc.want || !strings.Contains(body, tc.code) {
			t.Errorf("%s: %d, want %d %s", tc.path, code, tc.want, tc.code)
		}
		if strings.Contains(body, "root:x:") {
			t.Fatalf("%s leaked a file", tc.path)
		}
	}
	for _, p := range []string{"/", "/search?q=hostile", "/session/" + sid + "?mode=log", "/blame?repo=" + w.repo + "&file=hello.go",
		"/blame/commit?repo=" + w.repo, "/blame/pr?repo=" + w.repo + "&range=HEAD~0..HEAD"} {
		if code, _ := rn.get(t, p); code != http.StatusOK {
			t.Errorf("%s after the bad input: %d", p, code)
		}
	}
	if after := storeDigest(t, w.store); after != before {
		t.Fatal("the viewer changed the store")
	}
}

// storeDigest hashes every path, mode and content of the store except the
// cursor key, the one file any reader may create (package query).
func storeDigest(t *testing.T, dir string) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() == "cursor.key" {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h.Write([]byte(p + info.Mode().String() + info.ModTime().String()))
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// TestSessionsStaleCursor continues a list after the store published a
// new generation: the page starts again from the top and says so.
func TestSessionsStaleCursor(t *testing.T) {
	w := getWorld(t)
	base := t.TempDir()
	cp := &world{home: filepath.Join(base, "home"), store: filepath.Join(base, "store"), repo: w.repo}
	for src, dst := range map[string]string{w.home: cp.home, w.store: cp.store} {
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	rn := startServer(t, cp)
	rn.srv.sessionsLimit = 2
	rn.login(t)
	code, body := rn.get(t, "/?sort=name")
	i := strings.Index(body, `class="more" href="`)
	if code != 200 || i < 0 {
		t.Fatalf("first page: %d, next link %d", code, i)
	}
	next := body[i+len(`class="more" href="`):]
	next = strings.ReplaceAll(next[:strings.IndexByte(next, '"')], "&amp;", "&")
	if code, body := rn.get(t, next); code != 200 || !strings.Contains(body, "srow") {
		t.Fatalf("second page: %d", code)
	}
	if code, body := rn.get(t, "/?sort=name&cursor=forged"); code != 400 || !strings.Contains(body, "invalid_cursor") {
		t.Fatalf("a forged cursor: %d", code)
	}
	if code, _ := rn.get(t, "/?since=yesterdayish"); code != 400 {
		t.Fatalf("a bad since: %d", code)
	}
	// A new session, imported: the cursor's generation is no longer active.
	dir := filepath.Join(cp.home, ".claude", "projects", "-tmp-new")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	rec := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s-new","cwd":"/tmp/new","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"a new session"}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s-new.jsonl"), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := cp.importAll(); err != nil {
		t.Fatal(err)
	}
	code, _ = rn.get(t, next)
	if code != http.StatusSeeOther {
		t.Fatalf("a stale cursor: %d, want a redirect to the first page", code)
	}
	if code, body := rn.get(t, "/?sort=name&stale=1"); code != 200 || !strings.Contains(body, "starts again from the top") {
		t.Fatalf("the restarted list: %d", code)
	}
}
