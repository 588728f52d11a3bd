package tui

// Replay: a conversation resumed (-continue, -resume ID, /resume) is drawn
// again in the window, as a user coming back to it expects to see it:
// the questions, the answers under their label, one line per tool call.
// The line mode prints one `resumed session …` line only; a window that
// opens on an empty screen would hide what the model still remembers.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
)

// replayMax is how many messages are drawn at most: an old conversation
// of thousands of messages must not cost the window's first frames. The
// earlier ones are counted in one line.
const replayMax = 200

// replay draws the history h (the agent's, just restored).
func (m *model) replay(h []*ai.Message) {
	skipped := 0
	if len(h) > replayMax {
		skipped, h = len(h)-replayMax, h[len(h)-replayMax:]
	}
	if skipped > 0 {
		m.addBlock(blockDim, fmt.Sprintf("(%d earlier message(s) not shown)", skipped))
	}
	for _, msg := range h {
		if msg == nil {
			continue
		}
		switch msg.Role {
		case ai.RoleUser:
			if t := messageText(msg); t != "" {
				m.addBlock(blockUser, t)
			}
		case ai.RoleModel:
			labelled := false
			for _, p := range msg.Content {
				switch {
				case p.IsText() && strings.TrimSpace(p.Text) != "":
					if !labelled {
						m.addBlock(blockLabel, "‣ "+m.name)
						labelled = true
					}
					m.addBlock(blockText, strings.TrimSpace(p.Text))
				case p.IsToolRequest() && p.ToolRequest != nil:
					m.addBlock(blockDim, "‣ "+p.ToolRequest.Name+" "+replayArgs(p.ToolRequest.Input))
				}
			}
		}
	}
	m.addBlock(blockDim, "── the conversation goes on here ──")
}

// messageText is a message's text parts, joined.
func messageText(msg *ai.Message) string {
	var parts []string
	for _, p := range msg.Content {
		if p.IsText() && strings.TrimSpace(p.Text) != "" {
			parts = append(parts, strings.TrimSpace(p.Text))
		}
	}
	return strings.Join(parts, "\n")
}

// replayArgs is a call's arguments on one short line.
func replayArgs(in any) string {
	b, err := json.Marshal(in)
	if err != nil || string(b) == "null" {
		return ""
	}
	s := strings.Join(strings.Fields(string(b)), " ")
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}
