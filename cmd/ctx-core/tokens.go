package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ctx/bearer"
	"ctx/query"
)

func newTokensCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "tokens", Short: "Manage the bearer tokens of the HTTP MCP door (ctx mcp serve --http)",
		Args: cobra.NoArgs, RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	cmd.AddCommand(newTokensCreateCmd(env, f), &cobra.Command{
		Use:   "list",
		Short: "List tokens (never their secrets)",
		Args:  cobra.NoArgs,
		RunE:  answer(env, f, func(*cobra.Command, []string) (TokenList, error) { return listTokens(env) }, printTokens),
	}, &cobra.Command{
		Use:   "revoke ID|NAME",
		Short: "Revoke a token: the HTTP door refuses it from its next request on",
		Args:  cobra.ExactArgs(1),
		RunE: answer(env, f, func(_ *cobra.Command, args []string) (TokenRow, error) { return revokeToken(env, args[0]) },
			func(env *Env, t TokenRow) { fmt.Fprintf(env.Stdout, "revoked %s (%s)\n", t.ID, t.Name) }),
	})
	return cmd
}

// TokenRow is one token of ctx tokens list --format json (never its secret).
type TokenRow struct {
	ID      string     `json:"id"`
	Name    string     `json:"name"`
	Scopes  []string   `json:"scopes"`
	Created time.Time  `json:"created"`
	Expires *time.Time `json:"expires"`
	Revoked *time.Time `json:"revoked"`
	State   string     `json:"state"` // active, expired, revoked
}

func tokenRow(e bearer.Entry, now time.Time) TokenRow {
	return TokenRow{ID: e.ID, Name: e.Name, Scopes: e.Scopes, Created: e.Created, Expires: e.Expires,
		Revoked: e.Revoked, State: e.State(now)}
}

// parseLifetime reads 90d, 12h, 30m (a Go duration, or days).
func parseLifetime(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n <= 0 {
			return 0, usagef("--expires must be a positive duration like 90d, 12h or 30m")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return 0, usagef("--expires must be a positive duration like 90d, 12h or 30m")
	}
	return v, nil
}

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
	opts := &tokensCreateOptions{}
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a token (printed once; only its hash is stored)",
		Long: "Create a bearer token for ctx mcp serve --http. The token is printed once and only\n" +
			"its SHA-256 is stored (in $CTX_HOME/tokens.json, 0600). Scopes: read:context\n" +
			"(get_context, continue_thread, list_threads, the resources, load-context) and\n" +
			"write:sessions (save_session, ingest_context); a token has both unless --scope says.",
		Args: cobra.NoArgs,
		RunE: answer(env, f, func(*cobra.Command, []string) (TokenCreated, error) { return createToken(env, opts) }, printCreated),
	}
	cmd.Flags().StringVar(&opts.name, "name", "", "a name to recognise the token by")
	cmd.Flags().StringArrayVar(&opts.scopes, "scope", nil, "read:context or write:sessions (repeatable; default both)")
	cmd.Flags().StringVar(&opts.expires, "expires", "", "lifetime, e.g. 90d or 12h (default: no expiry)")
	return cmd
}

func createToken(env *Env, opts *tokensCreateOptions) (TokenCreated, error) {
	var ttl time.Duration
	if opts.expires != "" {
		var err error
		if ttl, err = parseLifetime(opts.expires); err != nil {
			return TokenCreated{}, err
		}
	}
	tok, e, err := bearer.Open(env.CtxHome()).Create(opts.name, opts.scopes, ttl, env.Now())
	if errors.Is(err, bearer.ErrScope) {
		return TokenCreated{}, usagef("%v", err)
	}
	if err != nil {
		return TokenCreated{}, err
	}
	return TokenCreated{TokenRow: tokenRow(e, env.Now()), Token: tok}, nil
}

func printCreated(env *Env, t TokenCreated) {
	fmt.Fprintf(env.Stdout, "%s\n", t.Token)
	fmt.Fprintf(env.Stderr, "token %s (%s), scopes %v: shown once, store it now\n", t.ID, t.Name, t.Scopes)
}

// TokenList is ctx tokens list --format json.
type TokenList struct {
	Tokens []TokenRow `json:"tokens"`
}

func listTokens(env *Env) (TokenList, error) {
	list, err := bearer.Open(env.CtxHome()).List()
	if err != nil {
		return TokenList{}, err
	}
	out := TokenList{Tokens: []TokenRow{}}
	for _, e := range list {
		out.Tokens = append(out.Tokens, tokenRow(e, env.Now()))
	}
	return out, nil
}

func printTokens(env *Env, out TokenList) {
	if len(out.Tokens) == 0 {
		fmt.Fprintln(env.Stdout, "no tokens: ctx tokens create makes one")
	}
	for _, t := range out.Tokens {
		exp := "no expiry"
		if t.Expires != nil {
			exp = "expires " + t.Expires.Format("2006-01-02 15:04Z")
		}
		fmt.Fprintf(env.Stdout, "%s  %-20s %-8s %-30s %s\n", t.ID, oneLine(t.Name), t.State,
			strings.Join(t.Scopes, ","), exp)
	}
}

func revokeToken(env *Env, ref string) (TokenRow, error) {
	e, err := bearer.Open(env.CtxHome()).Revoke(ref, env.Now())
	if errors.Is(err, bearer.ErrNotFound) {
		return TokenRow{}, query.Errorf(query.CodeNotFound, "no active token %q (see ctx tokens list)", ref)
	}
	if err != nil {
		return TokenRow{}, err
	}
	return tokenRow(e, env.Now()), nil
}
