package config

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// problem is what validate found wrong: the reference's message and the
// key path it is about, so that the error can give the line and the value
// where they came from.
type problem struct {
	key string
	msg string
	// got shows the value after the message; shown is that value already
	// worded ("" = as the file or the environment wrote it); raw shows the
	// file's text unquoted (a duration: "got -5s", not "got \"-5s\"").
	got   bool
	shown string
	raw   bool
}

// validate checks the final configuration (file and environment applied)
// and returns the first problem, nil when none. The messages and their
// order are the reference's table, so one file always gives the same
// message.
func (c *Config) validate() *problem {
	bad := func(key, msg string) *problem { return &problem{key: key, msg: msg, got: true} }
	badDuration := func(key, msg string) *problem { return &problem{key: key, msg: msg, got: true, raw: true} }
	switch {
	case blank(c.Provider):
		return bad("provider", "provider must not be empty")
	case blank(c.Model):
		return bad("model", "model must not be empty")
	}
	if p := checkURL("baseUrl", c.BaseURL); p != nil {
		return p
	}
	if c.Fallback != nil {
		if p := checkURL("fallback", *c.Fallback); p != nil {
			return p
		}
	}
	switch {
	case c.ContextWindow < 0:
		return bad("contextWindow", "contextWindow must be >= 0")
	case c.MaxOutput <= 0:
		return bad("maxOutput", "maxOutput must be > 0")
	case c.MaxTurns <= 0:
		return bad("maxTurns", "maxTurns must be > 0")
	case c.PreviewLines < 0:
		return bad("previewLines", "previewLines must be >= 0")
	case c.Context.Threshold < 1 || c.Context.Threshold > 100:
		return bad("context.threshold", "context.threshold must be between 1 and 100")
	case c.Context.KeepLastTurns < 1:
		return bad("context.keepLastTurns", "context.keepLastTurns must be >= 1")
	case c.Context.SummaryMaxTokens <= 0:
		return bad("context.summaryMaxTokens", "context.summaryMaxTokens must be > 0")
	case c.Context.MaxMessages < 0:
		return bad("context.maxMessages", "context.maxMessages must be >= 0")
	case blank(c.Sessions.Dir):
		return bad("sessions.dir", "sessions.dir must not be empty")
	case c.Trace.Enabled && blank(c.Trace.Dir):
		return bad("trace.dir", "trace.dir must not be empty")
	case blank(c.ACP.Name):
		return bad("acp.name", "acp.name must not be empty")
	}
	if p := validateSandbox(&c.Sandbox); p != nil {
		return p
	}
	if p := validateLSP(c.LSP.Servers); p != nil {
		return p
	}
	if p := validateMCP(&c.MCP); p != nil {
		return p
	}
	switch {
	case c.BashTimeout <= 0:
		return badDuration("bashTimeout", "bashTimeout must be > 0")
	case c.WatchdogTimeout <= 0:
		return badDuration("watchdogTimeout", "watchdogTimeout must be > 0")
	case c.FirstTokenTimeout < 0:
		return badDuration("firstTokenTimeout", "firstTokenTimeout must be >= 0")
	}
	return nil
}

// checkURL refuses a base URL mm could only fail to probe: anything but
// an absolute http or https URL with a host. "" is valid (the provider's
// default for baseUrl, no fallback for fallback).
func checkURL(key, v string) *problem {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Opaque == "" {
		return nil
	}
	shown := v
	if err == nil {
		// The value is printed: a password in it is not, nor the values
		// of its query (…?token=…).
		if u.RawQuery != "" {
			params := strings.Split(u.RawQuery, "&")
			for i, p := range params {
				if k, _, ok := strings.Cut(p, "="); ok {
					params[i] = k + "=***"
				} else if p != "" {
					params[i] = "***"
				}
			}
			u.RawQuery = strings.Join(params, "&")
		}
		shown = u.Redacted()
	} else {
		shown = maskUnparsedURL(v)
	}
	if utf8.RuneCountInString(shown) > 60 {
		shown = string([]rune(shown)[:60]) + "…"
	}
	return &problem{key: key, msg: key + " must be an absolute http(s) URL, like http://127.0.0.1:8080/v1", got: true, shown: strconv.Quote(shown)}
}

