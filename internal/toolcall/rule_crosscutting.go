package toolcall

import (
	"strings"
)

// Rules for faults that cut across the model formats (testdata/README.md,
// "What the expectations assume"): a call that names a tool and nothing
// else, a name repeated by a stream accumulator, call syntax that is the
// content of a harmony JSON body or of a code block, and a call reported as
// already run with a few words between the verb and the call.

// nameOnlyCall reads {"name": NAME} written inside call markup (Hermes
// <tool_call>, Mistral [TOOL_CALLS], an LFM/Granite list…): the format's
// documentation makes "arguments" part of the call, and a model that leaves
// it out has still called the tool (openclaw#55039, ollama#11509), so the
// call is answered with a correction that names the missing argument. It is
// strict: the object holds only the name (and the OpenAI id/type fields), so
// JSON data with a name key (a package manifest) is never read as a call;
// it must be the only object in the markup, so that a list of names (the
// <tools> listing of a prompt repeated back) is data; and outside call
// markup it is never tried at all.
func nameOnlyCall(v any) (candidate, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return candidate{}, false
	}
	// Command R's action names its tool under tool_name (command_r-13p008,
	// smg's tool_parser_cohere.rs: {"tool_name": "bash"} with no
	// parameters).
	key := "name"
	name, ok := m["name"].(string)
	if !ok {
		key = "tool_name"
		name, ok = m["tool_name"].(string)
	}
	if !ok || strings.TrimSpace(name) == "" {
		return candidate{}, false
	}
	for k := range m {
		switch k {
		case key, "id", "type", "tool_call_id":
		default:
			return candidate{}, false
		}
	}
	return candidate{name: name, notes: []string{"name-only call"}}, true
}

// repeatedName reads a tool name written several times in a row
// (bashbash, read_fileread_fileread_file): OpenAI streaming sends the name
// once, in the first delta of a call, and a client that appends every
// delta's name repeats it when a server re-sends it in each chunk
// (vllm#14951, vllm#13078, open-webui#22235). It returns the name once, or
// "" when the text is not one piece repeated.
func repeatedName(s string) string {
	for p := 1; p <= len(s)/2; p++ {
		if len(s)%p == 0 && strings.Repeat(s[:p], len(s)/p) == s {
			return s[:p]
		}
	}
	return ""
}

// harmonyJSONBodyEnd is where a harmony body given as JSON ends: the
// <|constrain|>json body of a tool message is one JSON value, so the end
// token is looked for after that value closes and a <|call|> written inside
// one of its strings (a file that documents the format) is content.
// It returns bodyStart when the body is not a complete JSON object.
func harmonyJSONBodyEnd(s string, bodyStart int) int {
	p := skipSpace(s, bodyStart)
	if p >= len(s) || s[p] != '{' || !strings.Contains(s[p:], "<|") {
		return bodyStart
	}
	r := readValue(s, p, false)
	if r.fail != failNone {
		return bodyStart
	}
	if _, ok := r.v.(map[string]any); !ok {
		return bodyStart
	}
	return r.end
}

// pastWithEndRe: "I already ran `ls -la` with {…}" — a past-tense report
// whose verb has a short object before the call it names (the README's
// "reports it as already run"). Commas and semicolons end the clause so that
// "I ran the linter; now let me fix it with {…}" is still a call.
var pastWithEndRe = lazyRegexp(`(?i)\b(i|we)\s+((have|'ve)\s+)?(already\s+)?(ran|executed|called|invoked|used|sent)\s+[^.!?;,:\n]{1,60}?\s+(with|using|via|through)\s*[:\-–—]?\s*$`)
