package ask

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
)

// A permission request read after two updates waits until both were
// handled (the SDK handles requests at once, notifications in a queue).
func TestOrderKeepsRequestsBehindUpdates(t *testing.T) {
	o := newOrder()
	o.read("session/update", nil)
	o.read("session/update", nil)
	o.read("session/request_permission", json.RawMessage(`{"sessionId":"s","toolCall":{"toolCallId":"c1"}}`))
	released := make(chan struct{})
	go func() {
		o.wait(permissionKey("s", "c1"))
		close(released)
	}()
	o.done()
	select {
	case <-released:
		t.Fatal("the request went ahead of an update")
	case <-time.After(50 * time.Millisecond):
	}
	o.done()
	select {
	case <-released:
	case <-time.After(orderWait / 2):
		t.Fatal("the request still waits once the updates are handled")
	}
	// A request with no barrier does not wait.
	o.wait(permissionKey("s", "other"))
}

// The transcript: questions, answers, one line per call, no outputs,
// the most recent kept.
func TestTranscript(t *testing.T) {
	h := []*ai.Message{
		ai.NewSystemTextMessage("system prompt"),
		ai.NewUserTextMessage("list the files"),
		{Role: ai.RoleModel, Content: []*ai.Part{ai.NewTextPart("Looking."), ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Input: json.RawMessage(`{"command": "ls\n-la"}`)})}},
		ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Output: "SECRET"})),
		ai.NewModelTextMessage("Two files."),
	}
	got := transcript(h, 0)
	want := "User: list the files\nAssistant: Looking.\nTool call: bash {\"command\": \"ls\\n-la\"}\nAssistant: Two files."
	if got != want {
		t.Errorf("transcript:\n%s\nwant:\n%s", got, want)
	}
	cut := transcript(h, 100)
	if !strings.HasPrefix(cut, "[… the start of the conversation is left out]\n") || !strings.HasSuffix(cut, "Assistant: Two files.") || strings.Contains(cut, "User:") {
		t.Errorf("cut transcript:\n%s", cut)
	}
}
