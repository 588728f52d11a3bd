package toolcall

import (
	"os"
	"strings"
	"testing"
)

// The intent rules (intent.go, rule_intent_wide.go, rule_redteam5.go, …)
// read the prose around a call to keep an answer that shows a call from
// running. Their risk is the other way round: a real call introduced by an
// ordinary sentence read as an example. TestLeadInSweep puts the sentences
// models really write right before a call (and right after one) around every
// text-form call case of the corpus that recovers, and checks that the same
// calls still run.

// leadIn is one sentence and where it was seen: a corpus case id (the
// prose of that case, whose own source the case gives), an issue thread,
// or "brief" (the tricky lead-ins the lead listed for this sweep).
type leadIn struct{ text, source string }

var genuineLeadIns = []leadIn{
	// The prose before the call in corpus call cases.
	{"I'll read the configuration first.", "bare_json-008"},
	{"我先看一下目录结构。", "deepseek-004"},
	{"I'll update the version string.", "fenced_json-007"},
	{"Checking the failing test now.", "gemma-002"},
	{"I will list the tests first.", "mistral-006"},
	{"Two files to check.", "multi_call-006"},
	{"Now I'll implement the AI Translator application according to the specification. Let me start by creating the main form with the required UI elements.", "qwen3_coder_xml-004"},
	{"Let me check the module path.", "qwen3_coder_xml-007"},
	{"I should inspect the directory.", "think_mixed-002"},
	{"I'll read the config first.", "cline_xml-k009"},
	{"Let me look at the file.", "minimax_m2-k027"},
	{"I ran the linter earlier and it was clean. Let me see what the tests say:", "hermes-k052"},
	{"The README says to run make; here it is:", "hermes-a002"},
	{"The test returns an error, so let me check the log:", "hermes-a003"},
	{"Je ne sais pas pourquoi ça échoue, je lance les tests :", "hermes-a004"},
	{"我们不会丢失数据，所以我运行：", "hermes-a005"},
	{"Ich kann nicht sagen, ob es klappt; ich führe es aus:", "hermes-a006"},
	{"1. List the files:", "hermes-a008"},
	{"Sure! I'll list them.", "hermes-a009"},
	{"Ich werde jetzt die Dateien auflisten:", "hermes-a010"},
	{"Voy a listar los archivos, no tardo:", "hermes-a011"},
	{"Let me run the example:", "hermes-a014"},
	{"Let me check what the server returns:", "hermes-a015"},
	{"Let me see what the file contains:", "hermes-a016"},
	{"I'll check what it says:", "hermes-a017"},
	{"To see what Go outputs:", "hermes-a018"},
	{"Let me look at the output of the build:", "hermes-a019"},
	{"I will ignore the vendor directory and list the rest:", "hermes-a020"},
	{"Let me fetch the page for you.", "deepseek_r1-w003"},
	{"I'll check the tests.", "deepseek_r1-w009"},
	{"The user wants the build log. I should run make first.", "deepseek_r1-w011"},
	{"Running the linter.", "deepseek_r1-w020"},
	{"I'll check the page.", "deepseek_v31-w003"},
	{"Processing data.", "deepseek_v31-w004"},
	{"I'll help you.", "deepseek_v31-w006"},
	{"Let me check the file...", "deepseek_v31-w011"},
	{"Let me check.", "deepseek_dsml-w001"},
	{"I'll look at the tests.", "deepseek_dsml-w004"},
	{"Reading the manifest now.", "deepseek_dsml-w005"},
	{"I'll call the `bash` function to check the status.", "deepseek_dsml-w009"},
	{"The user wants the failing test; run it alone.", "deepseek_dsml-w013"},
	{"Let me check both files.", "deepseek_dsml-w016"},
	{"I'll help you check the file.", "kimi_k2-w001"},
	{"I'll help you check both files.", "kimi_k2-w002"},
	{"I'll help you with multiple tasks.", "kimi_k2-w003"},
	{"I need to process HTML content.", "kimi_k2-w005"},
	{"I'll help you check the page.", "glm-w003"},
	{"I will help you get the logs.", "glm-w005"},
	{"I need the line count of the file.", "qwen3-w011"},
	{"Sure! Let me check the symbol for you.", "qwen3_coder_xml-w002"},
	{"I'll list the directory first.", "seed_oss-w012"},
	{"Sure, let me check the weather.", "hermes-w005"},
	{"I should list the files before answering.", "magistral-w002"},
	{"Here are the results:", "llama3_json-w003"},
	{"I'll check the version.", "firefunction-w003"},
	{"Let me check the weather for you.", "granite-w004"},
	{"Here goes the bbox call:", "granite-w006"},
	{"I will fetch it.", "apertus-w003"},
	{"I'll look at the module file.", "gemma-w005"},
	{"I should check the weather...", "nemotron-w004"},
	{"Let me analyze this.", "nemotron-w005"},
	{"I'll help you with that.", "xlam-w003"},
	{"I'll create a file called test.txt with the content \"hello\".", "qwen3_coder_xml-d001"},
	{"I'll use the bash tool to list all markdown files in the current directory.", "qwen3_coder_xml-d002"},
	{"I'll fetch the example.com webpage...", "qwen3_coder_xml-d005"},
	{"I'll run a grilling session. First, let me read the skill and gather the facts.", "deepseek_dsml-d001"},
	{"I'll create the file for you.", "qwen3_coder_xml-r002"},
	{"I'll help you explore the contents of your current folder. Let me check what's in there.", "qwen3_coder_xml-r003"},
	{"Here's how you can do it:", "fenced_json-r012"},
	{"I'll help you check for local, uncommitted changes. Let me first check if this is a git repository and then look for any uncommitted changes.", "glm-r019"},
	{"I'll analyze the codebase to provide you with a comprehensive overview. Let me start by examining key files to understand the architecture.", "cline_xml-x004"},
	{"Теперь давайте проанализируем результаты тестирования покрытия кода и создадим подробный отчет.", "cline_xml-x024"},
	{"I need to continue with Step 1. Let me read the run_one function to find where to add the state initialization Tuner.", "minimax_m2-y003"},
	{"I'll list the repository first.", "qwen3_coder_xml-y001"},
	{"I'll check!", "multi_call-m002"},
	{"Sure, let's try again to check the config file.", "bare_json-m001"},
	{"I'll check the model information to confirm I'm running on the local oMLX server.", "qwen3_coder_xml-s001"},

	// Issue threads: the reply quoted by the reporter.
	{"I need to check the weather for Tokyo and Paris as well. Let me get that information for you.", "ggml-org/llama.cpp#15012"},
	{"I'll search for DbContext...", "anomalyco/opencode#33959"},
	{"I'll create a file with some text for you.", "ca-x/ccany#3"},
	{"Since there are multiple functions listed, I'll provide a JSON for an execute call that can handle most of these scenarios.", "aaif-goose/goose#7235"},

	// The tricky-but-genuine lead-ins of the brief: each has the model as
	// the one who acts on the call.
	{"For example, let me check main.go:", "brief"},
	{"Let me look at the example config:", "brief"},
	{"I'll use the read_file tool with the following format:", "brief"},
	{"The template expects a path, so I'll read it:", "brief"},
	{"Usage of the tool: let me run it", "brief"},
	{"Now, let me run the command that failed again:", "brief"},
	{"Here's the tool call:", "brief"},
	{"Calling read_file:", "brief"},
	{"Action:", "brief"},
	{"Step 2:", "brief"},
	{"Example: I'll fetch the page", "brief"},
	{"让我先读取配置文件：", "brief"},
	{"我来运行测试。", "brief"},
	{"Voy a leer el archivo de configuración:", "brief"},
	{"Primero, voy a ejecutar las pruebas.", "brief"},
	{"Je vais lire le fichier de configuration :", "brief"},
	{"Lisons d'abord le fichier :", "brief"},
	{"Ich lese zuerst die Konfigurationsdatei:", "brief"},
	{"Lass mich die Datei ansehen:", "brief"},
	{"Сначала я прочитаю файл конфигурации:", "brief"},
	{"Давайте посмотрим на файл:", "brief"},
	{"まず設定ファイルを読みます。", "brief"},
	{"ファイルを確認します：", "brief"},
	{"Let me try the command again with the correct path:", "brief"},
	{"I'll call the tool now:", "brief"},
	{"Tool call:", "brief"},
	{"Next step: run the tests.", "brief"},
	{"Let me use the bash tool to run the tests in the example directory:", "brief"},
	{"Let me read the example file the docs mention:", "brief"},
	{"The error says the file is missing, so let me list the directory:", "brief"},
	{"I'll run it like this:", "brief"},
	{"OK, I'll do that:", "brief"},
	{"Let me check the format of the config file:", "brief"},
	{"I'll read the template file to see what it expects:", "brief"},
	{"Thought: I need to read the file first.", "brief"},
	{"To answer this, I need to read the README.", "brief"},
	{"I'll start by reading the package.json:", "brief"},
	{"Great, the build passed. Now let me run the tests:", "brief"},
	{"Let me search for usages of the function:", "brief"},
	{"I'll fetch the documentation page, for instance the API reference:", "brief"},
	{"Let me run the sample script:", "brief"},
	{"Okay, the user wants to know what is in the folder. I'll list it.", "brief"},
	{"Let me write the file now:", "brief"},
	{"I'll apply the fix:", "brief"},
	{"Let me look at the test output again:", "brief"},

	// Ordinary wordings written for this sweep (not seen in a thread), each
	// aimed at one phrase list: the model is the one who acts.
	{"Let me see what the directory looks like:", "probe exampleWideRe (looks like)"},
	{"Let me check how it looks:", "probe exampleWideRe (how it looks)"},
	{"Let me run this example:", "probe exampleWideRe (this example)"},
	{"Let me see what it printed:", "probe quotedReplyRe (it printed)"},
	{"I'll rerun the build to see what it output:", "probe quotedReplyRe (it output)"},
	{"Let me check why the output starts with an error:", "probe quotedReplyRe (output starts with)"},
	{"Now I will write the file:", "probe quotesOutputRe (Now I will write)"},
	{"This will write the new config:", "probe quotesOutputRe (This will write)"},
	{"That should return the list:", "probe quotesOutputRe (That should return)"},
	{"I haven't run these tests yet, so let me run them now:", "probe notMadeRe (haven't run these)"},
	{"I didn't run them before; running them now:", "probe notMadeRe (didn't run them)"},
	{"I have made this change, so let me verify it:", "probe pastRe (have made this)"},
	{"Let me rerun the command I ran earlier with -v:", "probe pastRe (command I ran)"},
	{"Je ne trouve pas l'erreur donc je lance les tests :", "probe refusalWideRe (je ne … pas … lance)"},
	{"I'll rerun the command that timed out:", "probe failedCallRe (command that timed out)"},
	{"Checking what the parser expects now:", "probe formatDescRe (parser expects)"},
}

