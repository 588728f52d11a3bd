package toolcall

import "testing"

// glm_key_value_body: GLM 4.7's "NAME key=value" body inside a closed
// <tool_call> on its own line runs when every word is a declared
// parameter; anything looser stays text.
func TestRuleGLMKeyValueBody(t *testing.T) {
	checkCalls(t, "one pair", recoverText(t, "<tool_call>read_file path=go.mod</tool_call>"), call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "shell-quoted value", recoverText(t, `<tool_call>bash command="grep -rn 'a b' ."</tool_call>`), call{"bash", `{"command":"grep -rn 'a b' ."}`})
	checkCalls(t, "two pairs", recoverText(t, `<tool_call>write_file path=a.txt content='hi there'</tool_call>`), call{"write_file", `{"path":"a.txt","content":"hi there"}`})
	checkCalls(t, "after a think block", recoverText(t, "<think>read it</think><tool_call>read_file path=main.go</tool_call>"), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "after a line of prose", recoverText(t, "Reading the module file.\n<tool_call>read_file path=go.mod</tool_call>"), call{"read_file", `{"path":"go.mod"}`})
	// Near misses.
	checkCalls(t, "near miss: quoted inside a sentence", recoverText(t, "GLM sometimes writes <tool_call>read_file path=go.mod</tool_call> instead of pairs."))
	checkCalls(t, "near miss: text after the closer on its line", recoverText(t, "<tool_call>read_file path=go.mod</tool_call> is the fallback form."))
	checkCalls(t, "near miss: a fenced example", recoverText(t, "The fallback:\n\n```\n<tool_call>read_file path=go.mod</tool_call>\n```\n"))
	checkCalls(t, "near miss: inline code", recoverText(t, "The fallback is `<tool_call>read_file path=go.mod</tool_call>`."))
	checkCalls(t, "near miss: an undeclared tool", recoverText(t, "<tool_call>get_weather city=Paris</tool_call>"))
	checkCalls(t, "near miss: an undeclared parameter", recoverText(t, "<tool_call>read_file file=go.mod</tool_call>"))
	checkCalls(t, "near miss: a word without =", recoverText(t, "<tool_call>read_file the path=go.mod</tool_call>"))
	checkCalls(t, "near miss: an unclosed quote", recoverText(t, `<tool_call>bash command="ls -la</tool_call>`))
	checkCalls(t, "the closer eaten at the end of the message", recoverText(t, "<tool_call>read_file path=go.mod\n"), call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "near miss: a block cut inside a quote", recoverText(t, `<tool_call>bash command="ls -l`))
	checkCalls(t, "near miss: an unclosed block under more lines", recoverText(t, "<tool_call>read_file path=go.mod\nand then I will look at it"))
	checkCalls(t, "near miss: a file being written that holds it",
		recoverCall(t, "write_file", `{"path": "notes.md", "content": "<tool_call>bash command=ls</tool_call>\n"}`),
		call{"write_file", `{"path":"notes.md","content":"<tool_call>bash command=ls</tool_call>\n"}`})
}

// longcat_arg_pairs: LongCat's GLM-like pairs with its own tag names.
func TestRuleLongcatArgPairs(t *testing.T) {
	checkCalls(t, "one pair", recoverText(t, "<longcat_tool_call>read_file<longcat_arg_key>path</longcat_arg_key>\n<longcat_arg_value>a.go</longcat_arg_value></longcat_tool_call>"),
		call{"read_file", `{"path":"a.go"}`})
	checkCalls(t, "two pairs", recoverText(t, "<longcat_tool_call>write_file<longcat_arg_key>path</longcat_arg_key><longcat_arg_value>x.txt</longcat_arg_value><longcat_arg_key>content</longcat_arg_key><longcat_arg_value>hi</longcat_arg_value></longcat_tool_call>"),
		call{"write_file", `{"path":"x.txt","content":"hi"}`})
	// Near misses.
	checkCalls(t, "near miss: an undeclared tool", recoverText(t, "<longcat_tool_call>get_weather<longcat_arg_key>city</longcat_arg_key><longcat_arg_value>Paris</longcat_arg_value></longcat_tool_call>"))
	checkCalls(t, "near miss: a fenced example", recoverText(t, "LongCat writes:\n\n```\n<longcat_tool_call>read_file<longcat_arg_key>path</longcat_arg_key><longcat_arg_value>a.go</longcat_arg_value></longcat_tool_call>\n```\n"))
	checkCalls(t, "near miss: prose inside the body", recoverText(t, "<longcat_tool_call>read_file<longcat_arg_key>path</longcat_arg_key><longcat_arg_value>a.go</longcat_arg_value> and then more words</longcat_tool_call>"))
	checkCalls(t, "near miss: a file being written that holds it",
		recoverCall(t, "write_file", `{"path": "f.txt", "content": "<longcat_tool_call>bash<longcat_arg_key>command</longcat_arg_key><longcat_arg_value>ls</longcat_arg_value></longcat_tool_call>"}`),
		call{"write_file", `{"path":"f.txt","content":"<longcat_tool_call>bash<longcat_arg_key>command</longcat_arg_key><longcat_arg_value>ls</longcat_arg_value></longcat_tool_call>"}`})
	res := recoverText(t, "<longcat_tool_call>bash<longcat_arg_key>command</longcat_arg_key><longcat_arg_value>echo \"hi")
	checkCalls(t, "near miss: a cut command", res)
	if len(res.Rejections) == 0 {
		t.Errorf("a cut LongCat command: no rejection")
	}
}

