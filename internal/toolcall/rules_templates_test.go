package toolcall

import (
	"strings"
	"testing"
)

// One table per rule of rule_templates.go: what the format's parser reads,
// and a near miss that must stay text.

type templateCase struct {
	label, content string
	want           []call // calls that run
	reject         string // when set: nothing runs, a rejection says this
	answer         bool   // when set: nothing runs, no correction (the text is the answer)
}

func runTemplateCases(t *testing.T, cases []templateCase) {
	t.Helper()
	for _, c := range cases {
		res := recoverText(t, c.content)
		switch {
		case c.reject != "":
			checkRejected(t, c.label, res, false, c.reject)
		case c.answer:
			if len(res.Calls) != 0 || len(res.Rejections) != 0 {
				t.Errorf("%s: got calls %v rejections %v, want the text as the answer", c.label, res.Calls, res.Rejections)
			}
			if strings.TrimSpace(res.Text) == "" {
				t.Errorf("%s: the answer text is empty", c.label)
			}
		default:
			checkCalls(t, c.label, res, c.want...)
		}
	}
}

func TestRuleCohereAction(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "action list", content: "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}]<|END_ACTION|>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "Action: fence", content: "Action:\n```json\n[{\"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a.go\"}}]\n```",
			want: []call{{"read_file", `{"path":"a.go"}`}}},
		{label: "thinking opened by the prompt", content: "plan<|END_THINKING|><|START_ACTION|>[{\"tool_name\": \"bash\", \"parameters\": {\"command\": \"date\"}}]<|END_ACTION|>",
			want: []call{{"bash", `{"command":"date"}`}}},
		{label: "unknown tool", content: "<|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"internet_search\", \"parameters\": {\"query\": \"go\"}}]<|END_ACTION|>",
			reject: "internet_search"},
		{label: "near miss: action inside thinking", answer: true,
			content: "<|START_THINKING|>maybe <|START_ACTION|>[{\"tool_name\": \"bash\", \"parameters\": {\"command\": \"make\"}}]<|END_ACTION|><|END_THINKING|>It builds the project."},
		{label: "near miss: tool_name without parameters is data", answer: true,
			content: "The record is {\"tool_name\": \"bash\", \"owner\": \"ops\"}."},
	})
}

func TestRuleApertusNameAsKey(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "one call", content: "<|tools_prefix|>[{\"read_file\": {\"path\": \"go.mod\"}}]<|tools_suffix|>",
			want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "two calls, suffix missing", content: "<|tools_prefix|>[{\"read_file\": {\"path\": \"a\"}}, {\"bash\": {\"command\": \"ls\"}}]",
			want: []call{{"read_file", `{"path":"a"}`}, {"bash", `{"command":"ls"}`}}},
		{label: "two names in one element", content: "<|tools_prefix|>[{\"read_file\": {}, \"bash\": {}}]<|tools_suffix|>", reject: "own"},
		{label: "arguments not an object", content: "<|tools_prefix|>[{\"read_file\": \"x\"}]<|tools_suffix|>", reject: "not an object"},
		{label: "near miss: the same list without the token is data", answer: true,
			content: "The map is [{\"read_file\": {\"path\": \"go.mod\"}}]."},
	})
}

func TestRuleFunctionaryRecipient(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: ">>>NAME", content: ">>>read_file\n{\"path\": \"go.mod\"}", want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "all then call", content: "all\nChecking.>>>bash\n{\"command\": \"ls\"}\n", want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "two recipients", content: ">>>read_file\n{\"path\": \"a\"}>>>bash\n{\"command\": \"ls\"}",
			want: []call{{"read_file", `{"path":"a"}`}, {"bash", `{"command":"ls"}`}}},
		{label: ">>> consumed by the prompt", content: "read_file\n{\"path\": \"go.mod\"}", want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "code recipient mm lacks", content: ">>>python\nprint('hey')", reject: "python"},
		{label: "near miss: only 'all'", answer: true, content: ">>>all\nHello there."},
		{label: "near miss: a heading above JSON", answer: true, content: "Summary\n{\"files\": 3}"},
		{label: "near miss: a tool name above JSON later in the reply", answer: true, content: "Here is the config.\nbash\n{\"command\": \"ls\"}"},
		{label: "near miss: a quote marker", answer: true, content: "As they said:\n>>> not a call\nindeed."},
	})
}