// Sentences models write right after the call they make.
var genuineAfters = []leadIn{
	{"The file todo.md has been created with the content \"hello world, from qwen3\".", "p-lemonish/ollama-x-opencode#1"},
	{"Let me know if you need anything else.", "brief"},
	{"I'll wait for the result.", "brief"},
	{"Once I see the output, I'll continue.", "brief"},
	{"This will show us the contents of the file.", "brief"},
	{"This should list all the files.", "brief"},
	{"After that, I'll run the tests.", "brief"},
	{"Then I'll summarize the results.", "brief"},
	{"I'll analyze the output next.", "brief"},
	{"Let's see what it returns.", "brief"},
	{"This will help me understand the structure.", "brief"},
	{"Waiting for the tool result.", "brief"},
	{"I'll check the output and report back.", "brief"},
	{"That reads the first 50 lines.", "brief"},
	{"If this fails, I'll try another path.", "brief"},
	{"Based on the result, I'll decide the next step.", "brief"},
	{"This command runs the full test suite.", "brief"},
	{"The output will tell us which test fails.", "brief"},
	{"Now I'll wait for the response.", "brief"},
	{"Let me know if you want me to change the path.", "brief"},
	{"I'll update the docs after this.", "brief"},
	{"This will fetch the page content.", "brief"},
	{"Once we have the file contents, I can fix the bug.", "brief"},
	{"Next, I'll edit the config.", "brief"},
	{"I'm running this to check the version.", "brief"},
	{"This is the first step.", "brief"},
	{"Please wait while I read the file.", "brief"},
	{"The results will appear below.", "brief"},
	{"Hopefully this gives us the error.", "brief"},
	{"I'll continue once the command finishes.", "brief"},
	{"等待结果。", "brief"},
	{"我会根据结果继续。", "brief"},
	{"Esperaré el resultado.", "brief"},
	{"Luego revisaré la salida.", "brief"},
	{"J'attends le résultat.", "brief"},
	{"Ensuite, je corrigerai le fichier.", "brief"},
	{"Danach prüfe ich die Ausgabe.", "brief"},
	{"Ich warte auf das Ergebnis.", "brief"},
	{"Жду результата.", "brief"},
	{"結果を待ちます。", "brief"},
	{"For the next step, I'll edit the file.", "brief"},
	{"This shows, for example, which files changed.", "brief"},
	{"Let's see how it looks.", "probe exampleWideRe (how it looks)"},
	{"I'll rerun the call that failed after this.", "probe failedCallRe (call that failed)"},
	{"That is what I used last time, too.", "probe pastRe"},
}

