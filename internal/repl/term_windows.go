package repl

import "golang.org/x/term"

// keysMode on Windows: the console's raw mode (no line input, no echo,
// Ctrl-C as a byte rather than a console event); output goes through its
// own handle, so "\n" still returns the carriage.
func keysMode(fd int) (restore func(), err error) {
	st, err := term.MakeRaw(fd)
	if err != nil {
		return func() {}, err
	}
	return func() { _ = term.Restore(fd, st) }, nil
}
