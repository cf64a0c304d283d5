package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ctx/bearer"
)

// TokenList is ctx tokens list --format json.
type TokenList struct {
	Tokens []TokenRow `json:"tokens"`
}

func newTokensListCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List tokens (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error {
			list, err := bearer.Open(env.CtxHome()).List()
			if err != nil {
				return err
			}
			out := TokenList{Tokens: []TokenRow{}}
			for _, e := range list {
				out.Tokens = append(out.Tokens, tokenRow(e, env.Now()))
			}
			return f.write(env, out, func() { printTokens(env, out) })
		}),
	}
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
