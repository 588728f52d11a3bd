package atomicfile

// Windows has no owner uid nor access(2) as Go's os package sees a file:
// a file is read-only when its read-only attribute is set (os reports it
// as a mode without write bits), and the rename over it (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING) keeps the directory's ACLs for the new file.

import (
	"fmt"
	"os"
)

// CheckReplace refuses a read-only file (see the Unix version for why a
// rename over it must be refused). Ownership is not checked on Windows.
func CheckReplace(abs string, prev os.FileInfo) error {
	if perm := prev.Mode().Perm(); perm&0o222 == 0 {
		return &RefusedError{Why: fmt.Sprintf("is read-only (mode %04o)", perm)}
	}
	return nil
}

func keepOwner(f *os.File, prev os.FileInfo) {}

// ownedByMe: Windows gives no owner through os.FileInfo; the sweep keeps
// to mm's own name pattern, regular files and StaleAfter.
func ownedByMe(info os.FileInfo) bool { return true }
