package mcp

import (
	"strings"
	"testing"

	"mm/internal/tools"
)

func TestToolName(t *testing.T) {
	cases := map[[2]string]string{
		{"fs", "read_file"}:            "fs_read_file",
		{"ev", "get-sum"}:              "ev_get-sum",
		{"ev", "a.b/c d"}:              "ev_a_b_c_d",
		{"ev", "é"}:                    "ev__",
		{"x", strings.Repeat("t", 80)}: "x_" + strings.Repeat("t", 62),
	}
	for in, want := range cases {
		if got := ToolName(in[0], in[1]); got != want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
}

// Names are unique, within 64 bytes, and never a built-in tool's.
func TestDeclarationsUnique(t *testing.T) {
	long := strings.Repeat("t", 70)
	ts := []tools.MCPTool{
		{Server: "ev", Name: "a.b", InputSchema: `{"type":"object"}`},
		{Server: "ev", Name: "a_b", InputSchema: `{"type":"object"}`},
		{Server: "ev", Name: long + "1", InputSchema: `{"type":"object"}`},
		{Server: "ev", Name: long + "2", InputSchema: `{"type":"object"}`},
		{Server: "x", Name: "bash", InputSchema: `not json`, ReadOnly: true},
	}
	got := Declarations(nil, ts, DeclareOptions{Budget: 1 << 20, Taken: []string{"x_bash"}})
	var names []string
	for _, d := range got {
		names = append(names, d.Name)
		if len(d.Name) > 64 {
			t.Errorf("%q is longer than 64", d.Name)
		}
	}
	want := []string{"ev_a_b", "ev_a_b_2", "ev_" + strings.Repeat("t", 61), "ev_" + strings.Repeat("t", 59) + "_2", "x_bash_2"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("names:\n%v\nwant\n%v", names, want)
	}
	last := got[4]
	if last.SchemaText != `{"type":"object"}` || last.Kind != tools.KindRead || last.MCP != "x/bash" || got[0].Kind != tools.KindOther {
		t.Errorf("last: %+v", last)
	}
}
