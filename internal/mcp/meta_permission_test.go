package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"mm/internal/tools"
)

type fakeServers []tools.MCPTool

func (f fakeServers) Tools() []tools.MCPTool { return f }
func (f fakeServers) Call(context.Context, string, string, json.RawMessage) (string, bool) {
	return "ok", false
}

// In the budget mode a rule of mcp.permissions (fs/write_file: ask) holds
// however the model spells the tool in the mcp tool's arguments.
func TestMetaToolKeepsAskRules(t *testing.T) {
	s := fakeServers{
		{Server: "fs", Name: "write_file", InputSchema: `{"type":"object"}`},
		{Server: "fs", Name: "read_file", InputSchema: `{"type":"object"}`},
	}
	ask := func(server, tool string) bool { return server == "fs" && tool == "write_file" }
	got := Declarations(s, s, DeclareOptions{Budget: 1, Ask: ask, AnyAsk: true})
	if len(got) != 1 || got[0].Name != "mcp" {
		t.Fatalf("budget 1 declares %d tools", len(got))
	}
	meta := got[0]
	for args, want := range map[string]bool{
		`{"action":"call","server":"fs","tool":"write_file","arguments":{}}`: true,
		`{"action":"call","server":"fs","tool":"read_file","arguments":{}}`:  false,
		`{"action":"call","tool":"write_file","arguments":{}}`:               true,
		`{"action":"call","tool":"fs/write_file","arguments":{}}`:            true,
		`{"action":"call","server":"FS","tool":"Write_File","arguments":{}}`: true,
		`{"action":"list"}`: false,
	} {
		if got := meta.AsksUnderYolo(json.RawMessage(args)); got != want {
			t.Errorf("%s: asks under yolo %v, want %v", args, got, want)
		}
	}
}
