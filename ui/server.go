package ui

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	"ctx/app"
	"ctx/core"
	"ctx/query"
)

// Options configure a Server.
type Options struct {
	Home string   // the store ($CTX_HOME)
	Env  core.Env // discovery environment (semantic configuration)
	// Repo is the repository the blame page opens first (the directory
	// ctx ui was started in); empty when there is none.
	Repo string
	// Secret overrides the random per-run secret (tests).
	Secret string
	// Log receives one line per failed request (never transcript text).
	Log *log.Logger
}

// Server is the viewer of one store.
type Server struct {
	opts   Options
	app    *app.App // the use cases, with one pooled Reader
	secret string
	views  *views
	http   *http.Server
	ln     net.Listener
	// sessionsLimit is the number of sessions a page of the list shows
	// (and each page scrolling appends).
	sessionsLimit int
}

// New returns a server of the store in opts.Home listening on ln, which
// must be a loopback listener (Listen).
func New(opts Options, ln net.Listener) (*Server, error) {
	ta, ok := ln.Addr().(*net.TCPAddr)
	if !ok || !ta.IP.IsLoopback() {
		return nil, ErrNotLoopback
	}
	v, err := loadViews()
	if err != nil {
		return nil, err
	}
	// The viewer reads like every front end, through the use-case layer: a
	// pooled Reader and no daemon wake (it writes nothing, starts nothing).
	a := app.New(app.Options{Env: opts.Env, Home: opts.Home, Pooled: true, NoWake: true, KeepServing: true})
	s := &Server{opts: opts, app: a, secret: opts.Secret, views: v, ln: ln, sessionsLimit: 40}
	if s.secret == "" {
		s.secret = newSecret()
	}
	g := &guard{secret: s.secret, port: ta.Port, next: s.routes(), page: s.errorPage}
	s.http = &http.Server{Handler: g, ReadHeaderTimeout: 10 * time.Second, ErrorLog: opts.Log}
	return s, nil
}

// URL is the address to open: the listener's, with the run's secret.
func (s *Server) URL() string {
	return fmt.Sprintf("http://%s/?k=%s", s.ln.Addr().String(), s.secret)
}

// Serve answers requests until ctx is done, then shuts down.
func (s *Server) Serve(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(s.ln) }()
	select {
	case err := <-errc:
		s.app.Close()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.http.Shutdown(sctx)
	<-errc
	s.app.Close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /assets/", assetHandler())
	mux.HandleFunc("GET /{$}", s.page(s.sessions))
	mux.HandleFunc("GET /search", s.page(s.search))
	mux.HandleFunc("GET /session/{id}", s.page(s.session))
	mux.HandleFunc("GET /event", s.page(s.event))
	mux.HandleFunc("GET /event/{id}", s.page(s.event))
	mux.HandleFunc("GET /raw/{id}", s.raw)
	mux.HandleFunc("GET /timeline", s.page(s.timeline))
	mux.HandleFunc("GET /stats", s.page(s.stats))
	mux.HandleFunc("GET /blame", s.page(s.blameFile))
	mux.HandleFunc("GET /blame/commit", s.page(s.blameCommit))
	mux.HandleFunc("GET /blame/pr", s.page(s.blamePR))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.errorPage(w, r, errNotFound) })
	return mux
}

// handler renders a page or returns the error to render instead.
type handler func(w http.ResponseWriter, r *http.Request) error

// page turns a handler into an http.HandlerFunc that renders its error as
// a page and survives its panic: one bad request never stops the server.
func (s *Server) page(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				s.logf("panic serving %s: %v", r.URL.Path, p)
				s.errorPage(w, r, &Error{Status: http.StatusInternalServerError, Code: string(query.CodeInternal),
					Message: "the viewer failed on this request; it keeps serving the others"})
			}
		}()
		if err := h(w, r); err != nil {
			s.errorPage(w, r, err)
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		s.opts.Log.Printf(format, args...)
	}
}

// read runs fn with a Reader pinned to the active generation.
func (s *Server) read(fn func(*query.Reader) error) error {
	return s.app.Read(context.Background(), fn)
}