// leadInCases are the corpus call cases whose call is in the text and that
// recover as they are.
func leadInCases(t *testing.T) []corpusCase {
	var out []corpusCase
	for _, c := range loadCorpus(t) {
		if c.Kind != "call" || c.Content == nil || len(c.ToolCalls) > 0 || strings.TrimSpace(*c.Content) == "" {
			continue
		}
		if scoreCase(t, c).ok {
			out = append(out, c)
		}
	}
	return out
}

// leadInControl is a sentence that says nothing about the call. A case that
// no longer recovers with it before (or after) the call is bound to its
// place in the message, not read for intent: a harmony message whose
// channel opens the content, a call left open that runs to the end of the
// message (its last argument takes whatever follows). Those cases are
// left out of that side of the sweep and counted apart.
const leadInControl = "Okay."

func TestLeadInSweep(t *testing.T) {
	cases := leadInCases(t)
	full := os.Getenv("MM_LEADIN_FULL") == "1"
	wrap := func(c corpusCase, text string, after bool) corpusCase {
		s := text + "\n\n" + *c.Content
		if after {
			s = *c.Content + "\n\n" + text
		}
		c.Content = &s
		return c
	}
	var before, after []corpusCase
	var boundBefore, boundAfter []string
	for _, c := range cases {
		if opensWithReasoningCloser(*c.Content) {
			// A sentence written before a forced-open reasoning's closer
			// is reasoning, not a lead-in (4 cases): the after side only.
			boundBefore = append(boundBefore, c.ID)
		} else if scoreCase(t, wrap(c, leadInControl, false)).ok {
			before = append(before, c)
		} else {
			boundBefore = append(boundBefore, c.ID)
		}
		if scoreCase(t, wrap(c, leadInControl, true)).ok {
			after = append(after, c)
		} else {
			boundAfter = append(boundAfter, c.ID)
		}
	}
	// A deterministic sample keeps the sweep cheap: each sentence goes
	// around every stride-th case, from an offset that moves with the
	// sentence, so that together the sentences cover every case.
	stride := 9
	if full {
		stride = 1
	}
	tried, changed := 0, 0
	byPhrase := map[string]int{}
	try := func(p leadIn, k int, isAfter bool, cs []corpusCase) {
		for i := k % stride; i < len(cs); i += stride {
			tried++
			if o := scoreCase(t, wrap(cs[i], p.text, isAfter)); !o.ok {
				changed++
				byPhrase[p.text]++
				if byPhrase[p.text] <= 2 || full {
					t.Errorf("%s %q (%s, after=%v): %s", cs[i].ID, p.text, p.source, isAfter, o.why)
				}
			}
		}
	}
	for k, p := range genuineLeadIns {
		try(p, k, false, before)
	}
	for k, p := range genuineAfters {
		try(p, k, true, after)
	}
	t.Logf("%d text-form call cases that recover; bound to their place (fail with %q): %d before %v, %d after %v", len(cases), leadInControl, len(boundBefore), boundBefore, len(boundAfter), boundAfter)
	t.Logf("%d lead-ins, %d after-sentences: %d of %d variants changed, %d phrases", len(genuineLeadIns), len(genuineAfters), changed, tried, len(byPhrase))
	for p, n := range byPhrase {
		t.Logf("  %3d  %q", n, p)
	}
}

// opensWithReasoningCloser: the content starts with </think> or
// </thinking> (thinking forced open by the template).
func opensWithReasoningCloser(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "</think>") || strings.HasPrefix(t, "</thinking>")
}
