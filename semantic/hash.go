package semantic

import (
	"context"
	"ctx/core"
	"fmt"
	"math"
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// DefaultDim is the dimension of the built-in embedder.
const DefaultDim = 384

// MaxEmbedBytes bounds the text the built-in embedder reads of one event:
// the first 8 KiB (cut at a rune boundary). Longer messages are still
// searched in full lexically.
const MaxEmbedBytes = 8 << 10

// Feature weights of the built-in embedder. A word (its case- and
// underscore-folded form) weighs most; the parts of a compound identifier
// (parseConfig → parse, config) and consecutive word pairs less; boundary
// padded character trigrams of each part least, so that retry, retries and
// retrying stay close. Buckets add the squared weights and keep their
// square root, so one occurrence weighs what is written here and n
// occurrences √n times as much.
const (
	weightWord   = 1.0
	weightPart   = 0.6
	weightPair   = 0.4
	weightGram   = 0.25
	maxTokenRune = 64 // longer tokens (blobs, base64) give their word feature only
)

// Hash is the built-in embedder: deterministic feature hashing of words,
// identifier parts, word pairs and character trigrams into Dim signed
// buckets of squared weights, each bucket's square root, L2-normalized. It
// needs no model and no network, and embeds well over 20,000 texts a second
// on one core. It captures shared vocabulary and identifiers, not meaning.
type Hash struct {
	dim int
}

// NewHash returns the built-in embedder of dimension dim (DefaultDim when
// dim <= 0).
func NewHash(dim int) *Hash {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Hash{dim: dim}
}

// ID is ctx-hash-v1-<dim>; the version changes whenever the features do.
func (h *Hash) ID() string { return fmt.Sprintf("ctx-hash-v1-%d", h.dim) }

// Dim returns the dimension.
func (h *Hash) Dim() int { return h.dim }

// Embed embeds each text; it never fails except when ctx is done.
func (h *Hash) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	f := newFeaturizer(h.dim)
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = make([]float32, h.dim)
		f.embed(t, out[i])
	}
	return out, nil
}

// featurizer holds the scratch buffers of one embedding goroutine.
type featurizer struct {
	dim   uint64
	v     []float32
	word  []byte // the folded token
	parts [][2]int
	prev  uint64 // hash of the previous word, 0 at the start
}

func newFeaturizer(dim int) *featurizer {
	return &featurizer{dim: uint64(dim), word: make([]byte, 0, 64)}
}

// embed writes the vector of text into out (len dim).
func (f *featurizer) embed(text string, out []float32) {
	clear(out)
	f.v, f.prev = out, 0
	text = text[:core.RuneCut(text, MaxEmbedBytes)]
	for i := 0; i < len(text); {
		start := i
		for i < len(text) {
			r, n := rune(text[i]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(text[i:])
			}
			if !isWordRune(r) {
				break
			}
			i += n
		}
		if i > start {
			f.token(text[start:i])
			continue
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	for d, x := range out {
		if x > 0 {
			out[d] = float32(math.Sqrt(float64(x)))
		} else if x < 0 {
			out[d] = -float32(math.Sqrt(float64(-x)))
		}
	}
	normalize(out)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// token adds the features of one run of word characters.
func (f *featurizer) token(tok string) {
	f.fold(tok)
	if len(f.word) == 0 {
		return
	}
	long := utf8.RuneCount(f.word) > maxTokenRune
	if len(f.word) < 2 || isStopword(f.word) {
		f.prev = 0
		return
	}
	h := hashBytes(seedWord, f.word)
	f.add(h, weightWord)
	if f.prev != 0 {
		f.add(mix(f.prev*31+h), weightPair)
	}
	f.prev = h
	if long || isNumber(f.word) {
		return
	}
	if len(f.parts) > 1 {
		for _, p := range f.parts {
			part := f.word[p[0]:p[1]]
			if len(part) >= 2 && !isStopword(part) {
				f.add(hashBytes(seedWord, part), weightPart)
			}
		}
	}
	for _, p := range f.parts {
		f.grams(f.word[p[0]:p[1]])
	}
}

// grams adds the boundary-padded character trigrams of a part.
func (f *featurizer) grams(part []byte) {
	if len(part) < 3 {
		return
	}
	var buf [3]byte
	n := len(part)
	for i := -1; i+2 <= n; i++ {
		for k := 0; k < 3; k++ {
			j := i + k
			switch {
			case j < 0:
				buf[k] = '<'
			case j >= n:
				buf[k] = '>'
			default:
				buf[k] = part[j]
			}
		}
		f.add(hashBytes(seedGram, buf[:]), weightGram)
	}
}

// fold writes the lower-cased token without underscores to f.word and the
// byte ranges of its parts (split at underscores, lower→upper and
// letter↔digit changes, and before the last capital of a capital run
// followed by a lower-case letter: HTTPServer → http, server) to f.parts.
func (f *featurizer) fold(tok string) {
	f.word, f.parts = f.word[:0], f.parts[:0]
	start := 0
	var prev rune
	for i, r := range tok {
		if r == '_' {
			f.endPart(&start)
			prev = 0
			continue
		}
		if prev != 0 && boundary(prev, r, tok[i+utf8.RuneLen(r):]) {
			f.endPart(&start)
		}
		prev = r
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			f.word = append(f.word, byte(r))
		} else {
			f.word = utf8.AppendRune(f.word, unicode.ToLower(r))
		}
	}
	f.endPart(&start)
}

func (f *featurizer) endPart(start *int) {
	if len(f.word) > *start {
		f.parts = append(f.parts, [2]int{*start, len(f.word)})
	}
	*start = len(f.word)
}

// boundary reports whether a part ends between prev and r; rest is what
// follows r.
func boundary(prev, r rune, rest string) bool {
	pd, rd := unicode.IsDigit(prev), unicode.IsDigit(r)
	switch {
	case pd != rd:
		return true
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r) && rest != "":
		next, _ := utf8.DecodeRuneInString(rest)
		return unicode.IsLower(next)
	}
	return false
}

// add adds the squared weight w to the bucket of feature hash h, signed by
// another bit of the hash so that collisions cancel out on average.
func (f *featurizer) add(h uint64, w float32) {
	d, _ := bits.Mul64(h, f.dim) // h·dim/2⁶⁴: a bucket without a division
	w *= w
	if h&1 == 1 {
		w = -w
	}
	f.v[d] += w
}

func isNumber(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Hash seeds keep feature kinds apart.
const (
	seedWord = 0x9e3779b97f4a7c15
	seedGram = 0xc2b2ae3d27d4eb4f
)

// hashBytes is FNV-1a over b from seed, finished with mix.
func hashBytes(seed uint64, b []byte) uint64 {
	h := uint64(14695981039346656037) ^ seed
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return mix(h)
}

// mix is the splitmix64 finalizer.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}
