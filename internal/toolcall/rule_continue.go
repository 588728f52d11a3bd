package toolcall

import "strings"

// continueToolBlocks is rule "Continue's tool code block": Continue's
// system-message tools (continuedev/continue, core/tools/systemMessageTools)
// ask a model without native tool calling for a fenced block
//
//	```tool
//	TOOL_NAME: read_file
//	BEGIN_ARG: filepath
//	src/main.go
//	END_ARG
//	```
//
// one BEGIN_ARG/END_ARG pair per argument, the value the lines between.
// A model trained on that prompt writes it to mm too. Each block must open
// its line, name its tool on its first line and hold nothing but argument
// pairs; the lead-in and the sentence after it are read as for any call,
// and a lead-in that names TOOL_NAME or BEGIN_ARG explains the syntax. It returns the calls and the
// text without the blocks.
func continueToolBlocks(content string, ts *toolset) ([]candidate, string, bool) {
	const open = "```tool\nTOOL_NAME:"
	if !strings.Contains(content, open) {
		return nil, "", false
	}
	var cands []candidate
	var text strings.Builder
	rest, at := content, 0
	for {
		i := strings.Index(rest, open)
		if i < 0 {
			break
		}
		if i > 0 && rest[i-1] != '\n' {
			return nil, "", false
		}
		body := rest[i+len("```tool\n"):]
		end := strings.Index(body, "\n```")
		blockEnd := i + len("```tool\n") + end + len("\n```")
		if end < 0 {
			end, blockEnd = len(body), len(rest)
		}
		c, ok := continueBlock(body[:end])
		if !ok {
			return nil, "", false
		}
		pos := at + i
		before := sentenceBefore(content, at, pos)
		if notIntended(before, sentenceAfter(content, at+blockEnd, len(content))) {
			return nil, "", false
		}
		// A lead-in that names the block's own keywords explains the
		// syntax ("The tool is called with TOOL_NAME: read_file, then the
		// argument block:"): the block is its example.
		if strings.Contains(before, "TOOL_NAME") || strings.Contains(before, "BEGIN_ARG") {
			return nil, "", false
		}
		cands = append(cands, c)
		text.WriteString(rest[:i])
		rest, at = rest[blockEnd:], at+blockEnd
	}
	text.WriteString(rest)
	return cands, strings.TrimSpace(text.String()), len(cands) > 0
}

// continueBlock reads one block's TOOL_NAME line and argument pairs.
func continueBlock(body string) (candidate, bool) {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	name := strings.TrimSpace(strings.TrimPrefix(lines[0], "TOOL_NAME:"))
	if !identifier(name) {
		return candidate{}, false
	}
	args := map[string]any{}
	for k := 1; k < len(lines); {
		l := strings.TrimSpace(lines[k])
		if l == "" {
			k++
			continue
		}
		if !strings.HasPrefix(l, "BEGIN_ARG:") {
			return candidate{}, false
		}
		key := strings.TrimSpace(strings.TrimPrefix(l, "BEGIN_ARG:"))
		e := k + 1
		for e < len(lines) && strings.TrimSpace(lines[e]) != "END_ARG" {
			e++
		}
		if key == "" || e >= len(lines) {
			return candidate{}, false
		}
		if _, dup := args[key]; !dup {
			args[key] = strings.Join(lines[k+1:e], "\n")
		}
		k = e + 1
	}
	return candidate{name: name, args: args, xml: true, fromText: true, format: "continue tool block", notes: []string{"Continue's tool code block"}}, true
}
