package index

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// TestWordTokensAsUnicode checks that wordTokens finds exactly the tokens of
// bleve's unicode tokenizer: on texts drawn from the bytes and runes where
// the word-break rules differ (joiners between letters and digits, '_',
// quotes, control characters, combining marks, ideographs, kana, Hebrew,
// emoji with joiners), and on the fixture-like texts of the analyzer tests.
// Invalid UTF-8, which import replaces before indexing, is only run: there
// the unicode segmenter drops the rest of a text or joins bytes across a
// space, and wordTokens keeps to its fields.
func TestWordTokensAsUnicode(t *testing.T) {
	pieces := []string{
		"a", "Z", "q", "7", "0", "_", ":", ".", "'", ",", ";", "\"", "-", "/", "@", "#", "(", ")",
		" ", "  ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\x00", "\x1f", "\x7f",
		"é", "ß", "\u0301", "\u200d", "\u00ad", "日本", "ア", "ｱ", "한", "א", "ב", "🙂", "👍🏽", "🇫🇷",
		"\xff", "\xe2\x82", "’", "·", "\u2019", "٣", "\u00a0", "\u2028",
		"parseConfig", "internal/store/index.go", "1,000.50", "don't", "a.b.c", "x_y", "v1.2.3",
	}
	rng := rand.New(rand.NewSource(1))
	var b strings.Builder
	for n := 0; n < 60000; n++ {
		b.Reset()
		for k := rng.Intn(12); k >= 0; k-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		sameTokens(t, b.String())
	}
	for _, s := range []string{
		"", " ", "_", "__init__", "a:b", "http://example.com/a_b?c=1,2", "3.14159", "1.2.3.4", "a1.2b",
		"1.a", "a.1", "a_.b", "1__2", "_1_", "it's 1'000", "x.'y", "ok.", "'a'", "a''b", "a::b",
		"`go test ./pkg/client/...` is failing again, can you look at `backoff_object`?",
		"\u001b[1mPostToolUse:Edit\u001b[22m", "café crème", "naïve_Résumé", "日本語のテキスト and English",
	} {
		sameTokens(t, s)
	}
}

func sameTokens(t *testing.T, s string) {
	t.Helper()
	want := bleveunicode.NewUnicodeTokenizer().Tokenize([]byte(s))
	got := wordTokens([]byte(s))
	if !utf8.ValidString(s) {
		return // only that it does not panic: see wordTokens
	}
	if render(got) != render(want) {
		t.Fatalf("%q:\n got %s\nwant %s", s, render(got), render(want))
	}
}

func render(ts analysis.TokenStream) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "[%q %d-%d #%d %v]", t.Term, t.Start, t.End, t.Position, t.Type)
	}
	return b.String()
}

func FuzzWordTokens(f *testing.F) {
	for _, s := range []string{"a.b", "1,2", "x_y z", "日本 a'b", "\xffa"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameTokens(t, s) })
}

func BenchmarkWordTokens(b *testing.B) {
	text := []byte(strings.Repeat("`go test ./pkg/client/...` is failing again, can you look at "+
		"`backoff_object`? This looks like the change race: thread_version returns 1,024. ", 8))
	b.Run("unicode", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for i := 0; i < b.N; i++ {
			bleveunicode.NewUnicodeTokenizer().Tokenize(text)
		}
	})
	b.Run("words", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for i := 0; i < b.N; i++ {
			wordTokens(text)
		}
	})
}
