package core

import "unicode/utf8"

// RuneCut returns the largest length of at most n bytes at which s can be
// cut without splitting a rune (len(s) when s is no longer than n).
func RuneCut(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	cut := max(n, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}

// Clip shortens s to at most n bytes on a rune boundary, marking a cut
// with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:RuneCut(s, n)] + "…"
}

// IsUUID reports whether s has the 8-4-4-4-12 hex shape of a UUID (either
// case): the native session ids of several agents.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// NonEmpty returns the non-empty strings of ss, in order (reusing ss).
func NonEmpty(ss ...string) []string {
	out := ss[:0]
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Strings turns typed string values (event types, roles) into strings;
// nil for none.
func Strings[T ~string](vs []T) []string { return convert[string](vs) }

// Typed turns strings into typed string values (event types, roles); nil
// for none. It is the inverse of Strings.
func Typed[T ~string](vs []string) []T { return convert[T](vs) }

// convert turns string values of one type into another; nil for none.
func convert[To, From ~string](vs []From) []To {
	if len(vs) == 0 {
		return nil
	}
	out := make([]To, len(vs))
	for i, v := range vs {
		out[i] = To(v)
	}
	return out
}

// SessionIDStrings turns session ids into their ses_… strings; nil for
// none.
func SessionIDStrings(ids []SessionID) []string {
	if len(ids) == 0 {
		return nil
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
