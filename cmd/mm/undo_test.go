//go:build !windows

package main_test

// /undo and /redo through the binary: the line mode in a pty, ACP over
// pipes; the user's own repository left byte for byte as it was.

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// gitIn runs git in the test's own repository dir, with an environment of
// its own (no user configuration).
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// treeSum is every entry under dir (path, mode, content or link target):
// equal sums are byte-identical trees.
func treeSum(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		v := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			v += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h := sha256.Sum256(b)
			v += " " + hex.EncodeToString(h[:])
		}
		sums[rel] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s: %s was %q, now %q", what, p, v, after[p])
		}
	}
	for p, v := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s is new (%q)", what, p, v)
		}
	}
}

func readOr(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func modeOf(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return fi.Mode()
}

// The line mode: two turns change the project through the file tools and
// bash (edits, creations, deletions, a mode change, a file replaced by a
// link out of the project, an ignored file); /undo takes the second back,
// /undo again the first, the next request tells the model, /redo takes
// the last undo back. The user's repository (.git: objects, refs, index,
// stash) is byte-identical after it all, and its uncommitted work is
// back.
func TestUndoLineMode(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	write(t, secret, "outside\n")
	gitIn(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "a.txt"), "one\n")
	write(t, filepath.Join(dir, "c.txt"), "see\n")
	write(t, filepath.Join(dir, "s.txt"), "plain\n")
	write(t, filepath.Join(dir, "b.sh"), "#!/bin/sh\necho b\n")
	os.Chmod(filepath.Join(dir, "b.sh"), 0o755)
	write(t, filepath.Join(dir, ".gitignore"), "ignored.log\n")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "first")
	// A stash, then uncommitted work: a change and a file not tracked.
	write(t, filepath.Join(dir, "c.txt"), "stashed\n")
	gitIn(t, dir, "stash", "-q")
	write(t, filepath.Join(dir, "a.txt"), "one\nwork\n")
	write(t, filepath.Join(dir, "u.txt"), "untracked\n")
	write(t, filepath.Join(dir, "ignored.log"), "log\n")
	gitBefore := treeSum(t, filepath.Join(dir, ".git"))
	outBefore := treeSum(t, outside)

	state := t.TempDir()
	srv := llmtest.New(t,
		call("write_file", `{"path":"new.txt","content":"new\n"}`),
		call("edit_file", `{"path":"a.txt","edits":[{"old":"work","new":"WORK"}]}`),
		bashCall("rm c.txt && chmod -x b.sh && echo bash > bashnew.txt && mkdir -p deep/er && echo x > deep/er/f && echo changed > ignored.log && rm s.txt && ln -s "+secret+" s.txt"),
		llmtest.Turn{Text: "first done"},
		bashCall("echo two >> a.txt && rm u.txt"),
		llmtest.Turn{Text: "second done"},
		llmtest.Turn{Text: "noted"},
	)
	s := startREPL(t, dir, srv, []string{"XDG_STATE_HOME=" + state})
	s.ask("change things")
	s.expect("first done")
	s.ask("more")
	s.expect("second done")
	if got := readOr(t, filepath.Join(dir, "a.txt")); got != "one\nWORK\ntwo\n" {
		t.Fatalf("after the turns a.txt = %q", got)
	}

	s.ask("/undo")
	s.expect(`/undo: undid the turn "more"`)
	s.expect("restored: a.txt, u.txt")
	s.expect("(.gitignore'd files and files over 10 MB are never kept, so never put back)")
	if got := readOr(t, filepath.Join(dir, "a.txt")); got != "one\nWORK\n" {
		t.Errorf("after one /undo a.txt = %q", got)
	}
	if got := readOr(t, filepath.Join(dir, "u.txt")); got != "untracked\n" {
		t.Errorf("after one /undo u.txt = %q", got)
	}

	s.ask("/undo")
	s.expect(`/undo: undid the turn "change things"`)
	s.expect("removed: bashnew.txt, deep/er/f, new.txt")
	s.expect("› ")
	checks := map[string]string{"a.txt": "one\nwork\n", "c.txt": "see\n", "s.txt": "plain\n", "u.txt": "untracked\n", "ignored.log": "changed\n"}
	for name, want := range checks {
		if got := readOr(t, filepath.Join(dir, name)); got != want {
			t.Errorf("after two /undo %s = %q, want %q", name, got, want)
		}
	}
	for _, gone := range []string{"new.txt", "bashnew.txt", "deep"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
	if m := modeOf(t, filepath.Join(dir, "b.sh")); m.Perm()&0o100 == 0 {
		t.Errorf("b.sh mode %v: the execute bit is not back", m)
	}
	if m := modeOf(t, filepath.Join(dir, "s.txt")); !m.IsRegular() {
		t.Errorf("s.txt is %v, want a regular file", m)
	}
	sameTree(t, "outside the project", outBefore, treeSum(t, outside))

	// The model reads, with the next question, that the user undid both.
	s.ask("what now?")
	s.expect("noted")
	reqs := srv.ChatRequests()
	note := lastUser(t, reqs[len(reqs)-1])
	if !strings.Contains(note, `[The user ran /undo: the files changed during the turn that began with "more" are back`) ||
		!strings.Contains(note, `"change things"`) || !strings.HasSuffix(note, "what now?") {
		t.Errorf("the next question reads:\n%s", note)
	}
	// The fixed prefix is the same: the note is in the question, not in
	// the system prompt.
	if first, last := messagesOf(t, reqs[0])[0], messagesOf(t, reqs[len(reqs)-1])[0]; contentOf(first) != contentOf(last) {
		t.Errorf("the system prompt changed")
	}

	// An undo can be undone: /redo brings the first turn's changes back.
	s.ask("/redo")
	s.expect(`/redo: redid the turn "change things"`)
	s.expect("› ")
	if got := readOr(t, filepath.Join(dir, "new.txt")); got != "new\n" {
		t.Errorf("after /redo new.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.txt")); err == nil {
		t.Errorf("after /redo c.txt is back")
	}
	if m := modeOf(t, filepath.Join(dir, "s.txt")); m&fs.ModeSymlink == 0 {
		t.Errorf("after /redo s.txt is %v, want the link again", m)
	}
	// And /undo once more goes back again.
	s.ask("/undo")
	s.expect(`/undo: undid the turn "change things"`)
	s.expect("› ")
	if got := readOr(t, filepath.Join(dir, "a.txt")); got != "one\nwork\n" {
		t.Errorf("after undo, redo, undo a.txt = %q", got)
	}
	s.ask("/undo")
	s.expect("/undo: nothing to undo")
	s.expect("› ")
	if n := strings.Count(s.text(), "are never kept"); n != 1 {
		t.Errorf("what /undo never keeps is said %d times", n)
	}
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Errorf("exit: %v", err)
	}
	sameTree(t, "the user's .git", gitBefore, treeSum(t, filepath.Join(dir, ".git")))
	sameTree(t, "outside the project", outBefore, treeSum(t, outside))
	// The shadow repository is in the state directory, not the project.
	if m, _ := filepath.Glob(filepath.Join(state, "mm", "undo", "*", "git", "HEAD")); len(m) != 1 {
		t.Errorf("shadow repositories: %v", m)
	}
}