func TestRuleGemmaToolCode(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "declared tool", content: "```tool_code\nread_file(path=\"go.mod\")\n```", want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "unknown tool", content: "```tool_code\nget_product_name_by_PID(PID=\"807ZPKBL9V\")\n```", reject: "get_product_name_by_PID"},
		{label: "near miss: python fence", answer: true, content: "```python\nget_product_name_by_PID(PID=\"807ZPKBL9V\")\n```"},
		{label: "near miss: after the tool_code block closed", answer: true, content: "```tool_code\n```\nThen call lookup(x=1) yourself."},
	})
}

func TestRulePythonicWholeReply(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "declared tool", content: "[read_file(path='a.txt')]", want: []call{{"read_file", `{"path":"a.txt"}`}}},
		{label: "unknown tool, whole reply", content: "[get_weather(city='San Francisco', metric='celsius')]", reject: "get_weather"},
		{label: "near miss: unknown tool inside a sentence", answer: true, content: "You could write [get_weather(city='Paris')] in your script."},
		{label: "near miss: unknown tool followed by prose", answer: true, content: "[get_weather(city='Paris')] is what I would do."},
	})
}

func TestRuleMarkedCallWithoutArguments(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "functools list", content: "functools[{\"name\": \"bash\"}]", reject: "command"},
		{label: "functools object", content: "functools{\"name\": \"bash\"}", reject: "command"},
		{label: "functools object with arguments", content: "functools{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}", want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: name only, no markup", answer: true, content: "{\"name\": \"bash\"}"},
		{label: "near miss: name and other data in markup", answer: true, content: "I said functools[{\"name\": \"bash\", \"owner\": \"ops\"}] once."},
	})
}

func TestRuleUnclosedListInMarkup(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "brace missing", content: "<TOOLCALL>[{\"name\": \"edit_file\", \"arguments\": {\"path\": \"a.md\", \"edits\": [{\"old\": \"x\", \"new\": \"y\"}]]</TOOLCALL>", reject: "edit_file"},
		{label: "near miss: unreadable list in prose", answer: true, content: "Shape: [{\"name\": \"...\", \"arguments\": {...}}] and so on."},
	})
}

func TestRuleListMissingComma(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "two calls glued in a list", content: "<|START_ACTION|>[{\"tool_name\": \"read_file\", \"parameters\": {\"path\": \"a\"}}{\"tool_name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}]<|END_ACTION|>",
			want: []call{{"read_file", `{"path":"a"}`}, {"bash", `{"command":"ls"}`}}},
		{label: "near miss: glued records are data", answer: true, content: "Found [{\"name\": \"alice\"}{\"name\": \"bob\"}] in the file."},
	})
}

func TestRulePythonUnescapedQuote(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "same-style quotes nested", content: "[bash(command='sed -n '360,450p' f.py')]", want: []call{{"bash", `{"command":"sed -n '360,450p' f.py"}`}}},
		{label: "both styles nested", content: "[bash(command='python3 -c \"print('a')\"')]", want: []call{{"bash", `{"command":"python3 -c \"print('a')\""}`}}},
		{label: "next keyword after the value", content: "[read_file(path='it's.txt', start=2)]", want: []call{{"read_file", `{"path":"it's.txt","start":2}`}}},
		{label: "near miss: no end of call after the last quote", reject: "could not be read", content: "[bash(command='echo 'a' x)]"},
	})
}

func TestRulePythonZeroPaddedInt(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "zero-padded", content: "[read_file(path='a', start=07, end=010)]", want: []call{{"read_file", `{"path":"a","start":7,"end":10}`}}},
		{label: "near miss: a hex literal is not a padded decimal", reject: "start", content: "[read_file(path='a', start=0x1F)]"},
	})
}
