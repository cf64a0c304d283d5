package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"ctx/gitstore"
)

type remoteOutput struct {
	Name      string `json:"name"`
	URL       string `json:"url"`
	Encrypt   bool   `json:"encrypt"`
	Recipient string `json:"recipient,omitempty"`
}

func newSyncRemoteCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "remote", Short: "Manage the git remotes ctx syncs with"}
	cmd.AddCommand(newSyncRemoteAddCmd(env, f), newSyncRemoteListCmd(env, f))
	return cmd
}

func newSyncRemoteAddCmd(env *Env, f *format) *cobra.Command {
	var encrypt bool
	cmd := &cobra.Command{
		Use:   "add NAME URL",
		Short: "Add a git remote (any URL git accepts; credentials are git's own)",
		Args:  cobra.ExactArgs(2),
		RunE: f.textOrJSON(func(cmd *cobra.Command, args []string) error {
			r := gitstore.Remote{Name: args[0], URL: args[1], Encrypt: encrypt}
			if err := gitstore.AddRemote(env.CtxHome(), r); err != nil {
				return err
			}
			out := remoteOutput{Name: r.Name, URL: r.URL, Encrypt: r.Encrypt}
			if encrypt {
				k, err := gitstore.EnsureKey(env.CtxHome(), env.Now())
				if err != nil {
					return err
				}
				out.Recipient = k.Recipient()
			}
			return f.write(env, out, func() {
				fmt.Fprintf(env.Stdout, "added remote %s %s\n", r.Name, r.URL)
				if encrypt {
					fmt.Fprintf(env.Stdout, "every blob is encrypted to %s; give the other machines the key: ctx sync key export\n", out.Recipient)
				}
			})
		}),
	}
	cmd.Flags().BoolVar(&encrypt, "encrypt", false, "encrypt every blob with age (the key stays in $CTX_HOME/sync)")
	return cmd
}

func newSyncRemoteListCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the remotes",
		Args:  cobra.NoArgs,
		RunE:  answer(env, f, func(*cobra.Command, []string) ([]remoteOutput, error) { return listRemotes(env) }, printRemotes),
	}
}

func listRemotes(env *Env) ([]remoteOutput, error) {
	rs, err := gitstore.Remotes(env.CtxHome())
	if err != nil {
		return nil, err
	}
	out := []remoteOutput{}
	for _, r := range rs {
		out = append(out, remoteOutput{Name: r.Name, URL: r.URL, Encrypt: r.Encrypt})
	}
	return out, nil
}

func printRemotes(env *Env, out []remoteOutput) {
	for _, r := range out {
		fmt.Fprintf(env.Stdout, "%s\t%s%s\n", r.Name, r.URL, map[bool]string{true: "\t(encrypted)"}[r.Encrypt])
	}
}