// A file the user changed after the turn is named, and put back only
// when the user says y.
func TestUndoAsksAboutFilesChangedAfter(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		call("write_file", `{"path":"p.txt","content":"model p\n"}`),
		llmtest.Turn{Text: "wrote p"},
		call("write_file", `{"path":"q.txt","content":"model q\n"}`),
		llmtest.Turn{Text: "wrote q"},
	)
	s := startREPL(t, dir, srv, []string{"XDG_STATE_HOME=" + t.TempDir()})
	s.ask("write p")
	s.expect("wrote p")
	s.ask("write q")
	s.expect("wrote q")
	s.expect("› ")
	write(t, filepath.Join(dir, "p.txt"), "mine p\n")
	write(t, filepath.Join(dir, "q.txt"), "mine q\n")

	s.send("/undo\r")
	s.expect("changed after the turn (by you or by something else): q.txt")
	s.expect("[y/N] ")
	s.send("n\r")
	s.expect("kept as you changed them after the turn: q.txt")
	s.expect("› ")
	if got := readOr(t, filepath.Join(dir, "q.txt")); got != "mine q\n" {
		t.Errorf("q.txt = %q, want the user's", got)
	}
	s.send("/undo\r")
	s.expect("changed after the turn (by you or by something else): p.txt")
	s.expect("[y/N] ")
	s.send("y\r")
	s.expect("removed: p.txt")
	s.expect("› ")
	if _, err := os.Stat(filepath.Join(dir, "p.txt")); err == nil {
		t.Errorf("p.txt is still there after y")
	}
}

