package atomicfile

// Windows has no owner uid nor access(2) as Go's os package sees a file:
// a file is read-only when its read-only attribute is set (os reports it
// as a mode without write bits), and the rename over it (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING) keeps the directory's ACLs for the new file.

import (
	"fmt"
	"os"

	"golang.org/x/sys/windows"
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

// ownedByMe says whether the sweep may remove the temporary file p: its
// owner SID (in the file's security descriptor: os.FileInfo has none)
// must be the process's user. Anything that cannot be read (no access, an
// elevated process whose files belong to Administrators) is kept: a stray
// file is harmless, deleting another user's is not.
func ownedByMe(p string, _ os.FileInfo) bool {
	sd, err := windows.GetNamedSecurityInfo(p, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return false
	}
	fileOwner, _, err := sd.Owner()
	if err != nil || fileOwner == nil {
		return false
	}
	user, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return false
	}
	return fileOwner.Equals(user.User.Sid)
}
