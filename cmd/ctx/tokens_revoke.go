package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"ctx/bearer"
	"ctx/query"
)

func newTokensRevokeCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID|NAME",
		Short: "Revoke a token: the HTTP door refuses it from its next request on",
		Args:  cobra.ExactArgs(1),
		RunE: f.textOrJSON(func(_ *cobra.Command, args []string) error {
			e, err := bearer.Open(env.CtxHome()).Revoke(args[0], env.Now())
			if errors.Is(err, bearer.ErrNotFound) {
				return query.Errorf(query.CodeNotFound, "no active token %q (see ctx tokens list)", args[0])
			}
			if err != nil {
				return err
			}
			return f.write(env, tokenRow(e, env.Now()), func() { fmt.Fprintf(env.Stdout, "revoked %s (%s)\n", e.ID, e.Name) })
		}),
	}
}
