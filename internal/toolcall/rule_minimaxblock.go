package toolcall

import "strings"

// minimaxHashHeadRe and minimaxHashKeyRe read the Ruby-hash body of a
// [TOOL_CALL] block: {tool => "NAME", args => { --KEY "VALUE" … }}.
var (
	minimaxHashHeadRe = lazyRegexp(`^\{\s*tool\s*=>\s*"([A-Za-z_][A-Za-z0-9_.\-]*)"\s*,\s*args\s*=>\s*\{`)
	minimaxHashKeyRe  = lazyRegexp(`^--([A-Za-z_][A-Za-z0-9_\-]*)[ \t]+`)
)

// minimaxToolCallBlock is rule "minimax_tool_call_block": MiniMax-M2's
// inline call, as LM Studio's tracker documents the model's native format
// (lmstudio-ai/lmstudio-bug-tracker#1177: `[TOOL_CALL] { "tool": NAME,
// "args": { … } } [/TOOL_CALL]`), and the same block with a Ruby-hash body
// that Hermes Agent users quote from MiniMax (`{tool => "NAME", args => {
// --KEY "VALUE" }}`, NousResearch/hermes-agent#35935, #11994). Strict: the
// [/TOOL_CALL] closer must be there, the body must be exactly one such
// object (tool and args and nothing else), and in the hash form every
// value a quoted string; anything else stays text. j is the '['.
func (sc *scan) minimaxToolCallBlock(j int) (group, bool) {
	s := sc.s
	p := skipSpace(s, j+len("[TOOL_CALL]"))
	if p >= len(s) || s[p] != '{' {
		return group{}, false
	}
	ci := strings.Index(s[p:], "[/TOOL_CALL]")
	if ci < 0 {
		return group{}, false
	}
	closeAt := p + ci
	end := closeAt + len("[/TOOL_CALL]")
	c := candidate{fromText: true, format: "MiniMax [TOOL_CALL] block"}
	if r := readValue(s, p, false); r.fail == failNone && r.end <= closeAt {
		m, ok := r.v.(map[string]any)
		name, _ := m["tool"].(string)
		args, hasArgs := m["args"]
		if !ok || name == "" || !hasArgs || len(m) != 2 || strings.TrimSpace(s[r.end:closeAt]) != "" {
			return group{}, false
		}
		c.name, c.args, c.notes = name, args, append(r.notes, "tool/args keys read")
		return group{start: j, end: end, cands: []candidate{c}}, true
	}
	body := minimaxTypography(s[p:closeAt]) // rule_round20.go
	h := minimaxHashHeadRe().FindStringSubmatch(body)
	if h == nil {
		return group{}, false
	}
	args := map[string]any{}
	q := len(h[0])
	for {
		q = skipSpace(body, q)
		if q >= len(body) {
			return group{}, false
		}
		if body[q] == '}' {
			if strings.TrimSpace(body[q+1:]) != "}" {
				return group{}, false
			}
			break
		}
		k := minimaxHashKeyRe().FindStringSubmatch(body[q:min(len(body), q+100)])
		if k == nil {
			return group{}, false
		}
		q += len(k[0])
		if strings.HasPrefix(body[q:], "null") && !isIdentAt(body, q+len("null")) {
			// --key null: the argument is absent (rule_round20.go,
			// minimaxTypography's case); the call is corrected if it
			// is required.
			q += len("null")
			continue
		}
		if q >= len(body) || body[q] != '"' {
			return group{}, false
		}
		r := readValue(body, q, false)
		v, isStr := r.v.(string)
		if r.fail != failNone || !isStr {
			return group{}, false
		}
		if _, dup := args[k[1]]; !dup {
			args[k[1]] = v
		}
		q = r.end
	}
	c.name, c.args, c.notes = h[1], args, []string{"tool => / args => { --key \"value\" } read"}
	return group{start: j, end: end, cands: []candidate{c}}, true
}
