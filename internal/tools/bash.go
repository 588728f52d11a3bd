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
	"strings"
	"syscall"
	"time"

	"mm/internal/config"
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

const bashSchema = `{"type":"object","properties":{"command":{"type":"string","description":"The shell command to run."}},"required":["command"]}`

// BashOptions configures the bash tool.
type BashOptions struct {
	Dir     string        // working directory ("" = the process's)
	Timeout time.Duration // bashTimeout; DefaultBashTimeout when <= 0
	Env     []string      // environment for the shell (nil = os.Environ())
	// MaxOutput is maxOutput. An output too large to read back in full is
	// cut here, around its marker, to fit it: cut again by the agent, the
	// marker would be lost in the middle. 0 keeps both 1 MiB ends.
	MaxOutput int
}

func (o BashOptions) timeout() time.Duration {
	if o.Timeout <= 0 {
		return DefaultBashTimeout
	}
	return o.Timeout
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
	out, err := os.CreateTemp("", "mm-bash-*")
	if err != nil {
		return fmt.Sprintf("[error: %v]", err)
	}
	defer out.Close()
	// Unlinked at once: our descriptor and the shell's keep it readable, and
	// nothing is left in the temp dir even if mm dies mid-command. A
	// background job keeps writing to the unlinked file, which the kernel
	// frees when the job exits.
	os.Remove(out.Name())

	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	// The same *os.File for both: one descriptor, one offset, so stdout and
	// stderr interleave in the order they were written, and os/exec starts
	// no copying goroutine.
	cmd.Stdout = out
	cmd.Stderr = out
	// Stdin nil is /dev/null. Own process group, so a timeout or a
	// cancellation kills everything the command started, not just bash.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Sprintf("[error: %v]", err)
	}
	pgid := cmd.Process.Pid

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	timeout := opts.timeout()
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	var marker string
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
	case <-timer.C:
		marker = fmt.Sprintf("[error: %s timeout exceeded]", config.FormatDuration(timeout))
		syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-done:
			// Even when bash died of SIGTERM, a child that ignores it
			// may still be in the group: finish it off.
			syscall.Kill(-pgid, syscall.SIGKILL)
		case <-time.After(bashTermGrace):
			killGroup(pgid, done)
		}
	case <-ctx.Done():
		// The user cancelled the turn: no grace, they are waiting.
		marker = bashCancelled
		killGroup(pgid, done)
	}

	text, err := readBack(out, opts.MaxOutput)
	if err != nil {
		text = appendLine(text, fmt.Sprintf("[error: reading the output: %v]", err))
	}
	if marker != "" {
		text = appendLine(text, marker)
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

// killGroup SIGKILLs the process group and waits, boundedly, for bash to be
// reaped, so the output file is complete when it is read back.
func killGroup(pgid int, done <-chan error) {
	syscall.Kill(-pgid, syscall.SIGKILL)
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
