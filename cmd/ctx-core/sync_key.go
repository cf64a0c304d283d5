package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"ctx/gitstore"
)

func newSyncKeyCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "key", Short: "Export or import the age key of encrypted remotes"}
	cmd.AddCommand(&cobra.Command{
		Use:   "export",
		Short: "Print the key (secret: give it only to your own or your team's machines)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			k, err := gitstore.LoadKey(env.CtxHome())
			if err != nil {
				return err
			}
			_, err = io.WriteString(env.Stdout, k.Export())
			return err
		},
	}, &cobra.Command{
		Use:   "import FILE",
		Short: "Import a key printed by ctx sync key export (FILE - reads stdin)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			var b []byte
			var err error
			if args[0] == "-" {
				b, err = io.ReadAll(io.LimitReader(env.Stdin, 64<<10))
			} else {
				b, err = os.ReadFile(args[0])
			}
			if err != nil {
				return usagef("read the key: %v", err)
			}
			k, err := gitstore.ImportKey(env.CtxHome(), string(b), env.Now())
			if err != nil {
				return err
			}
			return f.write(env, map[string]string{"recipient": k.Recipient()},
				func() { fmt.Fprintf(env.Stdout, "imported the key of %s\n", k.Recipient()) })
		},
	})
	return cmd
}