// Without git on PATH: one notice under the banner, and /undo says it is
// unavailable.
func TestUndoWithoutGit(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	s := startREPL(t, dir, srv, []string{"PATH=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()})
	if n := strings.Count(s.text(), "[/undo is unavailable: git is not on PATH]"); n != 1 {
		t.Errorf("the banner says it %d times:\n%s", n, s.text())
	}
	s.ask("/undo")
	s.expect("[/undo is unavailable: git is not on PATH]")
	s.expect("› ")
}

// ACP: /undo is an available command; it puts bash's and the file tools'
// changes back, keeps a file changed after the turn (nobody can be asked
// in the middle of a command), and the next prompt's request tells the
// model.
func TestUndoACP(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "keep.txt"), "keep\n")
	write(t, filepath.Join(dir, "gone.txt"), "gone\n")
	srv := llmtest.New(t,
		toolCall("c1", "write_file", `{"path":"made.txt","content":"made\n"}`),
		toolCall("c2", "bash", `{"command":"rm gone.txt && echo bash >> keep.txt && echo m > mine.txt"}`),
		llmtest.Turn{Text: "changed"},
		llmtest.Turn{Text: "heard"},
	)
	c := startACP(t, dir, srv, []string{"XDG_STATE_HOME=" + t.TempDir()})
	c.initialize()
	sid := c.newSession(dir)
	_, u := c.waitUpdate(0, sid, "available_commands_update", func(u map[string]any) bool {
		return u["sessionUpdate"] == "available_commands_update"
	})
	var names []string
	for _, cmd := range u["availableCommands"].([]any) {
		names = append(names, cmd.(map[string]any)["name"].(string))
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "undo redo") {
		t.Errorf("available commands: %s", got)
	}
	if r := c.stopReason(c.prompt(sid, "change")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	write(t, filepath.Join(dir, "mine.txt"), "the user's\n")
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "/undo")); r != "end_turn" {
		t.Fatalf("/undo stopReason %q", r)
	}
	got := chunkText(c.updates(sid, from, -1), "agent_message_chunk")
	for _, want := range []string{`/undo: undid the turn "change"`, "restored: gone.txt, keep.txt", "removed: made.txt", "kept as you changed them after the turn: mine.txt"} {
		if !strings.Contains(got, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got)
		}
	}
	for name, want := range map[string]string{"keep.txt": "keep\n", "gone.txt": "gone\n", "mine.txt": "the user's\n"} {
		if got := readOr(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
		t.Errorf("made.txt is still there")
	}
	if r := c.stopReason(c.prompt(sid, "and now?")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	reqs := srv.ChatRequests()
	if note := lastUser(t, reqs[len(reqs)-1]); !strings.HasPrefix(note, `[The user ran /undo: the files changed during the turn that began with "change" are back`) {
		t.Errorf("the next question reads:\n%s", note)
	}
}

// ACP without git: /undo answers that it is unavailable.
func TestUndoACPWithoutGit(t *testing.T) {
	dir := t.TempDir()
	c := startACP(t, dir, llmtest.New(t), []string{"PATH=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()})
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "/undo")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if got := chunkText(c.updates(sid, from, -1), "agent_message_chunk"); got != "[/undo is unavailable: git is not on PATH]" {
		t.Errorf("answer %q", got)
	}
	if n := strings.Count(c.stderr.String(), "[/undo is unavailable: git is not on PATH]"); n != 1 {
		t.Errorf("stderr says it %d times:\n%s", n, c.stderr.String())
	}
}

// A turn stopped in the middle of a command is undone like any other:
// what the command wrote before Ctrl-C goes.
func TestUndoStoppedTurn(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "before\n")
	srv := llmtest.New(t, bashCall("echo after > a.txt; echo x > late.txt; sleep 30"))
	s := startREPL(t, dir, srv, []string{"XDG_STATE_HOME=" + t.TempDir()})
	s.ask("slow")
	s.expect("🛠️ bash: echo after > a.txt; echo x > late.txt; sleep 30")
	waitFor(t, "late.txt", func() bool { _, err := os.Stat(filepath.Join(dir, "late.txt")); return err == nil })
	s.send("\x03")
	s.expect("[turn stopped]")
	s.ask("/undo")
	s.expect(`/undo: undid the turn "slow"`)
	s.expect("restored: a.txt")
	s.expect("removed: late.txt")
	s.expect("› ")
	if got := readOr(t, filepath.Join(dir, "a.txt")); got != "before\n" {
		t.Errorf("a.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "late.txt")); err == nil {
		t.Errorf("late.txt is still there")
	}
}

// Without a terminal (mm < questions.txt), /undo works line by line.
func TestUndoPlainLineMode(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, call("write_file", `{"path":"w.txt","content":"w\n"}`), llmtest.Turn{Text: "wrote"})
	r := mm(t, dir, srv, []string{"XDG_STATE_HOME=" + t.TempDir()}, "write it\n/undo\n/undo\n")
	if !strings.Contains(r.stdout, "/undo: undid the turn \"write it\"\n  removed: w.txt") || !strings.Contains(r.stdout, "/undo: nothing to undo") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "w.txt")); err == nil {
		t.Errorf("w.txt is still there")
	}
}

