//go:build unix

package repl

import "golang.org/x/sys/unix"

// keysMode puts the terminal in the mode a running turn needs: keys arrive
// one at a time without echo, and Ctrl-C arrives as a byte (not SIGINT) so
// it can cancel the turn like Esc. Output processing is kept: "\n" still
// returns the carriage, so the streamed answer prints normally. It returns
// the function that restores the previous mode.
func keysMode(fd int) (restore func(), err error) {
	old, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return func() {}, err
	}
	t := *old
	t.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	t.Iflag &^= unix.IXON | unix.ICRNL
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &t); err != nil {
		return func() {}, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, old) }, nil
}
