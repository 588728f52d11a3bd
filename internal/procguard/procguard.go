// Package procguard keeps what mm starts from outliving its welcome:
//
//   - Sweep kills what a timed-out or cancelled command left, including
//     what escaped its process group (setsid): every process that holds
//     the call's output file open (Linux), and every process whose
//     environment carries the call's cookie (MM_CALL=<id>, the way
//     Jenkins' ProcessTreeKiller finds a build's processes);
//   - Writing tells whether anyone still holds the output file open for
//     writing (a job left running), from a read lease (Linux): O(1), no
//     /proc scan;
//   - a guardian process (mm itself re-executed, see guardian_unix.go)
//     holds the output files of the calls and their process groups: it
//     kills a running call's processes when mm dies, even by SIGKILL, and
//     kills a job left running once its output passes the cap, even after
//     mm has exited;
//   - Tie and StartTied keep mm's long-lived children (the bash shell,
//     language servers, MCP servers, asked agents) from outliving mm.
//
// What each platform does is in docs/platforms.md (## Processes): Linux
// uses its own facts (Pdeathsig, inotify, /proc, leases); macOS the
// portable path (the guardian sees mm's death as the EOF of a socket only
// mm holds, and kills the tied children's groups; a bounded poll for the
// caps); Windows a Job object that kills the children when mm's handle
// closes, and no guardian.
package procguard

import (
	"crypto/rand"
	"encoding/hex"
	"os"
)

// CookieVar is the variable each call's environment gets: MM_CALL=<id>.
const CookieVar = "MM_CALL"

// NewCookie returns a fresh "MM_CALL=<id>" for one call.
func NewCookie() string {
	var b [12]byte
	rand.Read(b[:])
	return CookieVar + "=" + hex.EncodeToString(b[:])
}

// PortableVar, set to 1 in mm's own environment, makes Linux take the
// path macOS takes (no parent-death signal, no inotify), so that the
// tests exercise it on a machine without a Mac. It is read from mm's
// environment when mm starts, which the model does not set (a command
// that sets it only affects an mm it starts itself).
const PortableVar = "MM_PROCGUARD_PORTABLE"

// portable is the test hook: true where the portable path is taken.
// Tests of this package set it; mm reads PortableVar.
var portable = os.Getenv(PortableVar) == "1" || !hasPdeathsig
