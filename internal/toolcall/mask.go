package toolcall

import (
	"regexp"
	"sort"
	"strings"
)

// Regions of the content where no call may be found: reasoning (a call
// rehearsed there is never run) and code fenced as another language (code
// the user will read or run, not a call).

type region struct{ start, end int }

// pairRegions finds reasoning delimited by open/close tags. An open tag that
// never closes runs to the end; a close tag with no open tag makes
// everything before it reasoning (thinking forced open by the template).
func pairRegions(s string, open, close *regexp.Regexp) []region {
	opens := open.FindAllStringIndex(s, -1)
	closes := close.FindAllStringIndex(s, -1)
	if len(closes) == 0 && len(opens) == 0 {
		return nil
	}
	var out []region
	oi, ci := 0, 0
	last := 0    // end of the previous region
	openAt := -1 // start of the open region, -1 when none
	for oi < len(opens) || ci < len(closes) {
		if ci >= len(closes) || (oi < len(opens) && opens[oi][0] < closes[ci][0]) {
			if openAt < 0 && opens[oi][0] >= last {
				openAt = opens[oi][0]
			}
			oi++
			continue
		}
		c := closes[ci]
		ci++
		if c[0] < last {
			continue
		}
		if openAt >= 0 {
			out = append(out, region{openAt, c[1]})
		} else if len(out) > 0 && c[0] > 0 && (s[c[0]-1] == '"' || s[c[0]-1] == '\'') {
			// A lone closer in quotes after a closed pair is a string's
			// text (a call's value "</think>": candle-vllm's stream
			// parser test), not the end of more reasoning
			// (rule_round23.go).
			continue
		} else {
			out = append(out, region{last, c[1]})
		}
		last = c[1]
		openAt = -1
	}
	if openAt >= 0 {
		out = append(out, region{openAt, len(s)})
	}
	return out
}

var (
	thinkOpen       = lazyRegexp(`(?i)<(think|thinking|reasoning)>`)
	thinkClose      = lazyRegexp(`(?i)</(think|thinking|reasoning)>`)
	bracketOpen     = lazyRegexp(`\[THINK\]`)
	bracketClose    = lazyRegexp(`\[/THINK\]`)
	gemmaThoughtOpn = lazyRegexp(`<\|channel>`)
	gemmaThoughtCls = lazyRegexp(`<channel\|>`)
)

// reasoningRegions returns the think blocks of the content.
func reasoningRegions(s string) []region {
	var out []region
	if strings.Contains(s, "think>") || strings.Contains(s, "THINK>") || strings.Contains(s, "thinking>") || strings.Contains(s, "reasoning>") ||
		strings.Contains(s, "Think>") || strings.Contains(s, "Thinking>") || strings.Contains(s, "Reasoning>") {
		out = append(out, qwenThinkCallIsReply(s, qwenToolCallEndsThink(s, pairRegions(s, thinkOpen(), thinkClose())))...) // rule_round5c.go, rule_round7c.go
	}
	if strings.Contains(s, "THINK]") {
		out = append(out, pairRegions(s, bracketOpen(), bracketClose())...)
	}
	if strings.Contains(s, "<|channel>") || strings.Contains(s, "<channel|>") {
		out = append(out, pairRegions(s, gemmaThoughtOpn(), gemmaThoughtCls())...)
	}
	out = append(out, seedThinkRegions(s)...)
	out = append(out, cohereReasoning(s)...)
	return out
}

// callFenceLangs are the fence languages a call may be written in; any
// other language tag (bash, go, js, python…) marks code.
var callFenceLangs = map[string]bool{
	"": true, "json": true, "json5": true, "jsonc": true, "xml": true,
	"tool_call": true, "tool_calls": true, "toolcall": true, "tool_code": true, "tool": true,
	"function": true, "function_call": true, "functions": true,
	"text": true, "txt": true, "plaintext": true,
}

