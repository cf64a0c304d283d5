package hooks

import (
	"ctx/store"
	"strings"
)

// scriptTemplate is the hook ctx installs. It runs the chained hook first
// with the same arguments and stdin (post-rewrite's stdin is buffered so
// both see it), then ctx (for post-commit, ctx-hook beside the ctx binary
// when it is there: it hands the work to a running daemon and runs ctx
// when none does it), and exits 0 whatever happens: a hook never fails or
// blocks a commit.
const scriptTemplate = `#!/bin/sh
` + marker + `
# Installed by "ctx hooks install": links commits to the agent evidence behind
# them (git notes under refs/notes/ctx). "ctx hooks remove" restores the hook
# that was here before, kept meanwhile as @HOOK@` + ChainSuffix + `.
hook=@HOOK@
ctx_bin=@BIN@
ctx_log=@LOG@
@HOME@
hooks_dir=$(dirname "$0")
[ -x "$ctx_bin" ] || ctx_bin=$(command -v ctx 2>/dev/null)
input=/dev/null
if [ "$hook" = post-rewrite ]; then
	input=$(mktemp "${TMPDIR:-/tmp}/ctx-hook.XXXXXX") || input=/dev/null
	[ "$input" = /dev/null ] || cat >"$input"
fi
if [ -x "$hooks_dir/$hook` + ChainSuffix + `" ]; then
	"$hooks_dir/$hook` + ChainSuffix + `" "$@" <"$input"
fi
ctx_hook=$(dirname "$ctx_bin" 2>/dev/null)/ctx-hook
if [ -n "$ctx_bin" ] && [ "$hook" = post-commit ] && [ -x "$ctx_hook" ]; then
	"$ctx_hook" "$ctx_bin" "$hook" "$@" <"$input" >/dev/null 2>&1
elif [ -n "$ctx_bin" ]; then
	"$ctx_bin" hooks run "$hook" "$@" <"$input" >/dev/null 2>&1
else
	mkdir -p "$(dirname "$ctx_log")" 2>/dev/null &&
		echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $hook $(pwd): ctx binary not found (was @BIN@)" >>"$ctx_log"
fi
[ "$input" = /dev/null ] || rm -f "$input"
exit 0
`

// script renders the hook for name.
func script(name string, opts Options) string {
	bin := opts.Binary
	if bin == "" {
		bin = "ctx"
	}
	home := ""
	if opts.Home != "" {
		home = `CTX_HOME=${CTX_HOME:-` + shellQuote(opts.Home) + `}; export CTX_HOME`
	}
	r := strings.NewReplacer("@HOOK@", name, "@BIN@", shellQuote(bin), "@LOG@", shellQuote(store.At(opts.Home).HooksLog()),
		"@HOME@", home)
	return r.Replace(scriptTemplate)
}

// shellQuote quotes s for sh with single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
