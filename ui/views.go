package ui

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"ctx/query"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// pageNames are the pages, one template file each beside layout.html.
var pageNames = []string{"error", "sessions", "search", "session", "blame", "blame_commit", "blame_pr", "timeline", "stats"}

// views holds one template set per page, each the layout plus the page.
type views struct {
	pages map[string]*template.Template
}

var funcs = template.FuncMap{
	"short": func(id string) string {
		if len(id) > 12 {
			return id[:12]
		}
		return id
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Local().Format("2006-01-02 15:04")
	},
	"clock": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Local().Format("15:04:05")
	},
	"iso": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	},
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.Itoa(n) + " " + many
	},
	"oneline":   oneLine,
	"pct":       func(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" },
	"bytes":     humanBytes,
	"mul100":    func(f float64) float64 { return f * 100 },
	"thousands": thousands,
}

func loadViews() (*views, error) {
	v := &views{pages: map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/filters.html",
			"templates/"+name+".html")
		if err != nil {
			return nil, err
		}
		v.pages[name] = t
	}
	return v, nil
}

// pageData is what every page template receives.
type pageData struct {
	Title string
	Nav   string // the header link to mark current
	Q     string // the header search box
	Gen   *query.GenerationRef
	Data  any
}

// render writes a whole page, or with frag=1 the page's "frag" template.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, pd pageData) error {
	t := s.views.pages[name]
	var buf bytes.Buffer
	tmpl := "layout"
	if r.URL.Query().Get("frag") == "1" && t.Lookup("frag") != nil {
		tmpl = "frag"
	}
	if err := t.ExecuteTemplate(&buf, tmpl, pd); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// errorPage renders err as a page with its status.
func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, err error) {
	e := classify(err)
	if e.Status >= 500 {
		s.logf("%s %s: %v", r.Method, r.URL.Path, err)
	}
	if rerr := s.render(w, r, e.Status, "error", pageData{Title: "Error", Data: e}); rerr != nil {
		http.Error(w, e.Message, e.Status)
	}
}

// assetHandler serves the embedded stylesheet and script modules.
func assetHandler() http.Handler {
	sub, _ := fs.Sub(assetFS, "assets")
	files := http.FileServerFS(sub)
	return http.StripPrefix("/assets/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") || r.URL.Path == "" { // no directory listings
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "private, max-age=3600")
		files.ServeHTTP(w, r)
	}))
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KB"
	}
	return strconv.Itoa(n) + " bytes"
}