// cut_shell_command: a GLM command value cut by the end of the text with an
// open quote is answered as cut off; a whole one still runs.
func TestRuleCutShellCommand(t *testing.T) {
	checkRejected(t, "open double quote", recoverText(t, `<tool_call>bash<arg_key>command</arg_key><arg_value>grep -rn "San Francisco`), true, "")
	checkRejected(t, "open single quote", recoverText(t, `<tool_call>bash<arg_key>command</arg_key><arg_value>echo 'half`), true, "")
	// Near misses: whole commands at the end of the message still run.
	checkCalls(t, "near miss: quotes closed", recoverText(t, `<tool_call>bash<arg_key>command</arg_key><arg_value>grep -rn "San Francisco" .`), call{"bash", `{"command":"grep -rn \"San Francisco\" ."}`})
	checkCalls(t, "near miss: an apostrophe in a comment", recoverText(t, "<tool_call>bash<arg_key>command</arg_key><arg_value>ls # don't"), call{"bash", `{"command":"ls # don't"}`})
	checkCalls(t, "near miss: an escaped quote", recoverText(t, `<tool_call>bash<arg_key>command</arg_key><arg_value>echo \"x`), call{"bash", `{"command":"echo \\\"x"}`})
	checkCalls(t, "near miss: a closed value with an open quote is the model's", recoverText(t, `<tool_call>bash<arg_key>command</arg_key><arg_value>echo "x</arg_value></tool_call>`), call{"bash", `{"command":"echo \"x"}`})
	checkCalls(t, "near miss: not the command argument", recoverText(t, `<tool_call>write_file<arg_key>path</arg_key><arg_value>a.txt</arg_value><arg_key>content</arg_key><arg_value>it's "quoted`), call{"write_file", `{"path":"a.txt","content":"it's \"quoted"}`})
	// The same in the XML forms' <parameter> (Qwen3-Coder, MiniMax).
	checkRejected(t, "Qwen3-Coder, open quote", recoverText(t, "<tool_call>\n<function=bash>\n<parameter=command>\ngrep -rn \"foo src/"), true, "")
	checkRejected(t, "MiniMax invoke, open quote", recoverText(t, "<invoke name=\"bash\">\n<parameter name=\"command\">rm -rf \"build"), true, "")
	checkCalls(t, "near miss: Qwen3-Coder, quotes closed", recoverText(t, "<function=bash>\n<parameter=command>\ngrep -rn foo src/"), call{"bash", `{"command":"grep -rn foo src/"}`})
	// Inside its wrapper, no closer at all is a cut (cut_wrapped_value,
	// round 17p), quotes closed or not.
	checkRejected(t, "Qwen3-Coder in its wrapper, no closer", recoverText(t, "<tool_call>\n<function=bash>\n<parameter=command>\ngrep -rn foo src/"), true, "")
	checkCalls(t, "near miss: Qwen3-Coder, a closed value with an open quote", recoverText(t, "<tool_call>\n<function=bash>\n<parameter=command>\necho 'a b\n</parameter>\n</function>\n</tool_call>"), call{"bash", `{"command":"echo 'a b"}`})
}

func TestShellWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{`a=1 b="x y"`, []string{"a=1", "b=x y"}, true},
		{`a='it'\''s'`, []string{"a=it's"}, true},
		{`a="q\"q"`, []string{`a=q"q`}, true},
		{`a="open`, nil, false},
		{`a=\`, nil, false},
	} {
		got, ok := shellWords(c.in)
		if ok != c.ok || len(got) != len(c.want) {
			t.Errorf("shellWords(%q) = %q, %v", c.in, got, ok)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("shellWords(%q)[%d] = %q, want %q", c.in, i, got[i], c.want[i])
			}
		}
	}
}
