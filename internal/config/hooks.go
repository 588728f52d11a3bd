package config

import (
	"fmt"
	"path"
	"time"

	"gopkg.in/yaml.v3"
)

// HooksConfig is the hooks key: commands mm runs at points of a turn
// (docs/hooks.md). Each list runs in order.
type HooksConfig struct {
	PreTool    []Hook `yaml:"preTool"`
	PostTool   []Hook `yaml:"postTool"`
	PreAsk     []Hook `yaml:"preAsk"`
	PostAsk    []Hook `yaml:"postAsk"`
	UserPrompt []Hook `yaml:"userPrompt"`
	Stop       []Hook `yaml:"stop"`
}

// Hook is one entry of a hooks list.
type Hook struct {
	// Match is a glob (path.Match) over the tool's name (server/tool for
	// an MCP tool) or the asked agent's; "" matches every one.
	Match string `yaml:"match"`
	// Command runs with sh -c in the project directory.
	Command string `yaml:"command"`
	// Timeout is 0 for the default (DefaultHookTimeout).
	Timeout time.Duration `yaml:"timeout"`
}

// DefaultHookTimeout is a hook's timeout when its entry sets none.
const DefaultHookTimeout = 30 * time.Second

// HookEvents are the hooks key's lists, in the order docs/hooks.md and
// the trust question show them.
var HookEvents = []string{"preTool", "postTool", "preAsk", "postAsk", "userPrompt", "stop"}

// List is the event's list (nil for a name that is none).
func (h *HooksConfig) List(event string) []Hook {
	switch event {
	case "preTool":
		return h.PreTool
	case "postTool":
		return h.PostTool
	case "preAsk":
		return h.PreAsk
	case "postAsk":
		return h.PostAsk
	case "userPrompt":
		return h.UserPrompt
	case "stop":
		return h.Stop
	}
	return nil
}

// Empty says no hook is configured.
func (h *HooksConfig) Empty() bool {
	for _, e := range HookEvents {
		if len(h.List(e)) > 0 {
			return false
		}
	}
	return true
}

// clone copies the lists (the entries hold no reference).
func (h HooksConfig) clone() HooksConfig {
	for _, l := range []*[]Hook{&h.PreTool, &h.PostTool, &h.PreAsk, &h.PostAsk, &h.UserPrompt, &h.Stop} {
		*l = append([]Hook(nil), *l...)
	}
	return h
}

var (
	hooksKeys    = HookEvents
	hookItemKeys = []string{"match", "command", "timeout"}
)

// hooks reads the hooks mapping: each event a list of {match, command,
// timeout}.
func (d *decoder) hooks(n *yaml.Node) error {
	h := &d.cfg.Hooks
	return d.section(n, "hooks", hooksKeys, func(key, at string, v *yaml.Node) error {
		if v.Kind != yaml.SequenceNode {
			return d.errAt(v, "%s must be a list of hooks ({match, command, timeout}), got %s", at, describe(v))
		}
		list := make([]Hook, 0, len(v.Content))
		for i, item := range v.Content {
			var e Hook
			item = resolve(item)
			where := fmt.Sprintf("%s[%d]", at, i)
			err := d.section(item, where, hookItemKeys, func(key, p string, v *yaml.Node) (err error) {
				switch key {
				case "match":
					if e.Match, err = d.str(v, p); err == nil {
						if _, perr := path.Match(e.Match, ""); perr != nil {
							err = d.errAt(v, "%s: %q is not a valid glob (%v)", p, e.Match, perr)
						}
					}
				case "command":
					e.Command, err = d.str(v, p)
				case "timeout":
					if e.Timeout, err = d.duration(v, p); err == nil && e.Timeout <= 0 {
						err = d.errAt(v, "%s must be longer than 0, got %s", p, describe(v))
					}
				}
				return err
			})
			if err != nil {
				return err
			}
			if blank(e.Command) {
				return d.errAt(item, "%s: the command must not be empty", where)
			}
			list = append(list, e)
		}
		// A later layer's hooks run after the earlier ones', never in their
		// place: a trusted project cannot drop the guard hook of the
		// user's own file (Claude Code runs every settings file's hooks).
		switch key {
		case "preTool":
			h.PreTool = append(h.PreTool, list...)
		case "postTool":
			h.PostTool = append(h.PostTool, list...)
		case "preAsk":
			h.PreAsk = append(h.PreAsk, list...)
		case "postAsk":
			h.PostAsk = append(h.PostAsk, list...)
		case "userPrompt":
			h.UserPrompt = append(h.UserPrompt, list...)
		case "stop":
			h.Stop = append(h.Stop, list...)
		}
		return nil
	})
}

// hooksWould is what the project's hooks would run, one line per hook,
// for the trust question and mm trust: c's lists less the base's (the
// layers before the project's), which come first in them.
func hooksWould(c, base *Config, _ string) []string {
	var out []string
	for _, ev := range HookEvents {
		list := c.Hooks.List(ev)
		if base != nil {
			list = list[min(len(base.Hooks.List(ev)), len(list)):]
		}
		for _, h := range list {
			on := "every one"
			if h.Match != "" {
				on = h.Match
			}
			out = append(out, fmt.Sprintf("hook %s (%s): sh -c %q", ev, on, h.Command))
		}
	}
	return out
}
