package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"ctx/app"
	"ctx/bearer"
	"ctx/query"
	"ctx/sources/reported"
)

// newHandoff wires the spec 001 use cases through the server's App: the
// settings the Config gives, else config.toml's (the defaults when it
// cannot be used: the server keeps serving and logs why to stderr).
func (s *Server) newHandoff() *app.Handoff {
	set := s.cfg.Handoff
	if set == (app.HandoffSettings{}) {
		var err error
		if set, err = s.app.HandoffSettings(); err != nil {
			s.log.Printf("%v: get_context, threads and ingest use their defaults", err)
		}
	}
	return s.app.Handoff(set)
}

type tokenKey struct{}

// withToken records the HTTP token that authorised a request.
func withToken(ctx context.Context, e bearer.Entry) context.Context {
	return context.WithValue(ctx, tokenKey{}, e)
}

func tokenOf(ctx context.Context) (bearer.Entry, bool) {
	e, ok := ctx.Value(tokenKey{}).(bearer.Entry)
	return e, ok
}

// requireScope refuses a call over HTTP whose token lacks scope; stdio has
// every scope (the local user runs it).
func requireScope(ctx context.Context, s *Server, scope, what string) error {
	if s.cfg.Door != reported.DoorHTTP {
		return nil
	}
	e, ok := tokenOf(ctx)
	if ok && e.Has(scope) {
		return nil
	}
	te := failf(query.CodeInsufficientScope, "%s needs a token with scope %s; this token has %v: create one with "+
		"ctx tokens create --scope %s", what, scope, e.Scopes, scope)
	te.details = map[string]any{"required_scope": scope}
	return te
}

// caller is who calls, from the door: the MCP session's clientInfo, its
// id, the token, and the served workspace.
func (s *Server) caller(ctx context.Context) app.Caller {
	c := app.Caller{Door: s.cfg.Door, Conn: s.conn, Root: s.root(ctx)}
	if sess := server.ClientSessionFromContext(ctx); sess != nil {
		if s.cfg.Door == reported.DoorHTTP {
			c.Conn = sess.SessionID()
		}
		if ci, ok := sess.(server.SessionWithClientInfo); ok {
			info := ci.GetClientInfo()
			c.Client = reported.Client{Name: info.Name, Version: info.Version}
		}
	}
	if c.Client.Name == "" && s.cfg.Door == reported.DoorStdio {
		c.Client = s.stdioClient.get()
	}
	if e, ok := tokenOf(ctx); ok {
		c.Token = e.ID
	}
	return c
}

// initClient is the clientInfo of the stdio client, read from its
// initialize request in input order (mcp-go may serve a call piped right
// behind initialize before it stored the session's clientInfo).
type initClient struct {
	mu sync.Mutex
	c  reported.Client
}

func (i *initClient) set(params json.RawMessage) {
	var p struct {
		ClientInfo reported.Client `json:"clientInfo"`
	}
	if json.Unmarshal(params, &p) == nil {
		i.mu.Lock()
		i.c = p.ClientInfo
		i.mu.Unlock()
	}
}

func (i *initClient) get() reported.Client {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.c
}

// rootsCache keeps each MCP session's first file root ("" when it offers
// none), asked once.
type rootsCache struct {
	mu sync.Mutex
	by map[string]string
}

// rootsWait bounds the roots/list request.
const rootsWait = 2 * time.Second

// root is the served workspace: the client's first file root when it
// offers roots, else --root, else the working directory.
func (s *Server) root(ctx context.Context) string {
	if r := s.clientRoot(ctx); r != "" {
		return r
	}
	if s.cfg.Root != "" {
		return s.cfg.Root
	}
	wd, _ := os.Getwd()
	return wd
}

func (s *Server) clientRoot(ctx context.Context) string {
	sess := server.ClientSessionFromContext(ctx)
	ci, ok := sess.(server.SessionWithClientInfo)
	if !ok || ci.GetClientCapabilities().Roots == nil {
		return ""
	}
	s.roots.mu.Lock()
	r, asked := s.roots.by[sess.SessionID()]
	s.roots.mu.Unlock()
	if asked {
		return r
	}
	wctx, cancel := context.WithTimeout(ctx, rootsWait)
	defer cancel()
	res, err := s.mcp.RequestRoots(wctx, mcpgo.ListRootsRequest{})
	if err == nil {
		for _, root := range res.Roots {
			if u, perr := url.Parse(root.URI); perr == nil && u.Scheme == "file" && filepath.IsAbs(u.Path) {
				r = filepath.Clean(u.Path)
				break
			}
		}
	}
	s.roots.mu.Lock()
	if s.roots.by == nil {
		s.roots.by = map[string]string{}
	}
	s.roots.by[sess.SessionID()] = r
	s.roots.mu.Unlock()
	return r
}
