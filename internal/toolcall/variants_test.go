package toolcall

import (
	"testing"
)

// wholeReplyOnly are the cases whose format is recognised only as the whole
// reply, so that prose before them rightly changes the outcome: Functionary
// v3.2's call whose leading >>> the prompt ate, and a pythonic list of
// unknown names (rule_templates.go).
// A harmony header with its tokens stripped ("commentary to=functions.NAME
// json{…}") is read only at the start of the reply: opening a line under
// prose it is pasted text (strippedHeaderAt, rule_harmony.go).
// MiniMax markup whose '<' were all lost is read only as the whole reply
// (minimaxAnglesLost, rule_minimaxangles.go): a detokenizer that lost them
// lost those of a think block too.
// Round 7e: a flattened {"name": TOOL, ARG: …} object is a call only as the
// whole reply (cloudflare/ai#574), and Gemma's leaked <|channel> only at the
// reply's start, where vLLM's gemma4 parser prepends it (rule_round7e.go).
// {"function": NAME, "arguments"} is a call only as the whole reply
// (functionKeyReply, rule_callshapes.go).
// Round 18: a Hermes block of plain words or broken JSON is corrected only
// as the whole reply (unreadable_call_block), a call with a claim after it
// only when it opens the reply (claim_after_opening_call), MiniCPM 5's
// stripped name attributes only as the whole reply (stripped_name_attrs),
// and DeepSeek-R1 blocks indented eight spaces are a Markdown code block
// once a paragraph stands before them.
var wholeReplyOnly = map[string]bool{
	// Round 21: stripped harmony headers (openclaw's standalone blocks),
	// Functionary v2's framing opening the reply, a reply that is only a
	// call begun ({" or Grok's bare opener), a {"toolCalls"} envelope, a
	// self-closing tool element and a {"tool", "arguments"} fence with
	// nothing around it are read only as the whole reply (rule_round21.go).
	"gpt_oss-21d018": true, "gpt_oss-21d020": true, "gpt_oss-21d021": true, "gpt_oss-21d022": true, "gpt_oss-21d023": true,
	"functionary-21c020": true, "bare_json-21c008": true, "xai_xml-21b004": true, "bare_json-21b013": true, "cline_xml-21b010": true, "fenced_json-21b018": true,
	// Round 22: a fenced LangChain blob, a bare {function, args} list,
	// Cline's element in <tool_call>, a tool element holding <parameter=…>
	// tags and Qwen-Agent's [FUNCTION] lines, each as the whole reply
	// (rule_round22.go).
	// Round 23: replies that are only a call begun (an envelope cut, a
	// name cut, a nameless invoke) and a glimmer reply (rule_round23.go).
	"bare_json-24c003": true, // round 24: a {"tool", "parameters"} object as the whole reply
	"bare_json-23b004": true, "minimax_m2-23c032": true, "hermes-23c058": true, "minimax_m2-23c062": true, "minimax_m2-23c059": true,
	"fenced_json-22b019": true, "multi_call-22b026": true, "cline_xml-22c022": true, "cline_xml-22c026": true, "qwen3-22c027": true,
	// Dify's step opens the reply, harmony's message with no recipient is
	// the reply, and the rest are whole-reply shapes (red team 22r).
	"bare_json-22b034": true, "fenced_json-22b021": true, "fenced_json-22b022": true, "gpt_oss-22a036": true, "gpt_oss-22a037": true, "gpt_oss-22a038": true, "gpt_oss-22r060": true,
	"bare_json-22r028": true, "bare_json-22r029": true, "bare_json-22r056": true, "react-22r025": true, "react-22r026": true, "react-22r027": true, "react-22r043": true,
	"qwen3_coder_xml-22r035": true, "qwen_agent-22r033": true, "qwen_agent-22r047": true, "write_file-22r050": true,
	"functionary-21r003": true, "functionary-21r004": true, "functionary-21r066": true, "bash-21r006": true, "bash-21r048": true, "read_file-21r007": true,
	"hermes-18h007": true, "pythonic-18h034": true, "pythonic-18r025": true, "minicpm-18t003": true, "deepseek_r1-18p022": true, "deepseek_r1-18p023": true, "deepseek_r1-18p025": true, "bare_json-f003": true, "bare_json-l002": true, "minimax_m2-y001": true, "functionary-w003": true, "functionary-w006": true, "pythonic-w009": true, "functionary-a002": true, "gpt_oss-z002": true,
	"gpt_oss-e003": true, "gemma-e003": true,
	// MiniMax-M3's argument elements without their namespace tokens are
	// read only as the whole reply (m3ElementsOpenerLost, rule_round8g.go).
	"minimax_m2-i015": true,
	// FastDeploy's <tool_call>{invalid json}</tool_call> (round 19t), as below.
	"hermes-19t010": true,
	// A <tool_call> block of plain words is a call attempt only as the
	// whole reply (unreadableCallBlock, rule_round10p.go): after prose it
	// is quoted.
	"qwen3_coder_xml-10p007": true,
	// The same for GLM 4.7's: its parser's prose block that names no tool
	// (glm47.py gives it the name unknown, rule_round12l.go's cases).
	"glm-12l005": true,
	// Round 12q: MiniMax markup with its '<' lost (minimaxAnglesLost), a
	// {"tool_name", "tool_args"} object (toolNameArgsObject), a harmony
	// remnant "assistantcode{…}" (harmonyStrippedNoRecipient) and M3's
	// leading </mm:think> closers before a cut opener
	// (m3LeadingThinkClosers) are read only as the whole reply
	// (rule_round12q.go).
	"minimax_m2-12q016": true, "bare_json-12q007": true, "gpt_oss-12q019": true, "minimax_m2-12q022": true,
	// Round 13p: a Kimi block indented eight spaces (the Python test's
	// triple-quoted string): after a paragraph and a blank line, Markdown
	// reads those lines as an indented code block.
	"kimi_k2-13p013": true, "kimi_k2-13p010": true,
	// Round 14p: Glimmer's " to=NAME<|message|>" header opens the reply
	// (glimmerCalls, rule_round14.go, as Ollama's glimmer parser reads it);
	// after prose, the stripped-harmony reader corrects the block instead
	// (argsHoldCall: a body of call markup is no command or path).
	"gpt_oss-14p031": true, "gpt_oss-14p033": true, "gpt_oss-14p034": true, "gpt_oss-14p035": true,
	// Round 14t: [NAME{…}] is corrected only as the whole reply
	// (pythonicBraces, rule_round14.go).
	"pythonic-14t009": true,
	// Round 15: call markup around a bare word or nameless pairs
	// (namedWordBlock, namelessCallBlock), ds2api's <tool_name> block with
	// JSON parameters (toolNameParamsJSON) and Glimmer's messages
	// (glimmerCalls, glimmerMessages) are read only as the whole reply
	// (rule_round15.go).
	"hermes-15h001": true, "glm-15p011": true, "glm-15p013": true, "gemma-15p030": true, "deepseek_dsml-15h012": true,
	"structured_args-15h002": true, "minimax_m2-15p031": true, "minimax_m2-15p032": true, "minimax_m2-15p033": true, "minimax_m2-15p034": true, "deepseek_dsml-15t037": true,
	// Round 16t: MemGPT's {"function", "params"} objects, the "**Tool
	// Call:**" label with fenced arguments, AutoGPT's thoughts/command
	// object, a fence of {"function": {…}} objects and call markers around
	// a broken object are read only as the whole reply (rule_round15.go):
	// after prose the same JSON is data or a shown example.
	"bare_json-16t001": true, "bare_json-16t002": true, "bare_json-16t003": true, "bare_json-16t005": true, "bare_json-16t006": true,
	"bare_json-16t007": true, "bare_json-16t008": true, "bare_json-16t009": true, "multi_call-16t004": true,
	"fenced_json-16t013": true, "fenced_json-16t014": true, "fenced_json-16t015": true, "fenced_json-16t016": true,
	"fenced_json-16t019": true, "fenced_json-16t020": true, "fenced_json-16t030": true, "hermes-16t022": true,
	// Round 17p: Muse-Glimmer's messages open the reply (glimmerMessages).
	"minimax_m2-17p018": true,
	// Round 17h: tunacode's {"tool"|"function": NAME, "args"|"parameters"}
	// only as the whole reply (functionKeyReply); blocks indented as the
	// test string is, which after prose and a blank line are Markdown's
	// indented code.
	"bare_json-17h024": true, "bare_json-17h025": true, "hermes-17h026": true,
	// Red team 17r: the same shapes.
	"qwen3-17r019": true, "qwen3-17r020": true,
	// Round 20: bare NAME{…} calls (bareNameCalls), the Llama 3 object
	// with an unknown name (llama3WholeObject), a reply that is one JSON
	// string literal (replyAsJSONString) and a tool's element inside a
	// call wrapper (toolTagInWrapper) are read only as the whole reply
	// (rule_round20.go): in prose they are quoted or data.
	"mistral-20b017": true, "multi_call-20b018": true, "bare_json-20d002": true, "llama3-20c002": true, "bare_json-20c028": true, "hermes-20d015": true}

