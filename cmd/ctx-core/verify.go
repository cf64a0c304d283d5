package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"ctx/ingest"
	"ctx/maint"
	"ctx/query"
)

func newVerifyCmd(env *Env, f *format) *cobra.Command {
	var repair bool
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Re-hash every reachable object and check the index shards",
		Long: "verify re-hashes every object the active generation and the reflog reach, checks every\n" +
			"file of every index shard against the checksums sealed with it, and checks refs/active\n" +
			"against its reflog. With --repair it rebuilds the damaged shards from the objects (the\n" +
			"index is derived from them) and publishes a generation listing the rebuilt ones.",
		Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(cmd *cobra.Command, _ []string) error {
			rep, err := maint.Verify(env.CtxHome())
			if err != nil {
				return err
			}
			out := verifyOutput{VerifyReport: rep, Repaired: []string{}}
			if repair {
				if out.Repaired, err = repairShards(cmd, env, rep); err != nil {
					return err
				}
				if len(out.Repaired) > 0 {
					if rep, err = maint.Verify(env.CtxHome()); err != nil {
						return err
					}
					out.VerifyReport = rep
				}
			}
			if err := f.write(env, out, func() { printVerify(env, out) }); err != nil {
				return err
			}
			if !rep.OK {
				return &query.Error{Code: query.CodeDamaged, Message: fmt.Sprintf("verify found %d damaged items", len(rep.Damage))}
			}
			return nil
		}),
	}
	cmd.Flags().BoolVar(&repair, "repair", false, "rebuild damaged index shards from the objects")
	return cmd
}

// verifyOutput is verify's JSON: the report after any repair, and the
// shards --repair rebuilt (empty without it).
type verifyOutput struct {
	*maint.VerifyReport
	Repaired []string `json:"repaired"`
}

// repairShards rebuilds the damaged shards of rep and returns their names.
func repairShards(cmd *cobra.Command, env *Env, rep *maint.VerifyReport) ([]string, error) {
	var names []string
	for _, d := range rep.Damage {
		if d.Kind == "shard" {
			names = append(names, d.Name)
		}
	}
	if len(names) == 0 {
		return []string{}, nil
	}
	_, err := ingest.Repair(cmd.Context(), ingest.Options{Home: env.CtxHome(), Env: env.Source(), Version: version, Now: env.Now,
		Busy: env.waitingForWriter}, names)
	if err != nil {
		return nil, err
	}
	return names, nil
}

func printVerify(env *Env, out verifyOutput) {
	rep := out.VerifyReport
	for _, name := range out.Repaired {
		fmt.Fprintf(env.Stdout, "rebuilt shard %s from the objects\n", name)
	}
	for _, d := range rep.Damage {
		fmt.Fprintf(env.Stdout, "damaged %s %s: %s\n", d.Kind, d.Name, d.Reason)
	}
	if fc := rep.Forgotten; fc != nil && fc.Sessions > 0 {
		if fc.Clean() {
			fmt.Fprintf(env.Stdout, "%s forgotten: nothing of them is reachable or indexed\n", plural(fc.Sessions, "session"))
		} else {
			fmt.Fprintf(env.Stdout, "%s forgotten: %d still reachable from a kept generation, %d still indexed (ctx gc removes them)\n",
				plural(fc.Sessions, "session"), len(fc.Reachable), len(fc.Indexed))
		}
	}
	fmt.Fprintf(env.Stdout, "%d generations, %d objects, %d shards checked: ", rep.Generations, rep.Objects, rep.Shards)
	if rep.OK {
		fmt.Fprintln(env.Stdout, "ok")
	} else {
		fmt.Fprintf(env.Stdout, "%d damaged\n", len(rep.Damage))
	}
}

func newGCCmd(env *Env, f *format) *cobra.Command {
	keep := ageFlag(maint.DefaultKeep)
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Remove objects and index shards no kept generation reaches",
		Long: "gc keeps the active generation and, of the generations published within --keep\n" +
			"(the reflog's entries), every one of the last 10 minutes, the newest of each hour\n" +
			"of the last day and the newest of each day. It expires the others and removes every\n" +
			"object and index shard that no kept generation reaches. The daemon runs it on its\n" +
			"own, at most every 10 minutes, with the default --keep.",
		Args: cobra.NoArgs,
		RunE: f.textOrJSON(func(cmd *cobra.Command, _ []string) error {
			if keep < 0 {
				return usagef("--keep must not be negative")
			}
			rep, err := env.App().GC(cmd.Context(), time.Duration(keep), env.waitingForWriter)
			if err != nil {
				return err
			}
			return f.write(env, rep, func() {
				if rep.ShardsReindexed > 0 {
					fmt.Fprintf(env.Stdout, "re-indexed %s without forgotten sessions\n", plural(rep.ShardsReindexed, "shard"))
				}
				if rep.TombstonesDropped > 0 {
					fmt.Fprintf(env.Stdout, "dropped %s no copy needed\n", plural(rep.TombstonesDropped, "tombstone"))
				}
				fmt.Fprintf(env.Stdout, "kept %d generations (%d objects), expired %d; removed %d objects (%s) and %d shards\n",
					rep.KeptGenerations, rep.ObjectsKept, rep.ExpiredGenerations, rep.ObjectsRemoved, humanBytes(rep.BytesRemoved), rep.ShardsRemoved)
			})
		}),
	}
	cmd.Flags().Var(&keep, "keep", "keep generations published within this long (36h, 7d, 2w)")
	return cmd
}
