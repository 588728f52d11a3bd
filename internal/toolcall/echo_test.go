package toolcall

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// What the model wrote is quoted back cut: names and keys to 64
// characters, excerpts to 200, on character boundaries, ending with "…".
func TestEcho(t *testing.T) {
	if echoName("bash") != "bash" || echoName(strings.Repeat("a", 64)) != strings.Repeat("a", 64) {
		t.Error("a short name was changed")
	}
	if got := echoName(strings.Repeat("a", 65)); got != strings.Repeat("a", 64)+"…" {
		t.Errorf("65 characters: %q", got)
	}
	// 64 two-byte characters are 128 bytes: kept whole.
	if s := strings.Repeat("é", 64); echoName(s) != s {
		t.Errorf("64 characters of two bytes were cut: %q", echoName(s))
	}
	if got := echoName(strings.Repeat("é😀", 1000)); !utf8.ValidString(got) || utf8.RuneCountInString(got) != 65 || !strings.HasSuffix(got, "…") {
		t.Errorf("multi-byte name: %q", got)
	}
	if got := echoText(strings.Repeat("x", 1000)); utf8.RuneCountInString(got) != 201 {
		t.Errorf("excerpt: %d characters", utf8.RuneCountInString(got))
	}
}

// A runaway name or key, however the model sends it, comes back cut in
// every correction: the reason stays short and valid UTF-8.
func TestCorrectionsDoNotEchoHugeNames(t *testing.T) {
	huge := strings.Repeat("x", 200<<10)
	hugeUTF8 := strings.Repeat("é", 100<<10)
	cases := []struct {
		name string
		in   Input
		want string // a prefix of the reason
	}{
		{"unknown tool", Input{ToolCalls: []RawCall{{Name: huge, Arguments: `{}`}}},
			"there is no tool named " + strings.Repeat("x", 64) + "…; the tools are: bash, "},
		{"unknown tool, UTF-8", Input{ToolCalls: []RawCall{{Name: hugeUTF8, Arguments: `{}`}}},
			"there is no tool named " + strings.Repeat("é", 64) + "…; the tools are: bash, "},
		{"unknown tool in the text", Input{Content: `<tool_call>{"name": "` + huge + `", "arguments": {"command": "ls"}}</tool_call>`},
			"there is no tool named " + strings.Repeat("x", 64) + "…; the tools are: bash, "},
		{"cut by the token limit", Input{ToolCalls: []RawCall{{Name: huge, Arguments: `{"command": "ls`}}, FinishReason: "length"},
			"your " + strings.Repeat("x", 64) + "… call was cut off by the token limit"},
		{"never closes", Input{ToolCalls: []RawCall{{Name: huge, Arguments: `{"command": "ls`}}},
			"your " + strings.Repeat("x", 64) + "… call was cut off before its arguments were complete"},
		{"undelimited value", Input{ToolCalls: []RawCall{{Name: "write_file", Arguments: "{" + huge + ": one\ntwo\n}"}}},
			"write_file: the value of " + strings.Repeat("x", 64) + "… is not quoted"},
		{"junk after a value", Input{ToolCalls: []RawCall{{Name: "bash", Arguments: `{"` + huge + `": "ls" x "y": 1}`}}},
			"the arguments of your bash call could not be read (an unexpected character 'x' after the value of " + strings.Repeat("x", 64) + "…)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.in.Tools = mmTools(t)
			res := Recover(c.in)
			if len(res.Calls) != 0 || len(res.Rejections) != 1 {
				t.Fatalf("calls %d, rejections %+v", len(res.Calls), len(res.Rejections))
			}
			r := res.Rejections[0]
			if !strings.HasPrefix(r.Reason, c.want) {
				t.Errorf("reason (%d bytes) starts %q\nwant %q", len(r.Reason), r.Reason[:min(len(r.Reason), 300)], c.want)
			}
			if len(r.Reason) > 1000 || !utf8.ValidString(r.Reason) {
				t.Errorf("reason of %d bytes (valid UTF-8: %v)", len(r.Reason), utf8.ValidString(r.Reason))
			}
			if utf8.RuneCountInString(r.Name) > 65 || !utf8.ValidString(r.Name) {
				t.Errorf("Rejection.Name of %d bytes", len(r.Name))
			}
		})
	}
	// A repaired call lists its repairs with the model's keys cut.
	res := Recover(Input{Tools: mmTools(t), ToolCalls: []RawCall{{Name: "bash", Arguments: `{"command": "ls", "` + huge + `": 1}`}}})
	if len(res.Calls) != 1 {
		t.Fatalf("%+v", res)
	}
	for _, r := range res.Calls[0].Repairs {
		if len(r) > 300 {
			t.Errorf("a repair of %d bytes: %q…", len(r), r[:100])
		}
	}
}
