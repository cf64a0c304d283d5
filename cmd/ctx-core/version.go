package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"ctx/refs"
)

// versionInfo is ctx version --format json.
type versionInfo struct {
	Version     string `json:"version"`
	Go          string `json:"go"`
	Platform    string `json:"platform"`
	StoreFormat int    `json:"store_format"`
}

func newVersionCmd(env *Env, f *format) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of ctx (as --version does)",
		Args:  cobra.NoArgs,
		RunE: f.textOrJSON(func(*cobra.Command, []string) error {
			v := versionInfo{Version: version, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH,
				StoreFormat: refs.StoreFormat}
			return f.write(env, v, func() {
				fmt.Fprintf(env.Stdout, "ctx version %s (%s, %s, store format %d)\n", v.Version, v.Go, v.Platform, v.StoreFormat)
			})
		}),
	}
}
