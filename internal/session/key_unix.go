//go:build unix

package session

import (
	"fmt"
	"os"
	"syscall"
)

// keyFileOpen says why a key file is not private to the user ("" when it
// is): others may read it (and so sign sessions as the user) or write it,
// or it is another user's.
func keyFileOpen(fi os.FileInfo) string {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("is open to other users (mode %04o, want 0600)", perm)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Sprintf("belongs to another user (uid %d)", st.Uid)
	}
	return ""
}
