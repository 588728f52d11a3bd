package toolcall

import (
	"encoding/json"
	"strings"
)

// Rules of round 7e (testdata/widened-threads-round7e.jsonl), each from the
// parser, template or client fix of its format.

// gemmaStrayChannel is rule "gemma_stray_channel": Gemma 4's reasoning
// block is `<|channel>thought\n…<channel|>` (vLLM's
// tool_chat_template_gemma4.jinja, as quoted in NousResearch/hermes-agent#48412:
// "reasoning : <|channel>thought\n...\n<channel|>"), so a channel token is
// followed by the channel's name. vLLM's gemma4 parser, run without a
// reasoning parser, prepends a synthetic `<|channel>` to the first feed
// when the opener is missing and leaks it into content
// (vllm-project/vllm#57231). A reply that begins with that token, followed
// at once by Gemma 4's call opener `<|tool_call>` and with no `<channel|>`
// anywhere after it, opened no reasoning: the token is a remnant and is
// dropped, so the call is read as a call. `<|channel>thought` (a real,
// unclosed reasoning block) and the token anywhere but the reply's start
// (a file's content, a sentence) are left as they are.
func gemmaStrayChannel(s string) string {
	if !strings.Contains(s, "<|channel>") {
		return s
	}
	t := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(t, "<|channel>") {
		return s
	}
	t = t[len("<|channel>"):]
	if strings.Contains(t, "<channel|>") || !strings.HasPrefix(strings.TrimLeft(t, " \t\r\n"), "<|tool_call>") {
		return s
	}
	return strings.TrimLeft(t, " \t\r\n")
}

// flatCallObject is rule "flattened_call_object": gpt-oss, forced to call a
// tool, sometimes leaks the call as one JSON object in content with the
// tool's name and its arguments side by side, {"name":"<tool>","path":"…"}
// (cloudflare/ai#574; the workers-ai-provider fix, cloudflare/ai#575,
// recovers those leaked calls). The reply is that call only when it is
// nothing but one JSON object whose "name" is a declared tool's exact name,
// whose other keys are all parameters of that tool (at least one), and
// which holds every required parameter: a key the tool does not take
// ("size", "type", "description") makes it data about the tool, as does
// any text around the object.
func flatCallObject(s string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' || !strings.Contains(t, `"name"`) || strings.ContainsAny(t, "\r\n") { // one line: rule_redteam7.go
		return candidate{}, false
	}
	var m map[string]any
	if json.Unmarshal([]byte(t), &m) != nil {
		return candidate{}, false
	}
	name, ok := m["name"].(string)
	if !ok {
		return candidate{}, false
	}
	if _, declared := ts.raw[name]; !declared {
		return candidate{}, false
	}
	delete(m, "name")
	if len(m) == 0 {
		return candidate{}, false
	}
	o := ts.schema(name)
	for k := range m {
		if _, ok := o.props[k]; !ok {
			return candidate{}, false
		}
	}
	for _, r := range o.required {
		if _, ok := m[r]; !ok {
			return candidate{}, false
		}
	}
	return candidate{name: name, args: m, fromText: true, format: "flattened call object"}, true
}

// echoedTextRe is a lead-in that hands back the user's own text: "Here is
// the string you asked me to repeat:", "Repeated verbatim:", "exactly as
// you sent it:". The quoting lead-ins of rule_intent_wide.go ("You
// wrote:") read the same way; vllm-project/vllm#54844 names the pattern
// (model output is "attacker-influenceable in the usual way (asking the
// model to echo a string)"). It ends the lead-in, optionally with the quote
// that opens the echoed string.
var echoedTextRe = lazyRegexp(`(?i)(\byou\s+(asked|told|wanted)\s+me\s+to\s+(repeat|echo|copy|reproduce|say back|type out|print back)\b` +
	`|\b(repeated|echoed|copied|reproduced)\s+(back\s+)?(verbatim|exactly|word for word)\b` +
	`|\b(exactly|verbatim)\s+as\s+(you\s+)?(gave|given|sent|wrote|written|typed|pasted)\b)` +
	`[^.!?\n]{0,60}[:：]\s*["'“«]?\s*$`)

// echoedText is rule "echoed_user_text": call markup after a lead-in that
// says the reply repeats the user's text is that text, shown, not made.
func echoedText(before string) bool {
	if !strings.Contains(before, ":") && !strings.Contains(before, "：") {
		return false
	}
	return echoedTextRe().MatchString(before) && !actsIn(before) // rule_redteam7.go
}
