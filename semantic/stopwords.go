package semantic

import (
	"strings"
	"sync"
)

// stopwords are English function words that carry no topic; the built-in
// embedder gives them no feature (and breaks word pairs at them). Built on
// first use: a process that never embeds never pays for it.
var stopwords = sync.OnceValue(func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(`a about above after again all also am an and any are as at be
		because been before being below between both but by can could did do does doing done down
		during each few for from further had has have having he her here hers him his how i if in
		into is it its itself just let me more most my no nor not now of off on once only or other
		our ours out over own same she should so some such than that the their theirs them then
		there these they this those through to too under until up us very was we were what when
		where which while who whom why will with would you your yours yes ok okay please thanks
		thank sure i'm it's don't can't let's`) {
		m[w] = struct{}{}
	}
	return m
})

// isStopword reports whether the folded word is a stopword; the map lookup
// does not allocate.
func isStopword(b []byte) bool {
	_, ok := stopwords()[string(b)]
	return ok
}