// fenceInfo is the language tag of a fence opening line.
func fenceLang(info string) string {
	info = strings.TrimSpace(info)
	if i := strings.IndexAny(info, " \t{`"); i >= 0 {
		info = info[:i]
	}
	return strings.ToLower(info)
}

// codeRegions returns the fenced blocks whose language is code.
func codeRegions(s string) []region {
	if !strings.Contains(s, "```") && !strings.Contains(s, "~~~") {
		return nil
	}
	var out []region
	in := false
	var fence string
	var lang string
	start := 0
	pos := 0
	for pos < len(s) {
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += pos
		}
		line := strings.TrimLeft(s[pos:end], " \t")
		if !in {
			if f := fenceRun(line); f != "" {
				info := line[len(f):]
				if strings.Contains(info, f) {
					// A one-line fence: ```bash ls```.
					if !callFenceLangs[fenceLang(info)] {
						out = append(out, region{pos, end})
					}
				} else {
					in, fence, lang, start = true, f, fenceLang(info), pos
				}
			}
		} else if strings.HasPrefix(line, fence) {
			rest := strings.TrimLeft(line, fence[:1])
			if rest == "" || !isLetter(rest[0]) {
				if !callFenceLangs[lang] {
					out = append(out, region{start, min(end+1, len(s))})
				}
				in = false
			}
		}
		pos = end + 1
	}
	if in && !callFenceLangs[lang] {
		out = append(out, region{start, len(s)})
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// fenceRun returns the fence (``` or ~~~, three or more) a line starts with.
func fenceRun(line string) string {
	if len(line) < 3 {
		return ""
	}
	c := line[0]
	if c != '`' && c != '~' {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == c {
		n++
	}
	if n < 3 {
		return ""
	}
	return line[:n]
}

// inlineCodeRegions returns `code spans` inside prose. A call quoted in a
// sentence is being talked about, not made; a message that is nothing but
// one code span is left alone.
func inlineCodeRegions(s string) []region {
	var out []region
	i := 0
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			break
		}
		j += i
		n := 0
		for j+n < len(s) && s[j+n] == '`' {
			n++
		}
		if n >= 3 {
			i = j + n
			continue
		}
		tick := s[j : j+n]
		k := strings.Index(s[j+n:], tick)
		if k < 0 {
			break
		}
		k += j + n
		nl := strings.Count(s[j:k], "\n")
		if nl <= 1 {
			out = append(out, region{j, k + n})
		}
		i = k + n
	}
	if len(out) == 1 && strings.TrimSpace(s[:out[0].start]) == "" && strings.TrimSpace(s[out[0].end:]) == "" {
		return nil
	}
	return out
}

