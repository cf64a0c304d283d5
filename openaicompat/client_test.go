package openaicompat

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestURLRule(t *testing.T) {
	for in, want := range map[string]string{"http://h:1": "http://h:1/v1/chat/completions",
		"http://h:1/": "http://h:1/v1/chat/completions", "http://h:1/v1/": "http://h:1/v1/chat/completions"} {
		if got := New(in, "", 0).URL("chat/completions"); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// A local server stands in for an OpenAI-compatible one (no upstream runs here).
func TestChatErrorsAreErrServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices the client leaving
		switch r.URL.Query().Get("case") {
		case "slow":
			<-r.Context().Done()
		default:
			http.Error(w, "no", http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	c := New(srv.URL, "", 100*time.Millisecond)
	if _, err := c.Chat(context.Background(), "m", []Message{{Role: "user", Content: "hi"}}, 10); !errors.Is(err, ErrServer) {
		t.Fatalf("429: %v", err)
	}
	c.base += "/x?case=slow&"
	start := time.Now()
	if _, err := c.Chat(context.Background(), "m", nil, 10); !errors.Is(err, ErrServer) || time.Since(start) > 5*time.Second {
		t.Fatalf("slow: %v after %v", err, time.Since(start))
	}
}
