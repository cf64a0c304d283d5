package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"ctx/bearer"
)

// HTTPPath is the endpoint of the HTTP door.
const HTTPPath = "/mcp"

// door is the HTTP front of a server: Origin check, bearer token, MCP
// session bound to the token that opened it, then mcp-go's Streamable HTTP.
type door struct {
	s        *Server
	next     *server.StreamableHTTPServer
	tokens   *bearer.Store
	origins  map[string]bool // allowed non-loopback origins (scheme://host[:port])
	mu       sync.Mutex
	sessions map[string]string // MCP session id → token id
}

// HTTPHandler returns the HTTP door of a server made with Door mcp-http.
// allowedOrigins are origins besides loopback ones that browsers may call
// from.
func (s *Server) HTTPHandler(allowedOrigins []string) http.Handler {
	d := &door{s: s, tokens: bearer.Open(s.cfg.CtxHome), origins: map[string]bool{}, sessions: map[string]string{}}
	for _, o := range allowedOrigins {
		d.origins[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	d.next = server.NewStreamableHTTPServer(s.mcp,
		server.WithEndpointPath(HTTPPath),
		server.WithStreamableHTTPProtocolVersions(ProtocolVersions...),
		server.WithStreamableHTTPLogger(slog.New(slog.NewTextHandler(s.cfg.Log, nil))),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context {
			if e, ok := tokenOf(r.Context()); ok {
				ctx = withToken(ctx, e)
			}
			return withPinnedVersions(ctx)
		}))
	return d
}

// httpError is the JSON body of a refusal before MCP.
type httpError struct {
	ErrorCode string `json:"error_code"`
	Message   string `json:"message"`
}

func refuse(w http.ResponseWriter, status int, code, msg string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="ctx", error="invalid_token"`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(httpError{ErrorCode: code, Message: msg})
}

func (d *door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !d.originAllowed(r.Header.Get("Origin")) {
		refuse(w, http.StatusForbidden, "origin_forbidden", "requests from this Origin are refused (DNS rebinding protection)")
		return
	}
	e, err := d.authorize(r)
	if err != nil {
		refuse(w, http.StatusUnauthorized, "unauthorized", err.Error())
		return
	}
	if sid := r.Header.Get(server.HeaderKeySessionID); sid != "" {
		d.mu.Lock()
		owner, known := d.sessions[sid]
		d.mu.Unlock()
		switch {
		case !known:
			refuse(w, http.StatusNotFound, "session_not_found", "no such MCP session: initialize a new one")
			return
		case owner != e.ID:
			refuse(w, http.StatusForbidden, "session_forbidden", "this MCP session was opened with another token")
			return
		}
		if r.Method == http.MethodDelete {
			defer d.forget(sid)
		}
	}
	start := time.Now()
	answered, tool := d.judgeHTTP(w, r)
	if answered {
		return
	}
	bw := &bindWriter{ResponseWriter: w, bind: func(sid string) { d.bind(sid, e.ID) }}
	if tool == "" {
		d.next.ServeHTTP(bw, r.WithContext(withToken(r.Context(), e)))
		return
	}
	uw := &usageWriter{ResponseWriter: bw}
	d.next.ServeHTTP(uw, r.WithContext(withToken(r.Context(), e)))
	uw.count(d.s, tool, start)
}

// authorize checks the bearer token; the store is read per request so that
// a revocation applies to the next request.
func (d *door) authorize(r *http.Request) (bearer.Entry, error) {
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || strings.TrimSpace(tok) == "" {
		return bearer.Entry{}, errors.New("a bearer token is required: create one with ctx tokens create")
	}
	e, err := d.tokens.Check(tok, d.s.cfg.Now())
	switch {
	case errors.Is(err, bearer.ErrRevoked):
		return e, errors.New("this token was revoked: create a new one with ctx tokens create")
	case errors.Is(err, bearer.ErrExpired):
		return e, errors.New("this token has expired: create a new one with ctx tokens create")
	case err != nil:
		d.s.logf("token check: %v", err)
		return e, errors.New("unknown token")
	}
	return e, nil
}

// originAllowed accepts no Origin (a non-browser client), loopback origins
// and the configured ones.
func (d *door) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if d.origins[strings.TrimRight(strings.ToLower(origin), "/")] {
		return true
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (d *door) bind(sid, token string) {
	d.mu.Lock()
	if _, ok := d.sessions[sid]; !ok {
		d.sessions[sid] = token
	}
	d.mu.Unlock()
}

func (d *door) forget(sid string) {
	d.mu.Lock()
	delete(d.sessions, sid)
	d.mu.Unlock()
}

// bindWriter sees the session id mcp-go assigns on initialize.
type bindWriter struct {
	http.ResponseWriter
	bind  func(string)
	wrote bool
}

func (b *bindWriter) WriteHeader(code int) {
	if !b.wrote {
		b.wrote = true
		if sid := b.Header().Get(server.HeaderKeySessionID); sid != "" && code < 300 {
			b.bind(sid)
		}
	}
	b.ResponseWriter.WriteHeader(code)
}

func (b *bindWriter) Write(p []byte) (int, error) {
	if !b.wrote {
		b.WriteHeader(http.StatusOK)
	}
	return b.ResponseWriter.Write(p)
}

func (b *bindWriter) Flush() {
	if f, ok := b.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (b *bindWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// ServeHTTPOn serves the HTTP door on ln until ctx ends.
func (s *Server) ServeHTTPOn(ctx context.Context, ln net.Listener, allowedOrigins []string) error {
	srv := &http.Server{Handler: s.HTTPHandler(allowedOrigins), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	err := srv.Serve(ln)
	s.usage.Flush(flushTimeout)
	_ = s.app.Close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
