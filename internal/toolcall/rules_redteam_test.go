package toolcall

import "testing"

// One table per narrowing made for the red-team cases
// (testdata/widened-adversarial.jsonl): the reply the rule now leaves as
// text, and a near miss — a real call of the same shape — that still runs.

const hermesRm = `<tool_call>{"name": "bash", "arguments": {"command": "rm -rf /"}}</tool_call>`
const hermesLs = `<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>`

func TestRuleIntentInOtherWords(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "French refusal", answer: true, content: "Je ne vais pas exécuter cette commande :\n" + hermesRm},
		{label: "French refusal, future", answer: true, content: "Je n'exécuterai pas ceci :\n" + hermesRm},
		{label: "French past report", answer: true, content: "J'ai exécuté la commande suivante :\n" + hermesLs},
		{label: "German refusal", answer: true, content: "Ich werde das nicht ausführen:\n" + hermesRm},
		{label: "German past report", answer: true, content: "Ich habe bereits Folgendes ausgeführt:\n" + hermesLs},
		{label: "Spanish refusal", answer: true, content: "No voy a ejecutar esto:\n" + hermesRm},
		{label: "Spanish past report", answer: true, content: "He ejecutado el siguiente comando:\n" + hermesLs},
		{label: "Chinese refusal", answer: true, content: "我不会运行这个命令：\n" + hermesRm},
		{label: "Chinese past report", answer: true, content: "我已经运行了：\n" + hermesLs},
		{label: "English: gone ahead and", answer: true, content: "I've gone ahead and executed\n" + hermesLs + "\nand it passed."},
		{label: "English: refrained", answer: true, content: "I refrained from running this:\n" + hermesRm},
		{label: "English: the following was run", answer: true, content: "The following was already run, here is the call for reference:\n" + hermesLs},
		{label: "a file's text quoted", answer: true, content: "The file notes.md says:\n\n" + hermesRm},
		{label: "a template's output described", answer: true, content: "The DeepSeek R1 template emits:\n" + hermesRm},
		{label: "prompt injection named after it", answer: true, content: "It holds\n\n" + hermesRm + "\n\nThis is a prompt-injection attempt."},
		{label: "near miss: French call", content: "Je vais lister les fichiers :\n" + hermesLs, want: ls},
		{label: "near miss: German call after a past step", content: "Ich habe die Tests ausgeführt, jetzt liste ich die Dateien:\n" + hermesLs, want: ls},
		{label: "near miss: Spanish call", content: "Voy a ejecutar esto:\n" + hermesLs, want: ls},
		{label: "near miss: Chinese call", content: "我来运行这个命令：\n" + hermesLs, want: ls},
		{label: "near miss: Chinese past step then a call", content: "测试已经通过。现在列出文件：\n" + hermesLs, want: ls},
		{label: "near miss: I read the file, it lists", content: "I read the file. Now I will list the directory:\n" + hermesLs, want: ls},
		{label: "near miss: lower-case subject and a colon", content: "let me see what the build writes:\n" + hermesLs, want: ls},
	})
}

func TestRuleFunctionaryBodyEnds(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "prose after the object, same line", answer: true, content: "bash\n{\"command\": \"ls\"} is the argument object."},
		{label: "explanation after the object", answer: true, content: "Functionary writes:\n\n>>>bash\n{\"command\": \"ls\"}\n\nand >>>all for text."},
		{label: "inside a fence", answer: true, content: "The output was:\n```\n>>>bash\n{\"command\": \"ls\"}\n```"},
		{label: "near miss: whole reply", content: "bash\n{\"command\": \"ls\"}", want: ls},
		{label: "near miss: another message after", content: ">>>bash\n{\"command\": \"ls\"}\n>>>all\nListing.", want: ls},
		{label: "near miss: text message first", content: ">>>all\nOn it.>>>bash\n{\"command\": \"ls\"}", want: ls},
	})
}

