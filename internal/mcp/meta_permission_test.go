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
// however the model spells the tool in the mcp tool's arguments, and only
// for the tool the call runs.
func TestMetaToolKeepsAskRules(t *testing.T) {
	s := fakeServers{
		{Server: "fs", Name: "write_file", InputSchema: `{"type":"object"}`},
		{Server: "fs", Name: "read_file", InputSchema: `{"type":"object"}`},
	}
	ask := func(server, tool string) bool { return server == "fs" && tool == "write_file" }
	got := Declarations(s, s, DeclareOptions{Budget: 1, Ask: ask})
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
		// A call that finds no tool runs nothing: the model is told
		// what exists, nobody is asked.
		`{"action":"call","server":"nosuch","tool":"x","arguments":{}}`:  false,
		`{"action":"call","server":"fs","tool":"nosuch","arguments":{}}`: false,
		`{"action":"call","tool":"nosuch/write_file","arguments":{}}`:    false,
	} {
		if got := meta.AsksUnderYolo(json.RawMessage(args)); got != want {
			t.Errorf("%s: asks under yolo %v, want %v", args, got, want)
		}
	}
}
