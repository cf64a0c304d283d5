// Package ui is the local web viewer behind `ctx ui`: a front end like mcp
// and cmd/ctx that maps request parameters onto the read models and renders
// them as HTML. It has no read model of its own and writes nothing to the
// store; every request pins the active generation once (query.Pool).
//
// Vocabulary:
//   - Secret: 32 random bytes per run, printed in the URL (?k=…). The first
//     request that carries it gets a cookie (HttpOnly, SameSite=Strict,
//     named after the port) and is redirected to the same URL without it;
//     every other request without that cookie is refused.
//   - Guard: the checks every request passes before any handler runs:
//     loopback Host (against DNS rebinding), same-origin Origin and
//     Sec-Fetch-Site, GET or HEAD only, the secret; and the headers every
//     answer carries (a strict Content-Security-Policy without inline
//     script or style, nosniff, no referrer, no framing, no caching).
//   - Fragment: a page asked with frag=1 answers only its list (search
//     results, the next events of a session) for the page's script to
//     insert; the same URL without it is the whole page, so every view is
//     a real link.
//
// Transcript text is hostile: it is rendered only through html/template
// (contextual escaping), terminal escapes and control characters are
// shown escaped, and over-long texts are clipped on the page with a link
// to the whole text served as text/plain.
//
// The assets (templates, one stylesheet, ES modules) are embedded and need
// no build step; the page makes no request to any other origin.
package ui