// TestCorpusVariants checks that the rules hold beyond the exact strings
// of the corpus: every text case keeps its outcome with a sentence before
// it, a closed <think> block before it, or blank lines around it — the
// ways real replies differ from a parser test's string.
func TestCorpusVariants(t *testing.T) {
	variants := []struct {
		name  string
		apply func(string) string
		whole bool // changes what a whole-reply format sees
	}{
		{"prose before", func(s string) string { return "Sure, I will do that now.\n\n" + s }, true},
		{"think before", func(s string) string {
			return "<think>\nThe user wants this done; the tool does it.\n</think>\n\n" + s
		}, true},
		{"blank lines around", func(s string) string { return "\n" + s + "\n\n" }, false},
	}
	n, changed := 0, 0
	for _, c := range loadCorpus(t) {
		// Text cases only; a cut reply runs nothing whatever comes first.
		if c.Content == nil || len(c.ToolCalls) > 0 || c.FinishReason == "length" {
			continue
		}
		if !scoreCase(t, c).ok {
			continue // TestCorpus reports it
		}
		for _, v := range variants {
			if v.whole && wholeReplyOnly[c.ID] {
				continue
			}
			vc := c
			text := v.apply(*c.Content)
			vc.Content = &text
			n++
			if o := scoreCase(t, vc); !o.ok {
				changed++
				t.Errorf("%s %s with %s: %s", c.File, c.ID, v.name, o.why)
			}
		}
	}
	t.Logf("%d variants of the text cases, %d changed their outcome", n, changed)
}
