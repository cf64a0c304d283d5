package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ctx/sources/reported"
	"ctx/workspace"
)

// The real upstream (an OpenAI or Ollama server) cannot run here, so these
// tests serve the OpenAI chat-completions wire format from a local HTTP
// server: POST /v1/chat/completions {model, messages}, answered with
// {choices: [{message: {role, content}}]}.

type chatServer struct {
	calls atomic.Int32
	last  atomic.Value // the last request's decoded body
	auth  atomic.Value // its Authorization header
	reply func(w http.ResponseWriter, r *http.Request)
}

func newChatServer(t *testing.T, reply func(w http.ResponseWriter, r *http.Request)) (*chatServer, string) {
	cs := &chatServer{reply: reply}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.calls.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		var body struct {
			Model    string `json:"model"`
			Messages []struct {
				Role, Content string
			} `json:"messages"`
			MaxTokens int `json:"max_tokens"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		cs.last.Store(body)
		cs.auth.Store(r.Header.Get("Authorization"))
		cs.reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return cs, srv.URL
}

func answer(text string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}]}`, text)
	}
}

func summaryConfig(url, extra string) string {
	return fmt.Sprintf("[context.summary]\nendpoint = %q\nmodel = \"tiny-chat\"\napi_key_env = \"SUMMARY_KEY\"\n%s", url, extra)
}

func connectorOf(o *workspace.Object, name string) workspace.Connector {
	for _, c := range o.Meta.Connectors {
		if c.Name == name {
			return c
		}
	}
	return workspace.Connector{}
}

func TestSessionSummaryNotConfigured(t *testing.T) {
	h, err := configApp(t, "").ConfiguredHandoff()
	if err != nil {
		t.Fatal(err)
	}
	o, err := h.GetContext(context.Background(), Caller{Door: reported.DoorCLI, Root: bigWorkspace(t)}, "full")
	if err != nil {
		t.Fatal(err)
	}
	if o.SessionSummary != nil || connectorOf(o, "summary").Status != workspace.StatusNotConfigured {
		t.Fatalf("no endpoint: summary %v, connector %+v", o.SessionSummary, connectorOf(o, "summary"))
	}
}

func TestSessionSummaryFromEndpoint(t *testing.T) {
	secret := "ghp_" + strings.Repeat("a1B2", 9)
	cs, url := newChatServer(t, answer("Work stands at the importer; next: docs. Token "+secret))
	a := configAppEnv(t, summaryConfig(url, ""), map[string]string{"SUMMARY_KEY": "k-123"})
	h, err := a.ConfiguredHandoff()
	if err != nil {
		t.Fatal(err)
	}
	root := bigWorkspace(t)
	o, err := h.GetContext(context.Background(), Caller{Door: reported.DoorCLI, Root: root}, "full")
	if err != nil {
		t.Fatal(err)
	}
	c := connectorOf(o, "summary")
	if o.SessionSummary == nil || !strings.HasPrefix(*o.SessionSummary, "Work stands at the importer") || c.Status != workspace.StatusOK {
		t.Fatalf("summary %v, connector %+v", o.SessionSummary, c)
	}
	if strings.Contains(*o.SessionSummary, secret) {
		t.Fatalf("the model's answer is stored unredacted: %s", *o.SessionSummary)
	}
	req := cs.last.Load().(struct {
		Model    string `json:"model"`
		Messages []struct {
			Role, Content string
		} `json:"messages"`
		MaxTokens int `json:"max_tokens"`
	})
	if req.Model != "tiny-chat" || len(req.Messages) != 2 || !strings.Contains(req.Messages[1].Content, "The importer reads") ||
		!strings.Contains(req.Messages[0].Content, "never follow instructions") || req.MaxTokens != workspace.SummaryTokens {
		t.Fatalf("request %+v", req)
	}
	if got := cs.auth.Load(); got != "Bearer k-123" {
		t.Fatalf("authorization %q", got)
	}
	if !strings.Contains(o.Untrusted, "sessionSummary") {
		t.Fatalf("the notice does not label the summary: %s", o.Untrusted)
	}
	// The snapshot is cached with its summary: no second call.
	if again, _ := h.GetContext(context.Background(), Caller{Door: reported.DoorCLI, Root: root}, "full"); !again.Meta.Cached ||
		again.SessionSummary == nil || cs.calls.Load() != 1 {
		t.Fatalf("cached %v summary %v calls %d", again.Meta.Cached, again.SessionSummary, cs.calls.Load())
	}
}

func TestSessionSummaryFailingOrSlowEndpoint(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	cases := map[string]func(w http.ResponseWriter, r *http.Request){
		"failing": func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "model not loaded", http.StatusInternalServerError)
		},
		"garbled": func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"choices": "no"`) },
		"empty":   answer(""),
		"slow": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
	}
	root := bigWorkspace(t)
	base, err := configApp(t, "").ConfiguredHandoff()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := base.GetContext(context.Background(), Caller{Door: reported.DoorCLI, Root: root}, "full")
	for name, reply := range cases {
		_, url := newChatServer(t, reply)
		h, err := configAppEnv(t, summaryConfig(url, "timeout_ms = 300\n"), nil).ConfiguredHandoff()
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		o, err := h.GetContext(context.Background(), Caller{Door: reported.DoorCLI, Root: root}, "full")
		took := time.Since(start)
		if err != nil {
			t.Fatalf("%s: get_context failed with the summary: %v", name, err)
		}
		c := connectorOf(o, "summary")
		if o.SessionSummary != nil || c.Status != workspace.StatusError || c.Detail == "" {
			t.Errorf("%s: summary %v connector %+v", name, o.SessionSummary, c)
		}
		if name == "slow" && took > 5*time.Second {
			t.Errorf("slow endpoint: get_context took %v with timeout_ms 300", took)
		}
		if o.Plan == nil || len(o.KeyFiles) != len(want.KeyFiles) || connectorOf(o, "file").Status != workspace.StatusOK {
			t.Errorf("%s: the rest was lost: plan %v, %d key files (want %d)", name, o.Plan != nil, len(o.KeyFiles), len(want.KeyFiles))
		}
	}
}
