package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"ctx/maint"
	"ctx/query"
)

func newVerifyCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Re-hash every reachable object and check the index shards",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			rep, err := maint.Verify(env.CtxHome())
			if err != nil {
				return err
			}
			if f.json() {
				if err := writeJSON(env.Stdout, rep); err != nil {
					return err
				}
			} else {
				for _, d := range rep.Damage {
					fmt.Fprintf(env.Stdout, "damaged %s %s: %s\n", d.Kind, d.Name, d.Reason)
				}
				fmt.Fprintf(env.Stdout, "%d generations, %d objects, %d shards checked: ", rep.Generations, rep.Objects, rep.Shards)
				if rep.OK {
					fmt.Fprintln(env.Stdout, "ok")
				} else {
					fmt.Fprintf(env.Stdout, "%d damaged\n", len(rep.Damage))
				}
			}
			if !rep.OK {
				return &query.Error{Code: query.CodeDamaged, Message: fmt.Sprintf("verify found %d damaged items", len(rep.Damage))}
			}
			return nil
		},
	}
}

func newGCCmd(env *Env, f *format) *cobra.Command {
	keep := ageFlag(14 * 24 * time.Hour)
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Remove objects and index shards no kept generation reaches",
		Long: "gc keeps the active generation and every generation published within --keep\n" +
			"(its reflog entries), and removes every object and shard that none of them reach.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check("text", "json"); err != nil {
				return err
			}
			if keep < 0 {
				return usagef("--keep must not be negative")
			}
			rep, err := maint.GC(cmd.Context(), env.CtxHome(), time.Duration(keep), env.Now(), func() {
				fmt.Fprintln(env.Stderr, "ctx: another import is writing the store; waiting for it…")
			})
			if err != nil {
				return err
			}
			if f.json() {
				return writeJSON(env.Stdout, rep)
			}
			fmt.Fprintf(env.Stdout, "kept %d generations (%d objects); removed %d objects (%s) and %d shards\n",
				rep.KeptGenerations, rep.ObjectsKept, rep.ObjectsRemoved, humanBytes(rep.BytesRemoved), rep.ShardsRemoved)
			return nil
		},
	}
	cmd.Flags().Var(&keep, "keep", "keep generations published within this long (36h, 7d, 2w)")
	return cmd
}
