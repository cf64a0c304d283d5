package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// guardGroups makes every command that only groups subcommands (show,
// list, docs, hooks, …) refuse an unknown subcommand: a usage error (exit
// 2) with the closest names, where cobra would print help and exit 0. A
// group run alone still prints its help.
func guardGroups(c *cobra.Command) {
	for _, sub := range c.Commands() {
		guardGroups(sub)
	}
	if !c.HasSubCommands() || c.Run != nil || c.RunE != nil || c == c.Root() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.SuggestionsMinimumDistance = 2
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		return unknownSubcommand(cmd, args[0])
	}
}

func unknownSubcommand(cmd *cobra.Command, arg string) error {
	msg := fmt.Sprintf("unknown command %q for %q", oneLine(arg), cmd.CommandPath())
	var hints []string
	switch {
	case strings.HasPrefix(arg, "evt_") && cmd.Name() == "show":
		hints = append(hints, cmd.CommandPath()+" event "+arg)
	case strings.HasPrefix(arg, "ses_") && cmd.Name() == "show":
		hints = append(hints, cmd.CommandPath()+" session "+arg)
	default:
		for _, s := range cmd.SuggestionsFor(arg) {
			hints = append(hints, cmd.CommandPath()+" "+s)
		}
	}
	if len(hints) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(hints, "\n\t")
	} else {
		names := []string{}
		for _, s := range cmd.Commands() {
			if s.IsAvailableCommand() {
				names = append(names, s.Name())
			}
		}
		msg += "; its commands are " + strings.Join(names, ", ")
	}
	return usagef("%s", msg)
}
