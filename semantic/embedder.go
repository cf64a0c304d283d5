package semantic

import (
	"context"
	"ctx/config"
	"fmt"
	"math"
)

// Embedder turns texts into vectors of one space. Vectors of two embedders
// are comparable only when both ID and Dim are equal ("compatible").
type Embedder interface {
	// ID names the vector space: the algorithm or model and its version.
	ID() string
	// Dim is the vector length; 0 while an embedder that learns it from
	// its server has not embedded anything yet.
	Dim() int
	// Embed returns one L2-normalized vector per text, in order. A text with
	// nothing to embed gives a zero vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// NewEmbedder returns the configured embedder; getenv resolves APIKeyEnv.
func NewEmbedder(c config.Semantic, getenv func(string) string) (Embedder, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("semantic: %w", err)
	}
	if c.Embedder != config.EmbedderOpenAI {
		return NewHash(DefaultDim), nil
	}
	key := ""
	if c.APIKeyEnv != "" && getenv != nil {
		key = getenv(c.APIKeyEnv)
	}
	return NewOpenAI(c.Endpoint, c.Model, key), nil
}

// normalize scales v to unit length in place; a zero vector stays zero.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}
