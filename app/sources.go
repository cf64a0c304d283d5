package app

import (
	"context"
	"os"

	"ctx/config"
	"ctx/sources"
)

// SourcesReport is the sources read model (ctx sources, MCP sources).
type SourcesReport = sources.Report

// Sources lists the agent history sources the App's environment discovers,
// without reading any history.
func (a *App) Sources(ctx context.Context) (*SourcesReport, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := config.Load(a.env)
	if err != nil {
		return nil, err
	}
	planned, err := sources.PlanFor(cfg, nil, a.hookedRepos())
	if err != nil {
		return nil, err
	}
	return sources.Discover(a.env, cfg, planned, exists), nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
