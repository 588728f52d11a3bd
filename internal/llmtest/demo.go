package llmtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// DemoDelay is the pause between the demo model's pieces: slow enough to
// watch the reasoning and the text arrive, fast enough not to bore.
const DemoDelay = 15 * time.Millisecond

// demoLines is how many lines of a tool result the demo summary quotes.
const demoLines = 5

var backquoted = regexp.MustCompile("`([^`]+)`")

// DemoTurn is the rule-based demo "model": it reads the request and
// answers like a very small coding model would.
//
//   - The last message is a tool result: a text summary, "The command
//     printed:" with its first lines.
//   - The last user message has a command in backquotes (run `ls -la`) and
//     a "bash" tool is declared: a bash call with that command.
//   - Otherwise a short text that echoes the question and says what the
//     demo can do.
//
// Every answer has some reasoning first, so a thinking display can be seen,
// and is streamed with DemoDelay between pieces.
func DemoTurn(req *Request) Turn {
	t := Turn{ChunkDelay: DemoDelay}
	msgs, _ := req.JSON["messages"].([]any)
	var last map[string]any
	if len(msgs) > 0 {
		last, _ = msgs[len(msgs)-1].(map[string]any)
	}
	if role, _ := last["role"].(string); role == "tool" {
		out := strings.TrimRight(messageText(last), "\n")
		if strings.TrimSpace(out) == "" {
			t.Reasoning = "The tool returned nothing. I will say so."
			t.Text = "The command printed nothing."
			return t
		}
		lines := strings.Split(out, "\n")
		t.Reasoning = fmt.Sprintf("The tool returned %d lines. I will quote the first ones.", len(lines))
		shown := lines[:min(len(lines), demoLines)]
		t.Text = "The command printed:\n" + strings.Join(shown, "\n")
		if more := len(lines) - len(shown); more > 0 {
			t.Text += fmt.Sprintf("\n(and %d more lines)", more)
		}
		return t
	}

	question := ""
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if role, _ := m["role"].(string); role == "user" {
			question = strings.TrimSpace(messageText(m))
			break
		}
	}
	if m := backquoted.FindStringSubmatch(question); m != nil {
		command := m[1]
		param, ok := bashParam(req.JSON)
		if ok {
			t.Reasoning = fmt.Sprintf("The user wants me to run `%s`. I will call the bash tool.", command)
			t.Text = fmt.Sprintf("Running `%s`.", command)
			args, _ := json.Marshal(map[string]string{param: command})
			t.ToolCalls = []ToolCall{{Name: "bash", Arguments: string(args)}}
			return t
		}
		t.Reasoning = "The user wants a command run, but I have no bash tool."
		t.Text = fmt.Sprintf("I would run `%s`, but no bash tool was declared.", command)
		return t
	}
	if question == "" {
		t.Reasoning = "There is no question. I will greet the user."
		t.Text = "Hello! I am the llmtest demo model."
		return t
	}
	t.Reasoning = "The user did not give a command in backquotes, so I will just answer."
	t.Text = fmt.Sprintf("You said: %q. I am the llmtest demo model: put a command in backquotes, for example run `ls -la`, and I will call the bash tool.", shorten(question, 200))
	return t
}

// messageText is a message's content as text: a string, or the text parts
// of an array of parts.
func messageText(m map[string]any) string {
	switch c := m["content"].(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			part, _ := p.(map[string]any)
			if s, ok := part["text"].(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// bashParam finds the declared bash tool and the name of its command
// parameter ("command" when the schema does not say otherwise).
func bashParam(body map[string]any) (string, bool) {
	tools, _ := body["tools"].([]any)
	for _, t := range tools {
		tool, _ := t.(map[string]any)
		fn, _ := tool["function"].(map[string]any)
		if name, _ := fn["name"].(string); name != "bash" {
			continue
		}
		params, _ := fn["parameters"].(map[string]any)
		props, _ := params["properties"].(map[string]any)
		if _, ok := props["command"]; ok || len(props) == 0 {
			return "command", true
		}
		if req, _ := params["required"].([]any); len(req) > 0 {
			if s, ok := req[0].(string); ok {
				return s, true
			}
		}
		return "command", true
	}
	return "", false
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
