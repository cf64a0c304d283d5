package sources

import (
	"ctx/config"
	"ctx/core"
	"ctx/sources/aider"
	"ctx/sources/plugin"
)

// Plan returns the sources an import reads, in priority order: configured
// roots first (so a file under a named root carries that root), then the
// default locations when automatic discovery is on, then plugins. only,
// when not empty, keeps the sources of those provider ids.
func Plan(cfg *config.Config, only []string) ([]core.Source, error) {
	return PlanFor(cfg, only, nil)
}

// PlanFor is Plan for a store whose ctx hooks are installed in hooked
// (repository roots): automatic discovery also finds the Aider chat log of
// each of them.
func PlanFor(cfg *config.Config, only, hooked []string) ([]core.Source, error) {
	builtin := map[string]core.Provider{}
	for _, p := range Builtin() {
		builtin[p.Name()] = p
	}
	var out []core.Source
	for _, s := range cfg.Sources {
		out = append(out, core.Source{Kind: core.KindConfigured, Root: s.Root, Group: s.Group, Dir: s.Path,
			Provider: builtin[s.Provider]})
	}
	if cfg.Automatic() {
		for _, p := range Builtin() {
			if p.Name() == aider.ProviderID {
				p = aider.InRepos(hooked)
			}
			out = append(out, core.Source{Kind: core.KindAutomatic, Provider: p})
		}
	}
	for _, pl := range cfg.Plugins {
		out = append(out, core.Source{Kind: core.KindPlugin, Provider: plugin.New(pl.Name, pl.Command, pl.TimeoutDuration())})
	}
	if len(only) == 0 {
		return out, nil
	}
	names := map[string]bool{}
	for _, s := range out {
		names[s.Provider.Name()] = true
	}
	keep := map[string]bool{}
	for _, n := range only {
		if !names[n] {
			if _, err := Select(Builtin(), []string{n}); err != nil {
				return nil, err
			}
		}
		keep[n] = true
	}
	var sel []core.Source
	for _, s := range out {
		if keep[s.Provider.Name()] {
			sel = append(sel, s)
		}
	}
	return sel, nil
}
