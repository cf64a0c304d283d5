package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"ctx/bearer"
)

func newTokensCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "tokens", Short: "Manage the bearer tokens of the HTTP MCP door (ctx mcp serve --http)",
		Args: cobra.NoArgs, RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() }}
	cmd.AddCommand(newTokensCreateCmd(env, f), newTokensListCmd(env, f), newTokensRevokeCmd(env, f))
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
