package semantic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"ctx/core"
	"ctx/openaicompat"
)

// OpenAI embeds through an OpenAI-compatible embeddings endpoint (OpenAI,
// Ollama, LM Studio, llama.cpp, vLLM, …): POST {endpoint}/v1/embeddings with
// {"model", "input": [texts]}. Texts are sent in batches of BatchSize, each
// cut to MaxEmbedBytes; the returned vectors are L2-normalized. Nothing is
// sent anywhere the user did not configure.
type OpenAI struct {
	model string
	// BatchSize is the number of texts per request (64).
	BatchSize int
	// Client is the HTTP client (a 60 s timeout by default).
	Client *http.Client
	server *openaicompat.Client
	dim    atomic.Int64
}

// NewOpenAI returns an embedder for the server at endpoint (its base URL; a
// trailing /v1 is accepted) and the model; key, when not empty, is sent as
// a bearer token.
func NewOpenAI(endpoint, model, key string) *OpenAI {
	server := openaicompat.New(endpoint, key, 60*time.Second)
	return &OpenAI{model: model, BatchSize: 64, Client: server.HTTP, server: server}
}

// ID is openai:<model>: the model decides the vector space, whichever
// server runs it.
func (o *OpenAI) ID() string { return "openai:" + o.model }

// Dim is the length of the vectors the server returned, 0 before the first
// successful call.
func (o *OpenAI) Dim() int { return int(o.dim.Load()) }

// ErrEmbedder wraps every failure of a remote embedder.
var ErrEmbedder = errors.New("semantic: embedder failed")

type embedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// Embed sends the texts in batches and returns their vectors in order.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	batch := max(o.BatchSize, 1)
	for start := 0; start < len(texts); start += batch {
		vecs, err := o.embedBatch(ctx, texts[start:min(start+batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (o *OpenAI) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	input := make([]string, len(texts))
	for i, t := range texts {
		input[i] = t[:core.RuneCut(t, MaxEmbedBytes)]
		if strings.TrimSpace(input[i]) == "" {
			input[i] = " " // servers reject empty input
		}
	}
	srv := *o.server
	srv.HTTP = o.Client // a caller may have replaced the client
	var er embedResponse
	if err := srv.Post(ctx, "embeddings", embedRequest{Model: o.model, Input: input}, &er, 256<<20); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrEmbedder, err)
	}
	return o.collect(er, len(texts))
}

// collect orders the answer's vectors by index, checks that there is one
// per text and that every vector has the same length, and normalizes them.
func (o *OpenAI) collect(er embedResponse, n int) ([][]float32, error) {
	if len(er.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrEmbedder, len(er.Data), n)
	}
	out := make([][]float32, n)
	for i, d := range er.Data {
		idx := d.Index
		if idx == 0 && i > 0 && out[0] != nil {
			idx = i // servers that omit the index answer in order
		}
		if idx < 0 || idx >= n || out[idx] != nil || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("%w: malformed vector list", ErrEmbedder)
		}
		out[idx] = d.Embedding
	}
	dim := int64(len(out[0]))
	for _, v := range out {
		if int64(len(v)) != dim {
			return nil, fmt.Errorf("%w: vectors of different lengths", ErrEmbedder)
		}
		normalize(v)
	}
	if !o.dim.CompareAndSwap(0, dim) && o.dim.Load() != dim {
		return nil, fmt.Errorf("%w: the vector length changed from %d to %d", ErrEmbedder, o.dim.Load(), dim)
	}
	return out, nil
}
