package toolcall

import (
	"strings"
)

// Rules for real output quoted in issue threads
// (testdata/widened-threads-deepseek-qwen-glm.jsonl), each written from
// the format's parser or documentation named in its comment.

// namedWrapper is the rule "named call wrapper": a call wrapper tag that
// carries the tool's name in a name attribute (<tool_call name="NAME">,
// as <invoke name="NAME"> in MiniMax's parsers and <function name="NAME">
// in unsloth studio's tool_call_parser) is that tool called with its
// body, JSON or parameters, read like <function name=…>.
//
// The body must be what a call's arguments are — one JSON object, or
// parameter tags (round 3's TestRuleNamedCallWrapper): prose inside such a
// tag is not a call attempt.
func (sc *scan) namedWrapper(j int, t xtag) (group, bool) {
	if !wrapperTags[t.name] || strings.TrimSpace(t.attrs["name"]) == "" {
		return group{}, false
	}
	q := skipSpace(sc.s, t.end)
	if q >= len(sc.s) || (sc.s[q] != '{' && !strings.HasPrefix(sc.s[q:], "<parameter")) {
		return group{}, false
	}
	sc.sawOpener = true
	g, ok := sc.xmlCall(j, j, t)
	for i := range g.cands {
		g.cands[i].format = "<" + t.name + " name=…> wrapper"
	}
	return g, ok
}

// kimiSectionEndsReasoning is the rule "kimi section ends reasoning"
// (vLLM's KimiK2ReasoningParser: Kimi K2 "may implicitly end reasoning by
// starting a tool call section using <|tool_calls_section_begin|>"): a
// reasoning region that holds a Kimi tool-call section ends where the
// section begins, so the section is read as the call it is.
func kimiSectionEndsReasoning(s string, rs []region) []region {
	for i, r := range rs {
		if k := kimiSectionIn(s[r.start:r.end]); k >= 0 {
			rs[i].end = r.start + k
		}
	}
	return rs
}

func kimiSectionIn(s string) int {
	k := -1
	for _, m := range []string{"<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"} {
		if i := strings.Index(s, m); i >= 0 && (k < 0 || i < k) {
			k = i
		}
	}
	return k
}

// genericEnvelope is the rule "generic JSON envelope" (llama.cpp's
// common_chat_parse_generic: the whole reply is one JSON object, either
// {"tool_calls": [{name, arguments, id?}…]} or {"tool_call": {name,
// arguments}}, with an optional "content"/"response" beside it): such an
// object that ends the reply holds those calls. With text after it, it is
// data shown in an answer (documentation of the wire format).
func (sc *scan) genericEnvelope(q int, r readResult) ([]candidate, bool) {
	m, ok := r.v.(map[string]any)
	if !ok {
		return nil, false
	}
	var list any
	if v, ok := m["tool_calls"]; ok {
		list = v
	} else if v, ok := m["tool_call"]; ok {
		list = v
	} else {
		return nil, false
	}
	for k := range m {
		if k != "tool_calls" && k != "tool_call" && k != "content" && k != "response" {
			return nil, false
		}
	}
	if strings.TrimSpace(sc.s[r.end:]) != "" {
		return nil, false
	}
	cs, ok := callsFrom(list, append(r.notes, "calls read from a {\"tool_calls\": …} reply"), "generic JSON envelope", true)
	if !ok {
		return nil, false
	}
	for i := range cs {
		if _, isMap := cs[i].args.(map[string]any); !isMap && cs[i].args != nil {
			return nil, false
		}
	}
	return cs, true
}

// markerlessNamedJSON is the rule "markerless name then JSON"
// (mlx-swift-lm's NamedJSONCallScanner for GLM-4-0414, PR #623: "a
// declared tool name at the start of a line, followed by a single newline
// and a balanced JSON object"): the name alone on its line, the object on
// the next, ending its line. functionaryBare reads it at the start of the
// reply; this reads it as a paragraph of its own after prose or reasoning
// too. Stricter than that scanner: a name line that continues a paragraph
// ("Here is the config.\nbash\n{…}") is a label in prose, not a call.
func (sc *scan) markerlessNamedJSON(q int) (group, bool) {
	s := sc.s
	ls, le, ok := lineAbove(s, q)
	if !ok {
		return group{}, false
	}
	name := s[ls:le]
	if g, ok := cjkGluedName(s[ls:le], sc.ts); ok { // rule_round22.go
		ls += g
		name = s[ls:le]
	} else if name == "" || sc.ts.resolve(name) == "" || !paragraphStart(sc, ls) {
		return group{}, false
	}
	for i := 0; i < len(name); i++ {
		if !isIdent(name[i]) && name[i] != '.' && name[i] != '-' {
			return group{}, false
		}
	}
	r := readValue(s, q, false)
	if r.fail != failNone {
		return group{}, false
	}
	// Without a marker, only a call the reply ends with (or another such
	// NAME line follows) is a call: a name and an object followed by
	// prose that explains them is an example (widened-adversarial's
	// negative_quoted-a005), as with pythonic_call_ends_reply.
	if rest := strings.TrimSpace(s[r.end:]); rest != "" && !sc.markerlessFollows(rest) {
		return group{}, false
	}
	return sc.nameThenJSON(ls, ls, le, q, "markerless NAME\\n{…}")
}

// multilineServerBody is the rule "multi-line server body": server
// arguments that are not JSON are the value of the tool's single string
// argument only when they are one line; a multi-line body with no
// delimiter around it is never run (testdata/README.md, "Never run").
//
// A body that opens with a tag is left to the markup rules
// (args_as_param_tags reads <K>V</K> arguments, args_hold_call refuses a
// call written inside them).
func multilineServerBody(text string) bool {
	t := strings.TrimSpace(text)
	return !strings.HasPrefix(t, "<") && strings.ContainsAny(t, "\n\r")
}

// messageEndValue is the rule "value at the end of the message": a value
// whose closer is missing runs to the end of a message that ended
// normally (testdata/README.md); the line breaks that end the message are
// not part of it, as one newline before a closer is not.
func messageEndValue(raw string, atEnd bool) string {
	if !atEnd {
		return raw
	}
	return strings.TrimRight(raw, "\r\n")
}

// paragraphStart reports whether the line at s[ls] opens a paragraph: the
// start of the reply, a blank line, or the end of reasoning before it.
func paragraphStart(sc *scan, ls int) bool {
	before := strings.TrimRight(sc.s[:ls], " \t\r")
	if strings.TrimSpace(blank(before, sc.reasoning)) == "" {
		return true
	}
	return strings.HasSuffix(before, "\n\n") || strings.HasSuffix(before, "\n\r\n") || strings.HasSuffix(strings.TrimRight(before, "\n\r"), "</think>")
}

// markerlessFollows reports whether rest (the text after a markerless call,
// trimmed) starts with another markerless call: a declared tool's name
// alone on its line, then an object.
func (sc *scan) markerlessFollows(rest string) bool {
	name, after, ok := strings.Cut(rest, "\n")
	return ok && sc.ts.resolve(strings.TrimSpace(name)) != "" && strings.HasPrefix(strings.TrimLeft(after, " \t\r"), "{")
}