// mergeRegions sorts and joins overlapping regions.
func mergeRegions(rs []region) []region {
	if len(rs) < 2 {
		return rs
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].start < rs[b].start })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.start <= last.end {
			if r.end > last.end {
				last.end = r.end
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// blank replaces the bytes of the regions with spaces, keeping offsets.
func blank(s string, rs []region) string {
	if len(rs) == 0 {
		return s
	}
	b := []byte(s)
	for _, r := range rs {
		for k := r.start; k < r.end && k < len(b); k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	return string(b)
}

func inRegions(rs []region, i int) bool {
	for _, r := range rs {
		if i >= r.start && i < r.end {
			return true
		}
	}
	return false
}

// Harmony (gpt-oss) messages: <|start|>ROLE<|channel|>CHANNEL to=RECIPIENT
// <|constrain|>json<|message|>BODY<|end|> (or <|call|>, <|return|>).

type harmonyMsg struct {
	start, end int // the whole message, header included
	bodyStart  int
	bodyEnd    int
	channel    string
	recipient  string
}

var (
	harmonyTokens = []string{"<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|call|>", "<|return|>"}
	recipientRe   = lazyRegexp(`\bto=([^\s<|]+)`)
)

func harmonyTokenAt(s string, i int) string {
	for _, t := range harmonyTokens {
		if strings.HasPrefix(s[i:], t) {
			return t
		}
	}
	return ""
}

// harmonyMessages splits content written with harmony tokens into messages.
func harmonyMessages(s string) []harmonyMsg {
	if !strings.Contains(s, "<|message|>") {
		return nil
	}
	var out []harmonyMsg
	pos := 0
	for {
		m := strings.Index(s[pos:], "<|message|>")
		if m < 0 {
			break
		}
		m += pos
		// The header starts at the first harmony token after the previous
		// message; prose before it stays prose.
		hs := -1
		for k := pos; k < m; k++ {
			if s[k] == '<' && harmonyTokenAt(s, k) != "" {
				hs = k
				break
			}
		}
		if hs < 0 {
			hs = pos
			// Without any token, the header is the text on the line.
			if nl := strings.LastIndexByte(s[pos:m], '\n'); nl >= 0 {
				hs = pos + nl + 1
			}
		} else {
			hs = harmonyRoleRecipient(s, pos, hs)
		}
		header := s[hs:m]
		msg := harmonyMsg{start: hs, bodyStart: m + len("<|message|>")}
		if r := recipientRe().FindStringSubmatch(header); r != nil {
			msg.recipient = r[1]
		}
		if c := strings.LastIndex(header, "<|channel|>"); c >= 0 {
			rest := header[c+len("<|channel|>"):]
			end := strings.IndexAny(rest, " <\t\n")
			if end < 0 {
				end = len(rest)
			}
			msg.channel = rest[:end]
		}
		// The body runs to the next end token or message start.
		be := len(s)
		endTok := ""
		from := msg.bodyStart
		if isToolRecipient(msg.recipient) {
			from = harmonyJSONBodyEnd(s, msg.bodyStart)
		}
		for k := from; k < len(s); {
			x := strings.Index(s[k:], "<|")
			if x < 0 {
				break
			}
			x += k
			switch t := harmonyTokenAt(s, x); t {
			case "<|end|>", "<|call|>", "<|return|>", "<|start|>", "<|channel|>":
				be, endTok = x, t
			case "<|message|>":
				if ls, ok := strippedHeaderLine(s, from, x); ok { // rule_round20.go
					be, endTok = ls, "header"
				}
			}
			if endTok != "" {
				break
			}
			k = x + 2
		}
		msg.bodyEnd = be
		msg.end = be
		if endTok == "<|end|>" || endTok == "<|call|>" || endTok == "<|return|>" {
			msg.end = be + len(endTok)
		}
		out = append(out, msg)
		pos = msg.end
		if pos >= len(s) {
			break
		}
	}
	return out
}

// isToolRecipient reports whether a harmony recipient names a tool call
// rather than a reader (to=assistant, to=user).
func isToolRecipient(r string) bool {
	switch strings.ToLower(r) {
	case "", "assistant", "user", "system", "all", "developer":
		return false
	}
	return true
}

var heredocRe = lazyRegexp(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// heredocRegions returns shell here-documents written outside a fence: the
// text up to the terminator line is a file's content, not a call.
func heredocRegions(s string) []region {
	if !strings.Contains(s, "<<") {
		return nil
	}
	var out []region
	for _, m := range heredocRe().FindAllStringSubmatchIndex(s, -1) {
		if strings.HasPrefix(s[m[0]:], gorillaMarker) {
			continue // Gorilla's call marker (rule_round18.go), no here-document
		}
		word := s[m[2]:m[3]]
		nl := strings.IndexByte(s[m[1]:], '\n')
		if nl < 0 {
			continue
		}
		body := m[1] + nl + 1
		end := len(s)
		for p := body; p < len(s); {
			e := strings.IndexByte(s[p:], '\n')
			line := s[p:]
			if e >= 0 {
				line = s[p : p+e]
			}
			if strings.TrimSpace(line) == word {
				end = p + len(line)
				break
			}
			if e < 0 {
				break
			}
			p += e + 1
		}
		out = append(out, region{m[0], end})
	}
	return out
}
