package procguard

import (
	"fmt"
	"os"
	"os/exec"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

var platformTempDirs = []string{"/tmp", "/dev/shm"}

// sandboxUnavailable: Landlock needs a kernel that has it (5.13 and
// later) with it enabled at boot (lsm=…,landlock).
func sandboxUnavailable() string {
	if v, err := ll.LandlockGetABIVersion(); err != nil || v < 1 {
		return "this kernel has no Landlock"
	}
	return ""
}

// confine returns the function that confines the calling thread. The
// ruleset is built anew for each command (a directory created since is
// found; it costs some tens of microseconds: BenchmarkSandboxEnter), in
// best effort: what an older kernel cannot restrict (TCP before ABI 4,
// UDP before ABI 10, ioctl, truncate) stays allowed.
func confine(cmd *exec.Cmd, s *Sandbox) (func() error, error) {
	return s.enter, nil
}

// enter builds s's Landlock ruleset and enforces it on the calling OS
// thread only (no TSYNC, no psx): the caller has locked its goroutine to
// that thread for good, so the Go runtime ends the thread with the
// goroutine instead of running mm's code on it, and the shell it forks
// inherits the domain. Reads and execution are allowed everywhere;
// writes under s.Writable and to the writable devices; with the network
// off, no TCP (nor, where the kernel has it, UDP, pathname Unix sockets
// and abstract Unix sockets outside the command).
func (s *Sandbox) enter() error {
	cfg := landlock.Config{HandledAccessFS: landlock.V11.HandledAccessFS &^ ll.AccessFSResolveUnix}
	if !s.Network {
		cfg.HandledAccessFS = landlock.V11.HandledAccessFS
		cfg.HandledAccessNet = landlock.V11.HandledAccessNet
		cfg.Scoped = ll.ScopeAbstractUnixSocket
	}
	// A writable entry that is a file gets the file rights (directory
	// rights on a file are refused by the kernel); a missing one is
	// skipped.
	var dirs, files []string
	for _, w := range s.Writable {
		if fi, err := os.Stat(w); err == nil && fi.IsDir() {
			dirs = append(dirs, w)
		} else if err == nil {
			files = append(files, w)
		}
	}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(
		landlock.RODirs("/"),
		landlock.RWDirs(dirs...).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles(files...).IgnoreIfMissing(),
		landlock.RWFiles(writableDevices...).WithIoctlDev().IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("sandbox: %v", err)
	}
	if fd < 0 {
		return nil // nothing the kernel can restrict
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %v", err)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("sandbox: landlock_restrict_self: %v", err)
	}
	return nil
}
