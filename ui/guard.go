package ui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
)

// ErrNotLoopback is returned by Listen for an address off the loopback.
var ErrNotLoopback = errors.New("ctx ui listens on loopback only (127.0.0.1, ::1 or localhost)")

// csp forbids everything but the viewer's own script, style and images:
// no inline script or style, no eval, no other origin, no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// Listen opens a TCP listener on addr, refusing any host that is not a
// loopback address ("localhost" is taken as 127.0.0.1).
func Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: want HOST:PORT", ErrNotLoopback)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return nil, ErrNotLoopback
	}
	return net.Listen("tcp", net.JoinHostPort(ip.String(), port))
}

func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// guard wraps next with the checks of every request.
type guard struct {
	secret string
	port   int
	next   http.Handler
	page   func(w http.ResponseWriter, r *http.Request, err error)
}

func (g *guard) cookieName() string { return "ctx_ui_" + strconv.Itoa(g.port) }

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if err := g.check(r); err != nil {
		g.page(w, r, err)
		return
	}
	if k := r.URL.Query().Get("k"); k != "" {
		if !g.validSecret(k) {
			g.page(w, r, errNoSecret)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: g.cookieName(), Value: g.secret, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode})
		u := *r.URL
		q := u.Query()
		q.Del("k")
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(g.cookieName())
	if err != nil || !g.validSecret(c.Value) {
		g.page(w, r, errNoSecret)
		return
	}
	g.next.ServeHTTP(w, r)
}

func (g *guard) validSecret(s string) bool {
	return subtle.ConstantTimeCompare([]byte(s), []byte(g.secret)) == 1
}

// check refuses what no page of the viewer sends: another Host (a DNS
// rebinding attack names the attacker's host), another Origin or a
// cross-site fetch, a method that is not GET or HEAD.
func (g *guard) check(r *http.Request) error {
	if !g.loopbackHost(r.Host) {
		return errBadHost
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Scheme != "http" || !g.loopbackHost(u.Host) {
			return errBadOrigin
		}
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" && s != "none" {
		return errBadOrigin
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return errMethod
	}
	return nil
}

// loopbackHost reports whether hostport names this server on loopback.
func (g *guard) loopbackHost(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != strconv.Itoa(g.port) {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
