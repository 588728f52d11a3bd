package toolcall

import "strings"

// Round 9v's rules (widened-threads-round9v.jsonl).

// trailingHermesCalls is rule "hermes_call_after_arguments": in a server
// call's arguments, a complete JSON object followed by nothing but whole
// Hermes <tool_call>{"name", "arguments"}</tool_call> blocks. The Hermes
// format (NousResearch's Hermes-Function-Calling prompt; llama.cpp's and
// vLLM's hermes parsers read every <tool_call> block of a reply) writes
// each call as its own block, so a block after the first call's arguments
// is the model's next call that a server which closed the arguments late
// (a template mismatch: netclaw's "Tool-call arguments containing another
// tool call concatenated onto the end") left inside them. The blocks are
// read as content is; they count only when they are all there is after
// the object (no prose, no cut block) and every one names a declared tool,
// else the text after the object is junk as before.
func trailingHermesCalls(rest string, ts *toolset) ([]candidate, bool) {
	if !strings.HasPrefix(rest, "<tool_call>") || !strings.Contains(rest, "</tool_call>") {
		return nil, false
	}
	sc := scanContent(rest, ts)
	if len(sc.cands) == 0 || strings.TrimSpace(sc.text) != "" {
		return nil, false
	}
	for _, c := range sc.cands {
		if c.fail != failNone || ts.resolve(c.name) == "" {
			return nil, false
		}
	}
	return sc.cands, true
}

// emptyNamingArg is rule "empty_naming_argument": a required string
// argument that names something (a path, a command, a URL — not free text
// such as content, old or new) given as "" or white space is missing, as a
// GLM key with no value gives no argument (vLLM's glm47 parser, round 4b):
// the call gets the correction naming it and is never run empty. netclaw's
// llama.cpp troubleshooting page lists {"Path": ""} among the broken
// arguments a template mismatch or an aggressive quant produces.
func emptyNamingArg(name string, v any) bool {
	s, ok := v.(string)
	return ok && !verbatimArgs[name] && namingArg(name) && strings.TrimSpace(s) == "" // namingArg: rule_redteam9.go
}
