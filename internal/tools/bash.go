package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"mm/internal/config"
	"mm/internal/procguard"
	"mm/internal/textcut"
)

// DefaultBashTimeout is bashTimeout's default, used when BashOptions.Timeout
// is not positive.
const DefaultBashTimeout = 30 * time.Second

// NoOutput is what the model reads for a command that printed nothing and
// exited 0: an empty tool result confuses small models, which tend to run
// the same command again to "see" its output.
const NoOutput = "(no output)"

// Texts the model reads; they sit at the end of the output so that Truncate,
// which keeps the tail, never cuts them.
const (
	bashNeedsCommand = "[error: bash needs a command]"
	bashCancelled    = "[error: cancelled]"
	bashTooLarge     = "[... output too large to read back in full ...]"
)

// The output is read back whole up to bashReadAll bytes; above that only
// bashReadEnd bytes of each end, so a command printing gigabytes never lands
// in memory.
const (
	bashReadAll = 2 << 20
	bashReadEnd = 1 << 20
)

// BashOutputCap is the most a command may print: past it, the command is
// killed, and so is a job left running that keeps printing to the output
// file nobody reads any more (even after mm's exit). 64 MiB is 32 times
// what is ever read back (bashReadAll), so a verbose build or test run
// still ends by itself and its tail is read back; a runaway one (`yes`, a
// loop) reaches it in well under a second at disk speed, and the disk
// never holds much more than that per call.
const BashOutputCap = 64 << 20

// bashCapPoll is how often the output's size is checked while the
// command runs.
const bashCapPoll = 10 * time.Millisecond

var bashCapMarker = fmt.Sprintf("[error: output passed %d MiB — command killed]", BashOutputCap>>20)

// bashTermGrace is how long a timed-out command gets between SIGTERM and
// SIGKILL: enough for a test runner or a compiler to clean up, short
// enough for the turn to go on at once.
const bashTermGrace = time.Second

// bashReapWait bounds the wait for the shell after SIGKILL. A process stuck
// in uninterruptible sleep (a dead NFS mount) cannot die; the call returns
// anyway rather than hang the turn.
const bashReapWait = 5 * time.Second

//go:embed bash.md
var bashDescription string

const bashSchema = `{"type":"object","properties":{"command":{"type":"string","description":"Shell command to run."}},"required":["command"]}`

// BashOptions configures the bash tool.
type BashOptions struct {
	Dir     string        // working directory ("" = the process's)
	Timeout time.Duration // bashTimeout; DefaultBashTimeout when <= 0
	Env     []string      // environment for the shell (nil = os.Environ())
	// Path is the shell that runs the commands: the bash LookBash found
	// when the tool was declared, so what runs is what was declared ("" =
	// "bash", looked up on each call).
	Path string
	// MaxOutput is maxOutput. An output too large to read back in full is
	// cut here, around its marker, to fit it: cut again by the agent, the
	// marker would be lost in the middle. 0 keeps both 1 MiB ends.
	MaxOutput int
	// Sandbox confines each command (nil: not at all): see
	// procguard.Sandbox.
	Sandbox *procguard.Sandbox
}

func (o BashOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultBashTimeout
	}
	return o.Timeout
}

// NoBashWarning is the start-up warning when bashTool is on and LookBash
// finds none: the user is told why the tool is missing.
const NoBashWarning = "[warning: no bash on the PATH — the bash tool is not declared (on Windows, Git for Windows provides bash.exe)]"

// LookBash is the bash the tool runs: `bash` on the PATH (on Windows, Git
// for Windows' bash.exe, an MSYS bash that takes `bash -c` too), or an
// error when there is none and the tool must not be declared. A bash found
// only through a relative PATH entry (exec.ErrDot) counts as none: it
// would be the project's, not the user's. On Windows the launcher of WSL
// (System32's bash.exe, WindowsApps' alias) is passed over: commands would
// run in a Linux of their own, on other paths.
func LookBash() (string, error) { return lookBash() }

