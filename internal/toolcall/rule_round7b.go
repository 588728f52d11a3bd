package toolcall

import "strings"

// Round 7b (testdata/widened-threads-round7b.jsonl): server calls whose
// arguments a streaming parser resent, the shell tool under the names other
// agents give it, Gemini CLI's absolute_path, Qwen3's "[Calling tool: …]"
// line, and a call shown as a tool's usage example.

// resentPrefixArgs is rule "resent_prefix_args": server arguments that are
// a prefix of an object followed by the whole object, P+O with O one
// complete JSON object running to the end and P a non-empty prefix of O.
// That is what a streaming parser's prefix-diff sends when its end-of-stream
// flush repeats the arguments it already streamed in part: vLLM's xLAM
// parser gives "{{"city": …}" (the streamed "{" prefix + the full object
// appended) or the object twice (vllm-project/vllm#51697, root cause in
// vllm/tool_parsers/xlam_tool_parser.py's streaming branch). The object is
// the arguments. Only when P is exactly O's beginning: two different
// objects (parallel calls glued) and a cut object followed by another are
// left to lenientArgs, and an O that does not close is no call here.
func resentPrefixArgs(text string) (map[string]any, bool) {
	if len(text) < 4 || text[0] != '{' {
		return nil, false
	}
	for k, tries := 1, 0; k < len(text) && tries < 64; k++ {
		if text[k] != '{' {
			continue
		}
		tries++
		if !strings.HasPrefix(text[k:], text[:k]) {
			continue
		}
		if v, ok := decodeStrict(text[k:]); ok {
			if m, ok := v.(map[string]any); ok {
				return m, true
			}
		}
	}
	return nil, false
}

// shellAliases is rule "shell_tool_names": the names other agents give
// their shell tool, which models trained on them write for mm's bash —
// Hermes Agent's `terminal` (the registered name
// NousResearch/hermes-agent#24411 maps hallucinated names to), OpenHands'
// `execute_bash`, Cursor's `run_terminal_cmd` (its agent's tool records).
// One of these with a verb before it (execute_, run_, call_, invoke_,
// use_) is the same tool. Only ever bash, and only when bash is declared.
// A bare `shell` stays unguessed (TestToolNames: a word, not one agent's
// tool name), and so does a namespaced name whose tool word is `shell`.
var shellAliases = map[string]bool{"terminal": true, "execute_bash": true, "run_terminal_cmd": true, "run_terminal_command": true}

var aliasVerbs = []string{"execute_", "run_", "call_", "invoke_", "use_"}

// shellAlias maps a folded name to bash when it is one of shellAliases,
// with or without a verb before it.
func shellAlias(s string) bool {
	if shellAliases[s] {
		return true
	}
	for _, v := range aliasVerbs {
		if rest, ok := strings.CutPrefix(s, v); ok && (shellAliases[rest] || rest == "bash") {
			return true
		}
	}
	return false
}

// resolveRound7b is the second look resolve takes at a name no other rule
// matched: a shell alias, or a colon-namespaced name whose one segment that
// names a tool is the tool (NousResearch/hermes-agent#24411 lists names
// Gemma 4 e2b/e4b sent on Ollama, `tool:execute_terminal` among them; its
// normalizer strips the namespace). With two segments that name different
// tools (`bash:read_file`) it is no tool; `::` (a language's scope, C++ or
// Rust) is not this namespace.
func (ts *toolset) resolveRound7b(s string) string {
	low := strings.ToLower(s)
	if shellAlias(low) {
		if _, ok := ts.raw["bash"]; ok {
			return "bash"
		}
		return ""
	}
	if !strings.Contains(s, ":") || strings.Contains(s, "::") {
		return ""
	}
	found := ""
	for _, seg := range strings.Split(s, ":") {
		n := ""
		if _, ok := ts.raw[seg]; ok {
			n = seg
		} else if d, ok := ts.lower[strings.ToLower(seg)]; ok {
			n = d
		} else if t, ok := toolAliases[strings.ToLower(seg)]; ok {
			if _, declared := ts.raw[t]; declared {
				n = t
			}
		} else if shellAlias(strings.ToLower(seg)) {
			if _, declared := ts.raw["bash"]; declared {
				n = "bash"
			}
		}
		if n == "" {
			continue
		}
		if found != "" && found != n {
			return ""
		}
		found = n
	}
	return found
}

