package agent

import (
	"strings"
	"testing"
)

// stream feeds text to a guard in pieces of n bytes and returns what was
// shown while streaming; then it gives the guard the whole text, as
// generate does once the reply has ended.
func stream(g *textGuard, text string, n int) string {
	var shown strings.Builder
	for i := 0; i < len(text); i += n {
		shown.WriteString(g.add(text[i:min(i+n, len(text))]))
	}
	g.complete(text)
	return shown.String()
}

func TestGuardPassesProse(t *testing.T) {
	for _, text := range []string{
		"Plain answer with a < b and x[1] and `code` and {braces}.",
		"The list: [1, 2, 3]; the map {\"a\": 1}; see <div>.",
	} {
		for _, n := range []int{1, 3, 50} {
			g := &textGuard{}
			shown := stream(g, text, n)
			shown += g.finish(text)
			if shown != text {
				t.Errorf("pieces of %d: shown %q, want %q", n, shown, text)
			}
		}
	}
}

func TestGuardHoldsCallMarkup(t *testing.T) {
	for _, tc := range []struct{ raw, clean, during, after string }{
		{"I will run it: <tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>", "I will run it:", "I will run it:", ""},
		{"[TOOL_CALLS]bash[ARGS]{\"command\":\"ls\"}", "", "", ""},
		{"Listing.\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}", "Listing.", "Listing.", ""},
		{"Run: <tool_call>{\"name\":\"bash\",\"arguments\":{\"command\":\"ls\"}}</tool_call> then I check.", "Run: then I check.", "Run:", " then I check."},
		// Formats read since (issue #25): FunctionGemma, MiniMax-M2 and M3,
		// Seed-OSS, Command R, Apertus, the [TOOL_CALL] block.
		{"Let me check.<start_function_call>call:read_file{path:<escape>a.txt<escape>}<end_function_call>", "Let me check.", "Let me check.", ""},
		{"Reading.\n<minimax:tool_call>\n<invoke name=\"read_file\">\n<parameter name=\"path\">a.txt</parameter>\n</invoke>\n</minimax:tool_call>", "Reading.", "Reading.", ""},
		{"Reading.]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"read_file\">", "Reading.", "Reading.", ""},
		{"Reading.\n<seed:tool_call>\n<function=read_file>\n<parameter=path>a.txt</parameter>\n</function>\n</seed:tool_call>", "Reading.", "Reading.", ""},
		{"<|START_ACTION|>[{\"tool_name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}]<|END_ACTION|>", "", "", ""},
		{"<|tools_prefix|>[{\"read_file\": {\"path\": \"go.mod\"}}]<|tools_suffix|>", "", "", ""},
		{"[TOOL_CALL]\n{tool => \"bash\", args => {\n  --command \"ls\"\n}}\n[/TOOL_CALL]", "", "", ""},
		// LangChain's JSON agents' objects (rule_callshapes.go).
		{"Checking.\n{\"action\": \"bash\", \"action_input\": \"ls\"}", "Checking.", "Checking.", ""},
		{"{\"tool\": \"read_file\", \"tool_input\": {\"path\": \"a.go\"}}", "", "", ""},
		{"{\"function\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}", "", "", ""},
		// smolagents' {"tool_name": …} and Cherry Studio's <tool_use> (rule_round9o.go).
		{"Action:\n{\"tool_name\": \"bash\", \"tool_arguments\": {\"command\": \"ls\"}}", "Action:", "Action:", ""},
		{"Reading.\n<tool_use>\n<name>read_file</name>\n<arguments>{\"path\": \"a.go\"}</arguments>\n</tool_use>", "Reading.", "Reading.", ""},
		// Cline's tool-named tags (round 4a's format), held like the others.
		{"I'll read it.\n<read_file>\n<path>go.mod</path>\n</read_file>", "I'll read it.", "I'll read it.", ""},
		{"<execute_command>\n<command>ls</command>\n</execute_command>", "", "", ""},
		// Rounds 15 and 16t: DSML with its bars lost or doubled, Continue's
		// unfenced block, prompt-prix's label.
		{"Reading.\n<DSMLtool_calls><DSMLinvoke name=\"read_file\">", "Reading.", "Reading.", ""},
		{"Reading.\n<｜｜DSML｜｜r=bash>\n<｜｜DSML｜｜m>ls</｜｜DSML｜｜m>", "Reading.", "Reading.", ""},
		{"I'll help.\nTOOL_NAME: bash\nBEGIN_ARG: command\nls\nEND_ARG", "I'll help.", "I'll help.", ""},
		{"**Tool Call:** `bash`\n```json\n{\"command\": \"ls\"}\n```", "", "", ""},
	} {
		for _, n := range []int{1, 4, 1000} {
			g := &textGuard{}
			during := stream(g, tc.raw, n)
			if during != tc.during {
				t.Errorf("%q in pieces of %d: shown while streaming %q, want %q", tc.raw, n, during, tc.during)
			}
			if after := g.finish(tc.clean); after != tc.after {
				t.Errorf("%q: shown after %q, want %q", tc.raw, after, tc.after)
			}
		}
	}
}

// Text that looked like a call but was not one is shown whole at the end.
func TestGuardReleasesFalseAlarm(t *testing.T) {
	raw := "The config has {\"name\": \"demo\", \"port\": 80} in it."
	g := &textGuard{}
	during := stream(g, raw, 2)
	if during != "The config has" {
		t.Errorf("during %q", during)
	}
	if during+g.finish(raw) != raw {
		t.Errorf("not all shown")
	}
}