// maskUnparsedURL masks a password and the query values of a URL that
// does not parse (a bad port, a control character): what url.Redacted
// would hide is not printed either. Everything after a '?' is the query,
// and a ':' before the last '@' of the host part starts a password.
func maskUnparsedURL(v string) string {
	if base, query, ok := strings.Cut(v, "?"); ok {
		params := strings.Split(query, "&")
		for i, p := range params {
			if k, _, ok := strings.Cut(p, "="); ok {
				params[i] = k + "=***"
			} else if p != "" {
				params[i] = "***"
			}
		}
		v = base + "?" + strings.Join(params, "&")
	}
	start := 0
	if i := strings.Index(v, "://"); i >= 0 {
		start = i + 3
	}
	host := v[start:]
	if end := strings.IndexAny(host, "/?#"); end >= 0 {
		host = host[:end]
	}
	if at := strings.LastIndex(host, "@"); at >= 0 {
		if c := strings.Index(host[:at], ":"); c >= 0 {
			v = v[:start+c] + ":***" + v[start+at:]
		}
	}
	return v
}

// SandboxModeMessage is what a wrong sandbox.mode, or -sandbox, is told.
const SandboxModeMessage = "sandbox.mode must be off, workspace or read-only"

// ValidSandboxMode tells the modes sandbox.mode and -sandbox take.
func ValidSandboxMode(m string) bool {
	return m == SandboxOff || m == SandboxWorkspace || m == SandboxReadOnly
}

// SandboxUnavailable is the error of sandbox.required: true on a system
// that cannot confine bash (why says what it lacks), at the line that
// set it.
func (c *Config) SandboxUnavailable(why string) *Error {
	at := c.Sandbox.RequiredAt
	if at.Path == "" {
		at.Path = c.Path
	}
	return &Error{Path: at.Path, Line: at.Line, Msg: "sandbox.required is true and bash cannot be confined here: " + why}
}

// SandboxWarning is the start-up warning of a sandbox that cannot be
// applied ("" when there is none to give): bash then runs unconfined.
func (c *Config) SandboxWarning(why string) string {
	if c.Sandbox.Mode == SandboxOff || !c.BashTool || why == "" {
		return ""
	}
	return "[warning: sandbox.mode: " + c.Sandbox.Mode + ", but bash cannot be confined here (" + why + "): commands run unconfined — sandbox.required: true refuses to start instead]"
}

// validateSandbox checks the sandbox keys: a known mode, no empty
// writable entry.
func validateSandbox(s *SandboxConfig) *problem {
	if !ValidSandboxMode(s.Mode) {
		return &problem{key: "sandbox.mode", msg: SandboxModeMessage, got: true}
	}
	for i, w := range s.Writable {
		if blank(w) {
			return &problem{key: fmt.Sprintf("sandbox.writable[%d]", i), msg: fmt.Sprintf("sandbox.writable[%d] must not be empty", i)}
		}
	}
	return nil
}

// blank is the reference's "empty": nothing, or only spaces.
func blank(s string) bool { return strings.TrimSpace(s) == "" }

// validateLSP checks lsp.servers in order. N in the messages is the 0-based
// index of the entry in the list. The messages quote the wrong extension
// themselves; the line is the entry's, or the extension's.
func validateLSP(servers []LSPServer) *problem {
	servedBy := map[string]string{} // lowercased extension → server name
	for i, s := range servers {
		at := fmt.Sprintf("lsp.servers[%d]", i)
		switch {
		case blank(s.Name):
			return &problem{key: at + ".name", msg: at + ".name must not be empty"}
		case blank(s.Command):
			return &problem{key: at + ".command", msg: at + ".command must not be empty"}
		case len(s.Extensions) == 0:
			return &problem{key: at + ".extensions", msg: at + ".extensions must list at least one extension"}
		}
		for j, ext := range s.Extensions {
			if !strings.HasPrefix(ext, ".") {
				example := ".go"
				if strings.TrimSpace(ext) != "" {
					example = "." + ext
				}
				return &problem{key: fmt.Sprintf("%s.extensions[%d]", at, j), msg: fmt.Sprintf("%s.extensions: %s must start with a dot, like %s", at, strconv.Quote(ext), strconv.Quote(example))}
			}
		}
		// Extensions are compared without case (".TS" is ".ts"); a server
		// listing one extension twice still serves it alone.
		mine := map[string]bool{}
		for j, ext := range s.Extensions {
			key := strings.ToLower(ext)
			if other, ok := servedBy[key]; ok && !mine[key] {
				return &problem{key: fmt.Sprintf("%s.extensions[%d]", at, j), msg: fmt.Sprintf("%s: extension %s is already served by %s", at, strconv.Quote(ext), strconv.Quote(other))}
			}
			mine[key] = true
		}
		for key := range mine {
			servedBy[key] = s.Name
		}
	}
	return nil
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
