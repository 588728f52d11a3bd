// Package interrupt gives `mm -p` its Ctrl-C: the first SIGINT or SIGTERM
// stops the running turn (the model call is dropped, the command killed),
// and a second one ends mm at once, whatever it is still doing (a command
// that takes its time to die, a language server slow to shut down): a
// user who presses Ctrl-C twice never waits.
package interrupt

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exit ends the process; tests replace it.
var exit = os.Exit

// Context returns a context that the first SIGINT or SIGTERM cancels. A
// second signal writes "[interrupted]" to w and exits at once with the
// shell's code for it (130 for SIGINT, 143 for SIGTERM). stop stops
// watching the signals.
func Context(parent context.Context, w io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		first := true
		for {
			select {
			case s := <-sigs:
				if first {
					first = false
					cancel()
					continue
				}
				fmt.Fprintln(w, "[interrupted]")
				exit(Code(s))
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// Code is the exit code a shell reports for a process ended by s.
func Code(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 130
}
