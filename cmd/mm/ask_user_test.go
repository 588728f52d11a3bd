package main_test

// ask_user through the binary: the line mode in a pty and without a
// terminal, and -p, where nobody can be asked. What the model reads is
// checked in the next request the scripted server received.

import (
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// toolResult is the content of the last tool message of request i.
func toolResult(t *testing.T, srv *llmtest.Server, i int) string {
	t.Helper()
	reqs := srv.ChatRequests()
	if len(reqs) <= i {
		t.Fatalf("%d requests, want at least %d", len(reqs), i+1)
	}
	msgs, _ := reqs[i].JSON["messages"].([]any)
	for j := len(msgs) - 1; j >= 0; j-- {
		if m, _ := msgs[j].(map[string]any); m["role"] == "tool" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("request %d has no tool message: %v", i, msgs)
	return ""
}

const fourQuestions = `{"questions":[
 {"question":"Which colour?","type":"choice","options":["red","blue","green"],"default":"Blue"},
 {"question":"Which files?","type":"multi","options":["a.go","b.go","c.go"]},
 {"question":"Go on?","type":"yesno"},
 {"question":"Your name?"}]}`

// One question of each type in the terminal: the default taken by an
// empty line, a bad answer showing the help again, an empty line without
// default asking again.
func TestAskUserLineModeEachType(t *testing.T) {
	srv := llmtest.New(t, call("ask_user", fourQuestions), llmtest.Turn{Text: "Thanks, noted."})
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("ask me")
	s.expect("❓ ask_user: 4 question(s)")
	s.expect("❓ Which colour?")
	s.expect(" 1. red")
	s.expect(" 2. blue (default)")
	s.expect(" 3. green")
	s.expect("answer with a number or an option, or type your own answer · Enter takes the default · /skip declines")
	s.expect(" ? ")
	s.send("\r")
	s.expect("→ blue")

	s.expect("❓ Which files?")
	s.expect(" 3. c.go")
	s.expect(" ? ")
	s.send("1, 7\r") // 7 is no option: said, then the help again
	s.expect("7 is out of range: the options are numbered 1 to 3")
	s.expect("answer with one or more numbers or options, e.g. 1, 3 · /skip declines")
	s.expect(" ? ")
	s.send("c.go a.go;3\r") // options' texts, as a choice takes them
	s.expect("→ c.go, a.go")

	s.expect("❓ Go on?")
	s.expect("answer y or n · /skip declines")
	s.expect(" ? ")
	s.send("maybe\r")
	s.expect("answer y or n")
	s.expect(" ? ")
	s.send("oui\r")
	s.expect("→ yes")

	s.expect("❓ Your name?")
	s.expect(" ? ")
	s.send("\r") // no default: asked again
	s.expect("❓ Your name?")
	s.expect(" ? ")
	s.send("Ada L\x7fLovelace\r")
	s.expect("→ Ada Lovelace")
	s.expect("Thanks, noted.")

	want := "The user answered:\n- Which colour? → blue\n- Which files? → c.go, a.go\n- Go on? → yes\n- Your name? → Ada Lovelace"
	if got := toolResult(t, srv, 1); got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
}

// A choice answered by a number, by the start of one option, or by any
// other text; /skip declines the rest.
func TestAskUserLineModeChoiceAndSkip(t *testing.T) {
	srv := llmtest.New(t,
		call("ask_user", `{"questions":[{"question":"Pick","options":["alpha","beta"]},{"question":"Pick again","options":["alpha","beta"]},{"question":"Once more","options":["alpha","beta"]}]}`),
		llmtest.Turn{Text: "first done"},
		call("ask_user", `{"question":"Deploy now?","type":"confirm","default":"no"}`),
		llmtest.Turn{Text: "skipped then"},
	)
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("choose")
	s.expect("❓ Pick")
	s.expect(" ? ")
	s.send("2\r")
	s.expect("→ beta")
	s.expect("❓ Pick again")
	s.expect(" ? ")
	s.send("AL\r")
	s.expect("→ alpha")
	s.expect("❓ Once more")
	s.expect(" ? ")
	s.send("gamma, please\r")
	s.expect("→ gamma, please")
	s.expect("first done")
	if got, want := toolResult(t, srv, 1), "The user answered:\n- Pick → beta\n- Pick again → alpha\n- Once more → gamma, please"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}

	s.ask("deploy?")
	s.expect("❓ ask_user: 1 question(s)")
	s.expect("answer y or n · Enter: no · /skip declines")
	s.expect(" ? ")
	s.send("/skip\r")
	s.expect("→ declined")
	s.expect("skipped then")
	if got := toolResult(t, srv, 3); got != "[the user declined to answer: do not ask the same thing again; go on without it or stop]" {
		t.Errorf("the model read %q", got)
	}
}

// Esc at a question stops the turn and cancels the question; /abort
// typed at one does the same; the prompt comes back each time.
func TestAskUserLineModeCancelled(t *testing.T) {
	srv := llmtest.New(t,
		call("ask_user", `{"question":"Name?"}`),
		llmtest.Turn{Text: "after esc"},
		call("ask_user", `{"question":"Name again?"}`),
		llmtest.Turn{Text: "after abort"},
	)
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("first")
	s.expect("❓ Name?")
	s.expect(" ? ")
	s.send("Ad\x1b")
	s.expect("[turn stopped]")
	s.ask("second")
	s.expect("after esc")
	if got := toolResult(t, srv, 1); got != "[the question was cancelled before the user answered]" {
		t.Errorf("the model read %q after Esc", got)
	}
	s.ask("third")
	s.expect("❓ Name again?")
	s.expect(" ? ")
	s.send("/abort\r")
	s.expect("[turn stopped]")
	s.ask("fourth")
	s.expect("after abort")
	if got := toolResult(t, srv, 3); got != "[the question was cancelled before the user answered]" {
		t.Errorf("the model read %q after /abort", got)
	}
}

// Without a terminal, the answers are lines of the input, shown after
// their " ? "; the end of the input leaves nobody to ask.
func TestAskUserPlainLines(t *testing.T) {
	srv := llmtest.New(t,
		call("ask_user", `{"questions":[{"question":"Which?","type":"select","options":["one","two"]},{"question":"Sure?","type":"bool"}]}`),
		llmtest.Turn{Text: "plain done"},
		call("ask_user", `{"question":"Last?"}`),
		llmtest.Turn{Text: "gone"},
	)
	r := mm(t, t.TempDir(), srv, nil, "ask\nthree\n2\nn\nagain\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"❓ ask_user: 2 question(s)", "❓ Which?\n 1. one\n 2. two\n", " ? three\n", " ? 2\n   answer y or n", " ? n\n", "→ no", "plain done", "❓ Last?"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if got := toolResult(t, srv, 1); got != "The user answered:\n- Which? → three\n- Sure? → no" {
		t.Errorf("the model read %q", got)
	}
	if got := toolResult(t, srv, 3); got != "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]" {
		t.Errorf("at the end of the input the model read %q", got)
	}
}

// -p and its JSON events: nobody can be asked, and the model is told so.
func TestAskUserOneShotCannotAsk(t *testing.T) {
	for _, args := range [][]string{{"-p", "ask"}, {"-p", "ask", "-json"}} {
		srv := llmtest.New(t, call("ask_user", `{"question":"Which?","options":["a","b"]}`), llmtest.Turn{Text: "assumed a"})
		r := mm(t, t.TempDir(), srv, nil, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		if got := toolResult(t, srv, 1); got != "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]" {
			t.Errorf("%v: the model read %q", args, got)
		}
	}
}

// askUserTool: false declares no ask_user.
func TestAskUserToolOff(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "askUserTool: false\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if b := string(srv.ChatRequests()[0].Body); strings.Contains(b, `"ask_user"`) {
		t.Error("ask_user declared with askUserTool: false")
	}
	srv2 := llmtest.New(t, llmtest.Turn{Text: "ok"})
	mm(t, dir, srv2, nil, "", "-p", "hi")
	if b := string(srv2.ChatRequests()[0].Body); !strings.Contains(b, `"name":"ask_user"`) {
		t.Error("ask_user not declared by default")
	}
}
