package semantic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeServer is an OpenAI-compatible embeddings endpoint that embeds with
// the built-in embedder (so its vectors are deterministic) and returns them
// in reverse order with their indexes. check, when set, sees every request.
func fakeServer(t testing.TB, check func(*http.Request, embedRequest)) *httptest.Server {
	t.Helper()
	h := NewHash(48)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req embedRequest
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if check != nil {
			check(r, req)
		}
		vecs, _ := h.Embed(r.Context(), req.Input)
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(vecs) - 1; i >= 0; i-- {
			v := vecs[i]
			if len(v) > 0 {
				v[0] += 0.5 // not normalized, as some servers answer
			}
			data = append(data, item{Object: "embedding", Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestOpenAIRequests(t *testing.T) {
	var calls atomic.Int32
	srv := fakeServer(t, func(r *http.Request, req embedRequest) {
		calls.Add(1)
		if r.Header.Get("Authorization") != "Bearer k3y" || req.Model != "m1" || len(req.Input) > 2 {
			t.Errorf("auth %q model %q inputs %d", r.Header.Get("Authorization"), req.Model, len(req.Input))
		}
		for _, in := range req.Input {
			if in == "" || len(in) > MaxEmbedBytes {
				t.Errorf("input of %d bytes sent", len(in))
			}
		}
	})
	e := NewOpenAI(srv.URL+"/", "m1", "k3y")
	e.BatchSize = 2
	texts := []string{"a b c", "", strings.Repeat("long ", 5000), "d e f", "g"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 3 || len(vecs) != 5 || e.Dim() != 48 {
		t.Fatalf("%d calls, %d vectors, dim %d", calls.Load(), len(vecs), e.Dim())
	}
	want := embedOne(t, NewOpenAI(srv.URL, "m1", "k3y"), "d e f")
	if c := cosine(vecs[3], want); c < 0.9999 {
		t.Fatalf("batch order lost: cosine %f", c)
	}
}

func TestOpenAIFailures(t *testing.T) {
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error": {"message": "secret detail"}}`, http.StatusUnauthorized)
	}))
	defer status.Close()
	short := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"data": [{"index": 0, "embedding": [1, 0]}]}`))
	}))
	defer short.Close()
	ragged := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"data": [{"index": 0, "embedding": [1, 0]}, {"index": 1, "embedding": [1]}]}`))
	}))
	defer ragged.Close()
	for name, url := range map[string]string{"status": status.URL, "short": short.URL, "ragged": ragged.URL,
		"down": "http://127.0.0.1:1"} {
		_, err := NewOpenAI(url, "m", "").Embed(context.Background(), []string{"x", "y"})
		if !errors.Is(err, ErrEmbedder) {
			t.Errorf("%s: %v, want ErrEmbedder", name, err)
		}
		if err != nil && strings.Contains(err.Error(), "secret detail") {
			t.Errorf("%s: the error repeats the server's body", name)
		}
	}
}
