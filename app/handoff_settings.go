package app

import "ctx/config"

// HandoffSettings reads the [context], [threads] and [ingest] tables of
// config.toml. A config that cannot be used is the error (a *config.Error
// naming the key); an App that keeps serving returns the defaults beside
// it, for the server to use and to log.
func (a *App) HandoffSettings() (HandoffSettings, error) {
	cfg, err := config.Load(a.env)
	if err != nil {
		if a.lenient {
			return DefaultHandoffSettings(), err
		}
		return HandoffSettings{}, err
	}
	return HandoffSettingsFrom(cfg), nil
}

// ConfiguredHandoff is Handoff with the settings of config.toml.
func (a *App) ConfiguredHandoff() (*Handoff, error) {
	s, err := a.HandoffSettings()
	if err != nil {
		return nil, err
	}
	return a.Handoff(s), nil
}
