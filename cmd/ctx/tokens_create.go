package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"ctx/bearer"
)

type tokensCreateOptions struct {
	name    string
	scopes  []string
	expires string
}

// TokenCreated is ctx tokens create --format json: the secret, once.
type TokenCreated struct {
	TokenRow
	Token string `json:"token"`
}

func newTokensCreateCmd(env *Env, f *format) *cobra.Command {
	var opts tokensCreateOptions
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a token (printed once; only its hash is stored)",
		Long: "Create a bearer token for ctx mcp serve --http. The token is printed once and only\n" +
			"its SHA-256 is stored (in $CTX_HOME/tokens.json, 0600). Scopes: read:context\n" +
			"(get_context, continue_thread, list_threads, the resources, load-context) and\n" +
			"write:sessions (save_session, ingest_context); a token has both unless --scope says.",
		Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error { return runTokensCreate(env, f, opts) }),
	}
	cmd.Flags().StringVar(&opts.name, "name", "", "a name to recognise the token by")
	cmd.Flags().StringArrayVar(&opts.scopes, "scope", nil, "read:context or write:sessions (repeatable; default both)")
	cmd.Flags().StringVar(&opts.expires, "expires", "", "lifetime, e.g. 90d or 12h (default: no expiry)")
	return cmd
}

func runTokensCreate(env *Env, f *format, opts tokensCreateOptions) error {
	var ttl time.Duration
	if opts.expires != "" {
		var err error
		if ttl, err = parseLifetime(opts.expires); err != nil {
			return err
		}
	}
	tok, e, err := bearer.Open(env.CtxHome()).Create(opts.name, opts.scopes, ttl, env.Now())
	if errors.Is(err, bearer.ErrScope) {
		return usagef("%v", err)
	}
	if err != nil {
		return err
	}
	out := TokenCreated{TokenRow: tokenRow(e, env.Now()), Token: tok}
	return f.write(env, out, func() {
		fmt.Fprintf(env.Stdout, "%s\n", tok)
		fmt.Fprintf(env.Stderr, "token %s (%s), scopes %v: shown once, store it now\n", e.ID, e.Name, e.Scopes)
	})
}