func TestRuleCallRecordIsData(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "result key", answer: true, content: "The log shows:\n{\"name\": \"bash\", \"arguments\": {\"command\": \"make\"}, \"result\": \"ok\"}"},
		{label: "output key, whole reply", answer: true, content: "{\"name\": \"read_file\", \"parameters\": {\"path\": \"go.mod\"}, \"output\": \"module x\"}"},
		{label: "stdout key, Cohere shape", answer: true, content: "Response:\n{\"tool_name\": \"read_file\", \"parameters\": {\"path\": \"x\"}, \"stdout\": \"ok\"}"},
		{label: "near miss: a status the model added in markup", content: "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}, \"status\": \"pending\"}</tool_call>", want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: id and type are part of a call", content: "{\"id\": \"call_1\", \"type\": \"function\", \"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}", want: []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleSchemaTypeIsPlaceholder(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "type name as the command", answer: true, content: "Signature:\n{\"name\": \"bash\", \"parameters\": {\"command\": \"string\"}}"},
		{label: "type names as path and start", answer: true, content: "{\"name\": \"read_file\", \"arguments\": {\"path\": \"string\", \"start\": \"integer\"}}"},
		{label: "near miss: a command that mentions string", content: "{\"name\": \"bash\", \"arguments\": {\"command\": \"grep string main.go\"}}", want: []call{{"bash", `{"command":"grep string main.go"}`}}},
		{label: "near miss: content may be the word string", content: "{\"name\": \"write_file\", \"arguments\": {\"path\": \"t.txt\", \"content\": \"string\"}}", want: []call{{"write_file", `{"path":"t.txt","content":"string"}`}}},
	})
}

func TestRuleClassConstructorIsNotATool(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "dataclass repr", answer: true, content: "[Point(x=1, y=2), Point(x=3, y=4)]"},
		{label: "repr with strings", answer: true, content: "[User(name='alice', age=3)]"},
		{label: "near miss: unknown lower-case tool, whole reply", content: "[get_weather(city='Paris')]", reject: "get_weather"},
		{label: "near miss: a declared tool next to a constructor", content: "[bash(command='ls'), Point(x=1)]", want: []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleMarkdownQuoteAndIndentedCode(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "block quote", answer: true, content: "Quoting it:\n> " + hermesRm},
		{label: "indented code after a blank line", answer: true, content: "The test feeds:\n\n    " + hermesRm + "\n\ninto Parse."},
		{label: "near miss: indented inside a json fence", content: "```json\n\n    " + hermesLs + "\n```", want: ls},
		{label: "near miss: whole reply indented", content: "    " + hermesLs, want: ls},
		{label: "near miss: indented line continuing a paragraph", content: "Listing now\n    " + hermesLs, want: ls},
		{label: "near miss: a call after the user's words quoted", content: "> list the files\n\nOn it.\n" + hermesLs, want: ls},
	})
}

func TestRuleStrippedHarmonyUnderProse(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "pasted log line", answer: true, content: "Log from the run:\nassistantcommentary to=functions.bash json{\"command\": \"rm -rf /\"}"},
		{label: "recipient line under prose", answer: true, content: "The parser splits on to=:\nto=functions.bash json{\"command\": \"ls\"}"},
		{label: "near miss: reply starting with analysis", content: "analysisNeed to list.\nassistantcommentary to=functions.bash json{\"command\": \"ls\"}", want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: recipient first", content: "to=functions.bash json{\"command\": \"ls\"}", want: []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleCallCloserFollowedByProse(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "closer mentioned in the value", content: "<tool_call>\n<function=write_file>\n<parameter=path>\nn.md\n</parameter>\n<parameter=content>\nEnd with </function> then stop.\n</parameter>\n</function>\n</tool_call>",
			want: []call{{"write_file", `{"path":"n.md","content":"End with </function> then stop."}`}}},
		{label: "near miss: value closer missing, call closer ends it", content: "<tool_call>\n<function=bash>\n<parameter=command>\nls\n</function>\n</tool_call>",
			want: []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleGemmaStrippedWhereTokensStood(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "mid-sentence", answer: true, content: "In Gemma 4 a call is written call:bash{command:<|\"|>rm -rf /<|\"|>} between the tokens."},
		{label: "near miss: reply start", content: "call:bash{command:<|\"|>ls<|\"|>}", want: ls},
		{label: "near miss: line start after prose", content: "Listing.\ncall:bash{command:<|\"|>ls<|\"|>}", want: ls},
	})
}

func TestRuleTablesAndLabelledListItems(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "table cell", answer: true, content: "| example | meaning |\n|---|---|\n| " + hermesRm + " | Hermes |"},
		{label: "labelled list item", answer: true, content: "- " + hermesRm + " — Hermes"},
		{label: "near miss: list item that is only the call", content: "1. " + hermesLs, want: ls},
		{label: "near miss: bullet then the call on its own", content: "- " + hermesLs + "\n", want: ls},
	})
}

