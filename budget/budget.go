package budget

import (
	"hash/maphash"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding names the vocabulary every count uses.
const Encoding = string(tokenizer.O200kBase)

var (
	once  sync.Once
	codec tokenizer.Codec
	err   error
)

func get() tokenizer.Codec {
	once.Do(func() {
		codec, err = tokenizer.Get(tokenizer.O200kBase)
		if err == nil {
			codec.SetErrorMode(tokenizer.ErrorModeReplace)
		}
	})
	if err != nil {
		panic("budget: embedded vocabulary failed to load: " + err.Error())
	}
	return codec
}

// Count returns the number of tokens of s. Counts of longer texts are
// remembered (by a hash of the text, a bounded number of them): the same
// reports and transcripts are counted on every continue_thread.
func Count(s string) int {
	if s == "" {
		return 0
	}
	if len(s) < memoMin {
		return count(s)
	}
	key := maphash.String(seed, s)
	memo.Lock()
	n, ok := memo.m[key]
	memo.Unlock()
	if ok {
		return n
	}
	n = count(s)
	memo.Lock()
	if len(memo.m) >= memoMax {
		clear(memo.m)
	}
	memo.m[key] = n
	memo.Unlock()
	return n
}

const (
	memoMin = 256  // shorter texts are counted again
	memoMax = 8192 // remembered counts
)

var (
	seed = maphash.MakeSeed()
	memo = struct {
		sync.Mutex
		m map[uint64]int
	}{m: map[uint64]int{}}
)

func count(s string) int {
	n, err := get().Count(s)
	if err != nil {
		// ErrorModeReplace never fails on input; count bytes/4 as a bound.
		return len(s)/4 + 1
	}
	return n
}

// Cut returns the longest prefix of s that fits in max tokens, its token
// count, and whether anything was cut. The prefix ends on a whole token and a
// whole UTF-8 character.
func Cut(s string, max int) (string, int, bool) {
	if max <= 0 {
		return "", 0, s != ""
	}
	// A token is at least one byte: a text of at most max bytes fits.
	if len(s) <= max {
		return s, Count(s), false
	}
	// Count only a window that surely holds max tokens' worth of text.
	window := s
	if limit := max * 16; len(window) > limit {
		window = window[:limit]
	}
	ids, _, err := get().Encode(window)
	if err != nil || len(ids) <= max && len(window) == len(s) {
		return s, len(ids), false
	}
	if len(ids) <= max {
		return window, len(ids), true
	}
	out, err := get().Decode(ids[:max])
	if err != nil {
		return "", 0, true
	}
	for len(out) > 0 && !utf8.ValidString(out) {
		out = out[:len(out)-1]
	}
	for len(out) > 0 {
		r, size := utf8.DecodeLastRuneInString(out)
		if r != utf8.RuneError || size > 1 {
			break
		}
		out = out[:len(out)-size]
	}
	return out, Count(out), true
}
