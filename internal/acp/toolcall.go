package acp

import (
	"encoding/json"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/termsafe"
	"mm/internal/textcut"
	"mm/internal/tools"
)

// maxTitle is how many characters of a call a title keeps: an editor
// shows it on one line, and the whole call is in rawInput.
const maxTitle = 120

// title is the line an editor shows for a call: what it does, in words a
// person reads ("Run `go test ./...`", "Edit main.go (2 edits)"). The
// model wrote the arguments: the title is one line, without control
// characters, and cut, so a call can only ever describe itself.
func title(c *agent.Call) string {
	s := oneLine(c.Summary)
	switch c.Name {
	case "bash":
		s = "Run `" + s + "`"
	case "read_file":
		s = "Read " + s
	case "read_skill":
		s = "Read skill " + s
	case "write_file":
		s = "Write " + s
	case "edit_file":
		s = "Edit " + s
	case "fetch_content":
		s = "Fetch " + s
	case "lsp":
		s = "lsp " + s
	default:
		name := c.Name
		if c.MCP != "" {
			name = c.MCP // an MCP tool: server/tool
		}
		s = oneLine(name) + " " + s
	}
	if cut := textcut.FirstRunes(s, maxTitle); cut != s {
		s = cut + "…"
	}
	return s
}

// oneLine is s sanitised, its runs of white space (line breaks included)
// made one blank.
func oneLine(s string) string {
	return strings.Join(strings.Fields(termsafe.Text(s)), " ")
}

// kind is the ACP kind of a call (the reference's: bash execute,
// read_file and read_skill read, write_file and edit_file edit, lsp read
// or edit for rename, fetch_content fetch; plan think: it changes no
// file).
func kind(c *agent.Call) acpsdk.ToolKind {
	switch c.Kind {
	case tools.KindExecute, tools.KindRead, tools.KindEdit, tools.KindFetch, tools.KindThink:
		return acpsdk.ToolKind(c.Kind)
	}
	return acpsdk.ToolKindOther
}

// locations are the files a call touches, absolute, as the editor
// follows them.
func locations(c *agent.Call) []acpsdk.ToolCallLocation {
	var out []acpsdk.ToolCallLocation
	for _, p := range c.Paths {
		out = append(out, acpsdk.ToolCallLocation{Path: termsafe.Text(p)})
	}
	return out
}

// rawInput is the call's arguments as JSON, or as a string when the
// model's text is not JSON.
func rawInput(c *agent.Call) any {
	if json.Valid(c.Args) {
		return json.RawMessage(c.Args)
	}
	return string(c.Args)
}

// failed reports whether a call that ran must show as failed: refused,
// an error, not run, or a file change that was not written.
func failed(c *agent.Call) bool {
	if c.Failed || c.Refused || (c.Diff != nil && !c.Diff.Applied) {
		return true
	}
	return failedOutput(c.Output)
}

// failedOutput is failed as far as a call's output tells (a replayed
// call has nothing else): agent.FailedOutput, shared with the window.
func failedOutput(out string) bool { return agent.FailedOutput(out) }

// textContent is a text shown under a call.
func textContent(s string) acpsdk.ToolCallContent {
	return acpsdk.ToolContent(acpsdk.TextBlock(termsafe.Text(s)))
}

// diffContent is a file change as the editor's diff view shows it; a new
// file has no old text. The texts are the file's as written, not
// sanitised: they are what the editor's buffer holds.
func diffContent(d *tools.Diff) acpsdk.ToolCallContent {
	if !d.Existed {
		return acpsdk.ToolDiffContent(termsafe.Text(d.Path), d.New)
	}
	return acpsdk.ToolDiffContent(termsafe.Text(d.Path), d.New, d.Old)
}

// startUpdate is the tool_call that announces a call, known to the
// editor as id (live.toolCallID).
func startUpdate(id acpsdk.ToolCallId, c *agent.Call, status acpsdk.ToolCallStatus) acpsdk.SessionUpdate {
	return acpsdk.SessionUpdate{ToolCall: &acpsdk.SessionUpdateToolCall{
		SessionUpdate: "tool_call",
		ToolCallId:    id,
		Title:         title(c),
		Kind:          kind(c),
		Status:        status,
		Locations:     locations(c),
		RawInput:      rawInput(c),
	}}
}

// endUpdate is the tool_call_update that closes a call: its status and
// its output, and the change written for a file tool.
func endUpdate(id acpsdk.ToolCallId, c *agent.Call, ok bool) acpsdk.SessionUpdate {
	status := acpsdk.ToolCallStatusCompleted
	if !ok {
		status = acpsdk.ToolCallStatusFailed
	}
	content := []acpsdk.ToolCallContent{textContent(c.Output)}
	if c.Diff != nil && c.Diff.Applied {
		content = append(content, diffContent(c.Diff))
	}
	return acpsdk.SessionUpdate{ToolCallUpdate: &acpsdk.SessionToolCallUpdate{
		SessionUpdate: "tool_call_update",
		ToolCallId:    id,
		Status:        &status,
		Content:       content,
	}}
}

// statusUpdate moves a call to status.
func statusUpdate(id acpsdk.ToolCallId, status acpsdk.ToolCallStatus) acpsdk.SessionUpdate {
	return acpsdk.SessionUpdate{ToolCallUpdate: &acpsdk.SessionToolCallUpdate{
		SessionUpdate: "tool_call_update",
		ToolCallId:    id,
		Status:        &status,
	}}
}
