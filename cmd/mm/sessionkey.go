package main

import (
	"mm/internal/config"
	"mm/internal/session"
)

// sessionKeyWarning adds, with sessions on, the one warning that the
// user's session key cannot be used (no state directory, or a key file mm
// refuses): every facade shows cfg.Warnings at start. It also makes the
// key on first use, before any session is written.
func sessionKeyWarning(cfg *config.Config) {
	if !cfg.Sessions.Enabled {
		return
	}
	if w := session.KeyWarning(); w != "" {
		cfg.Warnings = append(cfg.Warnings, w)
	}
}
