package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The keys mm reads in each mapping. A key outside its list is ignored, as
// the reference says, but never silently: a misspelt `yolo` would leave the
// tools running without asking. The lists also give the "did you mean".
var (
	topKeys = []string{
		"provider", "model", "baseUrl", "fallback", "apiKeyEnv", "contextWindow",
		"maxOutput", "maxTurns", "previewLines", "displayCommands", "showThinking",
		"system", "skillsDir", "bashTool", "editTools", "fetchContentTool",
		"askUserTool", "planTool", "sampling", "watchdogTimeout", "firstTokenTimeout",
		"bashTimeout", "context", "sessions", "trace", "acp", "lsp", "tui", "yolo",
		"permissions", "mmConfigs", "projectInstructions", "mcp", "sandbox",
		"fetchAllowLinkLocal", "hooks", "toolCallRetry",
	}
	contextKeys   = []string{"enabled", "threshold", "maxMessages", "keepLastTurns", "summaryMaxTokens", "prompt", "showStats"}
	sessionsKeys  = []string{"enabled", "dir"}
	traceKeys     = []string{"enabled", "dir"}
	acpKeys       = []string{"name", "title"}
	lspKeys       = []string{"servers"}
	lspServerKeys = []string{"name", "command", "args", "extensions"}
	mmConfigKeys  = []string{"path", "description", "yolo"}
	mcpKeys       = []string{"servers", "permissions", "timeout", "promptBudget"}
	mcpServerKeys = []string{"name", "command", "args", "env", "url", "headers"}
	sandboxKeys   = []string{"mode", "network", "writable", "required"}
)

// known reports whether key, read in the mapping at where, is one of
// known; when it is not, it records the start-up warning. At the top
// level, keys starting with x- are the file's own (a place to hold YAML
// anchors, as in Compose files) and stay quiet.
func (d *decoder) known(k *yaml.Node, where string, known []string) bool {
	key := k.Value
	if slices.Contains(known, key) || (where == "" && strings.HasPrefix(key, "x-")) {
		return true
	}
	shown := key
	if utf8.RuneCountInString(shown) > 40 {
		shown = string([]rune(shown)[:40]) + "…"
	}
	msg := fmt.Sprintf("[warning: %s: line %d: unknown key %s", d.file, k.Line, strconv.Quote(join(where, shown)))
	if near := nearest(key, known); near != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", strconv.Quote(join(where, near)))
	}
	d.warnings = append(d.warnings, msg+" — ignored]")
	return false
}

// nearest is the known key closest to key, "" when none is close enough
// to be a slip of the keyboard: at most two edits, and no more than a
// third of the key's length (so "tui" does not suggest "acp").
func nearest(key string, known []string) string {
	best, bestDist := "", 3
	low := strings.ToLower(key)
	for _, k := range known {
		d := editDistance(low, strings.ToLower(k))
		if d < bestDist && d*3 <= utf8.RuneCountInString(k) {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of two neighbours (the optimal string alignment distance) between a and
// b, in runes.
func editDistance(a, b string) int {
	r, s := []rune(a), []rune(b)
	if len(r) > 64 || len(s) > 64 {
		// No known key is that long: do not spend time on it.
		return 64
	}
	prev2 := make([]int, len(s)+1)
	prev := make([]int, len(s)+1)
	cur := make([]int, len(s)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(r); i++ {
		cur[0] = i
		for j := 1; j <= len(s); j++ {
			cost := 1
			if r[i-1] == s[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && r[i-1] == s[j-2] && r[i-2] == s[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(s)]
}
