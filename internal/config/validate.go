package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// validate checks the final configuration (file and environment applied)
// and returns the first problem as the reference words it, "" when none.
// The order is the reference's table, so one file always gives the same
// message.
func (c *Config) validate() string {
	switch {
	case blank(c.Provider):
		return "provider must not be empty"
	case blank(c.Model):
		return "model must not be empty"
	case c.ContextWindow < 0:
		return "contextWindow must be >= 0"
	case c.MaxOutput <= 0:
		return "maxOutput must be > 0"
	case c.MaxTurns <= 0:
		return "maxTurns must be > 0"
	case c.PreviewLines < 0:
		return "previewLines must be >= 0"
	case c.Context.Threshold < 1 || c.Context.Threshold > 100:
		return "context.threshold must be between 1 and 100"
	case c.Context.KeepLastTurns < 1:
		return "context.keepLastTurns must be >= 1"
	case c.Context.SummaryMaxTokens <= 0:
		return "context.summaryMaxTokens must be > 0"
	case c.Context.MaxMessages < 0:
		return "context.maxMessages must be >= 0"
	case blank(c.Sessions.Dir):
		return "sessions.dir must not be empty"
	case c.Trace.Enabled && blank(c.Trace.Dir):
		return "trace.dir must not be empty"
	case blank(c.ACP.Name):
		return "acp.name must not be empty"
	}
	if msg := validateLSP(c.LSP.Servers); msg != "" {
		return msg
	}
	switch {
	case c.BashTimeout <= 0:
		return "bashTimeout must be > 0"
	case c.WatchdogTimeout <= 0:
		return "watchdogTimeout must be > 0"
	case c.FirstTokenTimeout < 0:
		return "firstTokenTimeout must be >= 0"
	}
	return ""
}

// blank is the reference's "empty": nothing, or only spaces.
func blank(s string) bool { return strings.TrimSpace(s) == "" }

// validateLSP checks lsp.servers in order. N in the messages is the 0-based
// index of the entry in the list.
func validateLSP(servers []LSPServer) string {
	servedBy := map[string]string{} // lowercased extension → server name
	for i, s := range servers {
		at := fmt.Sprintf("lsp.servers[%d]", i)
		switch {
		case blank(s.Name):
			return at + ".name must not be empty"
		case blank(s.Command):
			return at + ".command must not be empty"
		case len(s.Extensions) == 0:
			return at + ".extensions must list at least one extension"
		}
		for _, ext := range s.Extensions {
			if !strings.HasPrefix(ext, ".") {
				example := ".go"
				if strings.TrimSpace(ext) != "" {
					example = "." + ext
				}
				return fmt.Sprintf("%s.extensions: %s must start with a dot, like %s", at, strconv.Quote(ext), strconv.Quote(example))
			}
		}
		// Extensions are compared without case (".TS" is ".ts"); a server
		// listing one extension twice still serves it alone.
		mine := map[string]bool{}
		for _, ext := range s.Extensions {
			key := strings.ToLower(ext)
			if other, ok := servedBy[key]; ok && !mine[key] {
				return fmt.Sprintf("%s: extension %s is already served by %s", at, strconv.Quote(ext), strconv.Quote(other))
			}
			mine[key] = true
		}
		for key := range mine {
			servedBy[key] = s.Name
		}
	}
	return ""
}

// mmConfigName is a valid mmConfigs name: it becomes the slash command
// /ask-<name>, so it stays lowercase, without spaces or punctuation.
var mmConfigName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// checkMMConfigName returns the reference's message for an invalid name,
// "" for a valid one.
func checkMMConfigName(name string) string {
	if !mmConfigName.MatchString(name) {
		return fmt.Sprintf("mmConfigs: %s is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name becomes the command /ask-<name>)", strconv.Quote(name))
	}
	if strings.HasPrefix(name, "with-context") {
		return fmt.Sprintf("mmConfigs: %s is not a valid name (it would read as /ask-with-context-…)", strconv.Quote(name))
	}
	return ""
}
