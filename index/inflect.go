package index

import "strings"

// maxForms bounds the inflected forms one query word adds.
const maxForms = 6

// inflections returns other English forms of an analyzed query term that
// may be in the index, which holds words unstemmed: fail gives fails,
// failed, failing; failed gives fail; tiers gives tier; query gives
// queries. Only lowercase ASCII words of four letters or more are
// inflected (identifiers, hashes and short words stay exact); the caller
// keeps only the forms some document holds.
func inflections(t string) []string {
	if len(t) < 4 || !isLowerASCIIWord(t) {
		return nil
	}
	var out []string
	add := func(f string) {
		if len(f) >= 3 && f != t && !contains(out, f) {
			out = append(out, f)
		}
	}
	stems := []string{t}
	switch {
	case strings.HasSuffix(t, "ies"):
		stems = append(stems, t[:len(t)-3]+"y")
	case strings.HasSuffix(t, "sses"), strings.HasSuffix(t, "shes"), strings.HasSuffix(t, "ches"), strings.HasSuffix(t, "xes"):
		stems = append(stems, t[:len(t)-2])
	case strings.HasSuffix(t, "ss"), strings.HasSuffix(t, "us"), strings.HasSuffix(t, "is"):
	case strings.HasSuffix(t, "s"):
		stems = append(stems, t[:len(t)-1])
	case strings.HasSuffix(t, "ied"):
		stems = append(stems, t[:len(t)-3]+"y")
	case strings.HasSuffix(t, "ed"):
		stems = append(stems, t[:len(t)-2], t[:len(t)-1])
	case strings.HasSuffix(t, "ing"):
		stems = append(stems, t[:len(t)-3], t[:len(t)-3]+"e")
	}
	if len(stems) > 1 {
		stems = stems[1:] // inflect the stems, not the inflected word
	}
	for _, s := range stems {
		add(s)
		switch {
		case strings.HasSuffix(s, "y") && !strings.ContainsAny(s[len(s)-2:len(s)-1], "aeiou"):
			add(s[:len(s)-1] + "ies")
			add(s[:len(s)-1] + "ied")
		case strings.HasSuffix(s, "e"):
			add(s + "s")
			add(s + "d")
			add(s[:len(s)-1] + "ing")
		case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "sh"), strings.HasSuffix(s, "ch"):
			add(s + "es")
			add(s + "ed")
			add(s + "ing")
		default:
			add(s + "s")
			add(s + "ed")
			add(s + "ing")
		}
	}
	if len(out) > maxForms {
		out = out[:maxForms]
	}
	return out
}

func isLowerASCIIWord(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return false
		}
	}
	return true
}