// A file the project ignored before the turn, and that the turn did not
// touch, is not removed by /undo when the turn changed the .gitignore
// that ignored it (the snapshot after the turn had it, the one before
// had left it out); nor is a file over 10 MB the turn let be. What the
// turn made is removed.
func TestUndoKeepsFilesLeftOutBefore(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("secret.env\nsub/\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.env"), []byte("TOKEN=precious\n"), 0o600)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "built.o"), []byte("object\n"), 0o644)
	big := make([]byte, 10<<20+1)
	os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644)
	srv := llmtest.New(t,
		call("write_file", `{"path":".gitignore","content":"# nothing\n"}`),
		call("write_file", `{"path":"new.txt","content":"new\n"}`),
		bashCall("truncate -s 10 big.bin"),
		llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, []string{"XDG_STATE_HOME=" + t.TempDir(), "AGENT_YOLO=true"}, "tidy up\n/undo\n")
	if !strings.Contains(r.stdout, "/undo: undid the turn \"tidy up\"") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if got := readOr(t, filepath.Join(dir, "secret.env")); got != "TOKEN=precious\n" {
		t.Errorf("secret.env, ignored before the turn: %q", got)
	}
	if got := readOr(t, filepath.Join(dir, "sub", "built.o")); got != "object\n" {
		t.Errorf("sub/built.o, ignored before the turn: %q", got)
	}
	if got := readOr(t, filepath.Join(dir, ".gitignore")); got != "secret.env\nsub/\n" {
		t.Errorf(".gitignore: %q", got)
	}
	if fi, err := os.Stat(filepath.Join(dir, "big.bin")); err != nil {
		t.Errorf("big.bin, over 10 MB before the turn: %v", err)
	} else if fi.Size() != 10 {
		t.Errorf("big.bin: %d bytes", fi.Size())
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Errorf("new.txt, made by the turn, is still there")
	}
	_, report, _ := strings.Cut(r.stdout, "/undo: undid")
	if !strings.Contains(report, "removed: new.txt\n") || strings.Contains(report, "secret.env") || strings.Contains(report, "built.o") || strings.Contains(report, "big.bin") {
		t.Errorf("the report names a file left out:\n%s", report)
	}
}

// A name with a line break (or an escape, or bytes not UTF-8), made by a
// command, is named quoted in /undo's report: it cannot end the report's
// line and start one of its own making.
func TestUndoReportQuotesOddNames(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		bashCall(`touch "$(printf 'x\n  kept as you changed them after the turn: all\033[31m\377')" plain.txt`),
		llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, []string{"XDG_STATE_HOME=" + t.TempDir(), "AGENT_YOLO=true"}, "make them\n/undo\n")
	_, report, _ := strings.Cut(r.stdout, "/undo: undid")
	want := `  removed: plain.txt, "x\n  kept as you changed them after the turn: all\x1b[31m\xff"` + "\n"
	if !strings.Contains(report, want) || strings.Contains(report, "\n  kept") {
		t.Errorf("report:\n%s\nwant the line %q", report, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left: %v", entries)
	}
}