// firstBash is the first file name in the directories of list (a PATH)
// that is a regular file and whose directory skip does not pass over; a
// relative directory is passed over too (it would be the project's).
func firstBash(list, name string, skip func(dir string) bool) (string, error) {
	for _, dir := range filepath.SplitList(list) {
		if dir == "" || !filepath.IsAbs(dir) || skip(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

// skipWSL says whether the Windows directory dir holds a WSL launcher
// rather than a bash: System32 (system32 names it) or a WindowsApps
// directory of execution aliases. Plain string work, so that it is tested
// on every platform.
func skipWSL(dir, system32 string) bool {
	norm := func(s string) string { return strings.TrimRight(strings.ToLower(strings.ReplaceAll(s, "/", `\`)), `\`) }
	d := norm(dir)
	return (system32 != "" && d == norm(system32)) || strings.HasSuffix(d, `\windowsapps`)
}

// NewBash returns the bash tool. Every call mutates: a shell command can do
// anything.
func NewBash(opts BashOptions) *Tool {
	desc := strings.ReplaceAll(strings.TrimSpace(bashDescription), "<bashTimeout>", config.FormatDuration(opts.timeout()))
	return &Tool{
		Name:        "bash",
		Description: desc,
		Schema:      MustSchema(bashSchema),
		SchemaText:  bashSchema,
		Kind:        KindExecute,
		Mutates:     func(json.RawMessage) bool { return true },
		Summary: func(args json.RawMessage) string {
			if cmd, ok := bashCommand(args); ok {
				return cmd
			}
			return string(args)
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			cmd, ok := bashCommand(args)
			if !ok {
				return bashNeedsCommand
			}
			return RunBash(ctx, opts, cmd)
		},
		Prefix:       BashPrefix,
		PrefixAllows: BashPrefixAllows,
	}
}

// bashCommand extracts the command from the call's arguments.
func bashCommand(args json.RawMessage) (string, bool) {
	var a struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(args, &a); err != nil || strings.TrimSpace(a.Command) == "" {
		return "", false
	}
	return a.Command, true
}

// RunBash runs command with `bash -c` and returns what the model reads:
// stdout and stderr merged, then a marker line for a timeout, a
// cancellation or a non-zero exit. It never truncates to maxOutput; the
// caller does.
func RunBash(ctx context.Context, opts BashOptions, command string) string {
	if strings.TrimSpace(command) == "" {
		return bashNeedsCommand
	}
	if ctx.Err() != nil {
		return bashCancelled
	}

	// A file, not a pipe: with a pipe, Wait would also wait for every
	// background job holding its write end (`serve &`) and the turn would
	// hang. With a file, Wait returns when the shell exits.
	w, err := os.CreateTemp("", "mm-bash-*")
	if err != nil {
		return fmt.Sprintf("[error: %v]", err)
	}
	// mm keeps a read-only descriptor: a job still writing is then seen
	// through a read lease (procguard.Writing), which our own write
	// descriptor would block.
	out, err := os.Open(w.Name())
	// Unlinked at once: the descriptors keep it readable, and nothing is
	// left in the temp dir even if mm dies mid-command. A background job
	// keeps writing to the unlinked file, which the kernel frees when the
	// job exits; the guardian kills it when the file passes the cap.
	os.Remove(w.Name())
	if err != nil {
		w.Close()
		return fmt.Sprintf("[error: %v]", err)
	}
	defer out.Close()

	shell := opts.Path
	if shell == "" {
		shell = "bash"
	}
	cmd := exec.Command(shell, "-c", command)
	cmd.Dir = opts.Dir
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	// The cookie finds the processes that leave the group (setsid).
	cookie := procguard.NewCookie()
	cmd.Env = append(env[:len(env):len(env)], cookie)
	// The same *os.File for both: one descriptor, one offset, so stdout and
	// stderr interleave in the order they were written, and os/exec starts
	// no copying goroutine.
	cmd.Stdout = w
	cmd.Stderr = w
	// Stdin nil is /dev/null. Own process group, so a timeout or a
	// cancellation kills everything the command started, not just bash.
	// Tied to mm: killed with it, even by SIGKILL (Pdeathsig on Linux);
	// the guardian kills the rest of the group then (all of it on macOS).
	procguard.Tie(cmd)
	procguard.NoTerminal(cmd) // no /dev/tty: nothing the command writes reaches the screen unread
	// The sandbox: on macOS the shell is wrapped here; on Linux enter
	// confines the thread that forks it, below.
	enter, err := procguard.Confine(cmd, opts.Sandbox)
	if err != nil {
		w.Close()
		return fmt.Sprintf("[error: %v]", err)
	}
	job := procguard.Watch(cookie, out, BashOutputCap)
	defer job.Finished()

	// Pdeathsig fires when the thread that started the child exits: the
	// goroutine keeps its thread locked until the shell is reaped.
	started := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the shell
		// Never unlocked matters here too: the sandbox's rules, once on
		// this thread, must not confine mm's other goroutines. A command
		// that cannot be confined does not run.
		if enter != nil {
			if err := enter(); err != nil {
				started <- err
				return
			}
		}
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		done <- cmd.Wait()
	}()
	err = <-started
	w.Close() // the shell has its own
	if err != nil {
		return fmt.Sprintf("[error: %v]", err)
	}
	pgid := cmd.Process.Pid
	job.Started(pgid)

	timeout := opts.timeout()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	// The output's size is watched while the command runs: fstat is
	// cheap, and at about 1 GB/s (`yes`) a poll lets 10 MiB past the cap.
	poll := time.NewTicker(bashCapPoll)
	defer poll.Stop()

	var marker string
wait:
	for {
		select {
		case err := <-done:
			if err != nil {
				var exitErr *exec.ExitError
				if errors.As(err, &exitErr) {
					marker = "[exit code: " + exitErr.ProcessState.String() + "]"
				} else {
					marker = fmt.Sprintf("[error: %v]", err)
				}
			}
			break wait
		case <-poll.C:
			if info, err := out.Stat(); err == nil && info.Size() > BashOutputCap {
				marker = bashCapMarker
				killAll(pgid, cookie, out, done)
				break wait
			}
		case <-timer.C:
			marker = fmt.Sprintf("[error: %s timeout exceeded]", config.FormatDuration(timeout))
			procguard.StopGroup(pgid)
			select {
			case <-done:
				// Even when bash died of SIGTERM, a child that ignores it
				// may still be in the group: finish it off.
				procguard.KillGroup(pgid)
				procguard.Sweep(pgid, cookie, out)
			case <-time.After(bashTermGrace):
				killAll(pgid, cookie, out, done)
			}
			break wait
		case <-ctx.Done():
			// The user cancelled the turn: no grace, they are waiting.
			marker = bashCancelled
			killAll(pgid, cookie, out, done)
			break wait
		}
	}

	text, err := readBack(out, opts.MaxOutput)
	if err != nil {
		text = appendLine(text, fmt.Sprintf("[error: reading the output: %v]", err))
	}
	if marker != "" {
		text = appendLine(text, marker)
	}
	// A command refused by the sandbox says so last, once: a small model
	// otherwise tries the same write again and again. Where bash runs
	// unconfined (the start-up warning said so), nothing was the
	// sandbox's.
	if procguard.SandboxUnavailable() == "" {
		if line := opts.Sandbox.Refusal(text, marker != "", cmd.Dir); line != "" {
			text = appendLine(text, line)
		}
	}
	if text == "" {
		return NoOutput
	}
	return text
}

// appendLine puts line on a line of its own at the end of text.
func appendLine(text, line string) string {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text + line
}

// killAll SIGKILLs the process group and what left it (procguard.Sweep),
// and waits, boundedly, for bash to be reaped, so the output file is
// complete when it is read back.
func killAll(pgid int, cookie string, out *os.File, done <-chan error) {
	procguard.KillGroup(pgid)
	procguard.Sweep(pgid, cookie, out)
	select {
	case <-done:
	case <-time.After(bashReapWait):
	}
}

// readBack reads the merged output as valid UTF-8: the whole file up to
// bashReadAll bytes, else its two ends around a marker line, each end cut so
// that the whole fits maxOutput (when > 0) with room for the exit line. It
// reads the size seen now: a background job may still be appending.
func readBack(f *os.File, maxOutput int) (string, error) {
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := info.Size()
	if size <= bashReadAll {
		buf := make([]byte, size)
		n, err := io.ReadFull(io.NewSectionReader(f, 0, size), buf)
		if err == io.ErrUnexpectedEOF {
			err = nil // truncated by the command itself; keep what is there
		}
		return strings.ToValidUTF8(string(buf[:n]), "\uFFFD"), err
	}
	head := make([]byte, bashReadEnd)
	if _, err := f.ReadAt(head, 0); err != nil {
		return "", err
	}
	tail := make([]byte, bashReadEnd)
	if _, err := f.ReadAt(tail, size-bashReadEnd); err != nil {
		return "", err
	}
	// Cut on rune boundaries, so a character split by the cut is dropped
	// rather than shown as replacement characters.
	head = textcut.TrimPartialEnd(head)
	tail = textcut.TrimPartialStart(tail)
	h, t := strings.ToValidUTF8(string(head), "\uFFFD"), strings.ToValidUTF8(string(tail), "\uFFFD")
	if budget := maxOutput - bashMarkerRoom; budget > 0 {
		keepTail := min(TailKeep, budget/2)
		h, t = textcut.FirstRunes(h, budget-keepTail), textcut.LastRunes(t, keepTail)
	}
	return h + "\n" + bashTooLarge + "\n" + t, nil
}

// bashMarkerRoom is what the marker and a closing exit or timeout line take
// at most, kept out of maxOutput's budget for the two ends.
const bashMarkerRoom = 200