// Gemini CLI's and Qwen Code's read_file take `absolute_path`
// (packages/core/src/tools/read-file.ts; google-gemini/gemini-cli#7695 and
// #4936 quote "params must have required property 'absolute_path'"):
// models trained on them write it, and absolutePath, for mm's path.
func init() {
	argAliases["path"] = append(argAliases["path"], "absolutepath", "abspath")
}

// callingToolBracket is rule "calling_tool_bracket": Qwen3's
// `[Calling tool: NAME({…})]`, a line some Qwen3 builds write instead of
// <tool_call> (the form MLX servers render earlier calls in). Three parsers
// read it with the same pattern, `\[Calling tool:\s*(\w+)\((\{.*?\})\)\]`:
// waybarrios/vllm-mlx#15 (its highest-priority format), jjang-ai/vmlx
// vmlx_engine/tool_parsers/qwen_tool_parser.py @ c51c491e ("Bracket style"),
// auxothq/auxot internal/worker/qwen_tool_xml.go ("some Qwen3 builds emit
// when XML parsing has failed previously in the conversation"). Stricter
// than they are: the bracket opens a line and ends it, the arguments are
// one JSON object, and the lead-in rules of any shown call apply (finish).
// j is the '['.
func (sc *scan) callingToolBracket(j int) (group, bool) {
	s := sc.s
	// The bracket opens its line: only blanks back to the line's start
	// (looked at backwards from j, so that a line of many brackets is not
	// searched again for each).
	k := j
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t' || s[k-1] == '\r') {
		k--
	}
	if k > 0 && s[k-1] != '\n' {
		return group{}, false
	}
	p := skipSpace(s, j+len("[Calling tool:"))
	e := p
	for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	if e == p || e >= len(s) || s[e] != '(' {
		return group{}, false
	}
	q := skipSpace(s, e+1)
	if q >= len(s) || s[q] != '{' {
		return group{}, false
	}
	sc.sawOpener = true
	r := readValue(s, q, false)
	m, ok := r.v.(map[string]any)
	if r.fail != failNone || !ok {
		return group{}, false
	}
	c := skipSpace(s, r.end)
	if !strings.HasPrefix(s[c:], ")]") {
		return group{}, false
	}
	end := c + 2
	rest := s[end:]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	if strings.TrimSpace(rest) != "" || !bracketLinesEndReply(s[end:]) { // rule_redteam7.go
		return group{}, false
	}
	cand := candidate{name: s[p:e], args: m, fromText: true, format: "Qwen3 [Calling tool: …] line", notes: r.notes}
	return group{start: j, end: end, cands: []candidate{cand}}, true
}

// usageExampleRe is rule "usage_example_lead": a lead-in that presents the
// call as a tool's usage example — the "Usage Example" blocks MCP servers
// put in their tool descriptions, which firecrawl/firecrawl-mcp-server#279
// calls "a documentation display format, not the MCP calling convention".
// "The tool's description shows this usage example:", "Usage example:",
// "here is a sample request:". Not when the model says it acts ("Let me run
// the usage example:", rule_leadin.go's modelActs).
var usageExampleRe = lazyRegexp(`(?i)\b(this|these|that|the following|an?|the|its|their)\s+(usage|sample|code|documentation|docs|invocation|request)\s+examples?\s*[:：]?\s*$|^\s*(usage|sample|code|request)\s+examples?\s*[:：]\s*$|\b(an?|this|the following)\s+sample\s+(request|call|invocation)\s*[:：]?\s*$`)

// notIntendedRound7b is notIntended's round-7b reading of the lead-in.
func notIntendedRound7b(before string) bool {
	return (usageExampleRe().MatchString(before) || exampleInvocationRe().MatchString(before)) && !modelActs(before) // exampleInvocationRe: rule_redteam7.go
}
