package openaicompat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// ErrServer wraps every failure of a call: the request could not be sent,
// the server answered an error status, or its answer is unreadable.
var ErrServer = errors.New("openai-compatible server failed")

// Client calls one server.
type Client struct {
	base string
	key  string
	// HTTP is the client requests go through (Timeout bounds each call).
	HTTP *http.Client
}

// New returns a client of the server at endpoint (its base URL; a trailing
// /v1 is accepted); key, when not empty, is sent as a bearer token.
// timeout bounds each call (0: none beyond the caller's context).
func New(endpoint, key string, timeout time.Duration) *Client {
	base := strings.TrimRight(endpoint, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return &Client{base: base, key: key, HTTP: &http.Client{Timeout: timeout}}
}

// URL is the address of path ("embeddings", "chat/completions").
func (c *Client) URL(path string) string { return c.base + "/" + path }

// Post sends req as JSON to path and decodes at most limit bytes of the
// answer into resp.
func (c *Client) Post(ctx context.Context, path string, req, resp any, limit int64) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL(path), bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrServer, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		hr.Header.Set("Authorization", "Bearer "+c.key)
	}
	res, err := c.HTTP.Do(hr)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrServer, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
		return fmt.Errorf("%w: the server answered %s", ErrServer, res.Status)
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, limit)).Decode(resp); err != nil {
		return fmt.Errorf("%w: unreadable answer: %v", ErrServer, err)
	}
	return nil
}

// Keyed reports whether the client sends a key.
func (c *Client) Keyed() bool { return c.key != "" }
