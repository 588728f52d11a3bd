package ask

import (
	"encoding/json"
	"strings"

	"github.com/firebase/genkit/go/ai"
)

// transcript is a conversation as an asked agent reads it: `User:` and
// `Assistant:` paragraphs and one `Tool call:` line per call. Tool outputs
// and the system prompt are left out (they are long, and the outputs are
// this agent's business). Over max characters, the oldest part goes: the
// most recent is what the task is about.
func transcript(history []*ai.Message, max int) string {
	var parts []string
	for _, m := range history {
		switch m.Role {
		case ai.RoleUser:
			if t := text(m); t != "" {
				parts = append(parts, "User: "+t)
			}
		case ai.RoleModel:
			if t := text(m); t != "" {
				parts = append(parts, "Assistant: "+t)
			}
			for _, p := range m.Content {
				if p.IsToolRequest() && p.ToolRequest != nil {
					parts = append(parts, "Tool call: "+p.ToolRequest.Name+" "+oneLine(p.ToolRequest.Input))
				}
			}
		}
	}
	s := strings.Join(parts, "\n")
	if max <= 0 {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	const cut = "[… the start of the conversation is left out]\n"
	keep := max - len([]rune(cut))
	if keep < 0 {
		keep = 0
	}
	rest := string(r[len(r)-keep:])
	// Start at a line: half a line reads as nonsense.
	if i := strings.IndexByte(rest, '\n'); i >= 0 && i < len(rest)-1 {
		rest = rest[i+1:]
	}
	return cut + rest
}

func text(m *ai.Message) string {
	var b strings.Builder
	for _, p := range m.Content {
		if p.IsText() {
			b.WriteString(p.Text)
		}
	}
	return strings.TrimSpace(b.String())
}

// oneLine is a call's arguments on one line.
func oneLine(input any) string {
	var s string
	switch v := input.(type) {
	case json.RawMessage:
		s = string(v)
	case string:
		s = v
	default:
		b, _ := json.Marshal(v)
		s = string(b)
	}
	return strings.Join(strings.Fields(s), " ")
}
