//go:build !unix

package main

import (
	"errors"
	"io"
)

var errNoBackground = errors.New("-background and -stop need a Unix system; run the server in a terminal of its own")

func inBackground() bool                    { return false }
func backgroundReady(string) error          { return nil }
func backgroundDone()                       {}
func stop(string, io.Writer, io.Writer) int { return fail(io.Discard, errNoBackground) }

func startBackground(_ []string, _, _ string, _, stderr io.Writer) int {
	return fail(stderr, errNoBackground)
}
