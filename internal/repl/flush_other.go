//go:build !linux

package repl

// flushInput: elsewhere the keys typed ahead are not dropped; the question
// still needs one of its own keys.
func flushInput(fd int) {}