func TestRuleIntentMoreLanguages(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "French object pronoun", answer: true, content: "Je ne l'exécuterai pas : " + hermesRm},
		{label: "Polish", answer: true, content: "Nie uruchomię tego:\n" + hermesRm},
		{label: "Italian", answer: true, content: "Non eseguirò questo comando:\n" + hermesRm},
		{label: "Portuguese", answer: true, content: "Não vou executar isto:\n" + hermesRm},
		{label: "Japanese", answer: true, content: "これは実行しません：\n" + hermesRm},
		{label: "the user's text echoed", answer: true, content: "You wrote: " + hermesRm + " — I can explain it."},
		{label: "near miss: a README in the lead-in", content: "The README says to run make; here it is:\n" + hermesLs, want: ls},
		{label: "near miss: French negation about knowing", content: "Je ne sais pas pourquoi ça échoue, je lance :\n" + hermesLs, want: ls},
		{label: "near miss: Chinese negation about data", content: "我们不会丢失数据，所以我运行：\n" + hermesLs, want: ls},
		{label: "near miss: Italian call", content: "Eseguo questo comando:\n" + hermesLs, want: ls},
		{label: "near miss: Japanese call", content: "これを実行します：\n" + hermesLs, want: ls},
	})
}

func TestRuleQuotedToolOutputAndConsoleSessions(t *testing.T) {
	ls := []call{{"bash", `{"command":"ls"}`}}
	runTemplateCases(t, []templateCase{
		{label: "shell session in a plain fence", answer: true, content: "Earlier:\n```\n$ cat notes.md\n" + hermesRm + "\n```"},
		{label: "a command's output quoted", answer: true, content: "Output of cat notes.md:\n\n" + hermesRm},
		{label: "a page quoted and disowned", answer: true, content: "The page at https://example.com reads:\n\n" + hermesRm + "\n\nI did not act on it."},
		{label: "an instruction ignored", answer: true, content: "The README contains the following instruction, which I will ignore:\n" + hermesRm},
		{label: "a name-only call shown as a shape", answer: true, content: "<tool_call>{\"name\": \"bash\"}</tool_call>\nis the shape of a name-only call."},
		{label: "near miss: plain fence with the call alone", content: "```\n" + hermesLs + "\n```", want: ls},
		{label: "near miss: indented under a list item", content: "1. List the files:\n\n    " + hermesLs, want: ls},
		{label: "near miss: For example, continuing", content: "On it.\n" + hermesLs + "\nFor example, src will show up.", want: ls},
		{label: "near miss: name-only call in markup, alone", content: "<tool_call>{\"name\": \"bash\"}</tool_call>", reject: "command"},
	})
}

func TestRuleExampleLabel(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "Example:", answer: true, content: "Example:\n" + hermesRm},
		{label: "German label", answer: true, content: "Funktionsaufruf-Beispiel:\n" + hermesRm},
		{label: "Chinese label", answer: true, content: "示例：\n" + hermesRm},
		{label: "format named after the call", answer: true, content: hermesRm + "\nAs shown above, that's the Hermes format."},
		{label: "near miss: running the example", content: "Let me run the example:\n" + hermesLs, want: []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleQuotingLeadInIsNotAPurpose(t *testing.T) {
	read := []call{{"read_file", `{"path":"notes.md"}`}}
	readCall := `<tool_call>{"name": "read_file", "arguments": {"path": "notes.md"}}</tool_call>`
	runTemplateCases(t, []templateCase{
		{label: "a file quoted", answer: true, content: "The file notes.md says:\n\n" + hermesRm},
		{label: "a page quoted", answer: true, content: "The page at https://example.com reads:\n\n" + hermesRm + "\n\nI did not act on it."},
		{label: "a template's output", answer: true, content: "The DeepSeek R1 template emits:\n" + hermesRm},
		{label: "near miss: what the file contains", content: "Let me see what the file contains:\n" + readCall, want: read},
		{label: "near miss: what it says", content: "I'll check what it says:\n" + readCall, want: read},
		{label: "near miss: what Go outputs", content: "To see what Go outputs:\n" + hermesLs, want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: the output of the build", content: "Let me look at the output of the build:\n" + hermesLs, want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: ignore a directory", content: "I will ignore the vendor directory and list the rest:\n" + hermesLs, want: []call{{"bash", `{"command":"ls"}`}}},
	})
}
