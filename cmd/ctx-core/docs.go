package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"ctx/docs"
)

func newDocsCmd(env *Env, f *format) *cobra.Command {
	cmd := &cobra.Command{Use: "docs", Short: "Read ctx's documentation"}
	cmd.AddCommand(&cobra.Command{
		Use:   "show [TOPIC]",
		Short: "Print a documentation topic, or list the topics",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprintf(env.Stdout, "Topics: %s\n", strings.Join(docs.Topics(), ", "))
				return nil
			}
			text, ok := docs.Show(args[0])
			if !ok {
				return usagef("no such topic (topics: %s)", strings.Join(docs.Topics(), ", "))
			}
			fmt.Fprint(env.Stdout, text)
			return nil
		},
	})
	return cmd
}
