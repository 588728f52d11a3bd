package procguard

// Windows has no guardian: no process groups to sweep, no cookie to find
// in another process's environment, no descriptor passing. What it has is
// a Job object: every child tied to mm joins mm's job, which the system
// kills whole when its last handle (mm's, never inherited) closes, that is
// when mm exits or is killed. A bash call is a plain process in that job:
// a timeout kills the shell and what it started in the job; a job left
// running after the call keeps running until mm exits, without the output
// cap; nothing that breaks away from the job is found.

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

const hasPdeathsig = false

// Tie prepares cmd, before it starts, as a child that must not outlive
// mm: a process group of its own (Ctrl-C in mm's console is mm's), and
// mm's kill-on-close job once started (StartTied, or Job.Started for the
// bash shell).
func Tie(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// NoTerminal is the Unix one's counterpart; on Windows the console is
// not detached (a console program without one would open a window).
func NoTerminal(*exec.Cmd) {}

var (
	jobOnce sync.Once
	job     windows.Handle // 0 = none: children are then not tied
)

// mmJob is mm's Job object, created once and never closed: its handle is
// what keeps the children alive.
func mmJob() windows.Handle {
	jobOnce.Do(func() {
		h, err := windows.CreateJobObject(nil, nil)
		if err != nil {
			return
		}
		var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
		if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
			uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
			windows.CloseHandle(h)
			return
		}
		job = h
	})
	return job
}

// assign puts process pid into mm's job. What the child started before
// this (a few instructions after CreateProcess) is not in it.
func assign(pid int) {
	j := mmJob()
	if j == 0 {
		return
	}
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	windows.AssignProcessToJobObject(j, p)
	windows.CloseHandle(p)
}

func hold(cmd *exec.Cmd) (release func()) {
	if cmd.Process != nil {
		assign(cmd.Process.Pid)
	}
	return func() {}
}

// Job is one call; on Windows only its shell's joining mm's job.
type Job struct{ id string }

// Watch has no guardian to tell on Windows.
func Watch(cookie string, out *os.File, limit int64) *Job { return &Job{id: cookie} }

// Started puts the call's shell into mm's job.
func (j *Job) Started(pid int) { assign(pid) }

// Finished has nothing to tell.
func (j *Job) Finished() {}

// Sweep kills the call's shell; what it started and left is found by
// nothing on Windows (it dies with mm's job).
func Sweep(pid int, cookie string, out *os.File) int {
	KillGroup(pid)
	return 0
}

// Writing cannot tell on Windows: it says nobody writes.
func Writing(f *os.File) bool { return false }

// StopGroup ends the tied child pid: Windows has no polite signal for a
// process without a window, so it is killed; what it started stays in
// mm's job until mm exits.
func StopGroup(pid int) { KillGroup(pid) }

// KillGroup kills the tied child pid; what it started stays in mm's job
// until mm exits.
func KillGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil && pid > 0 {
		p.Kill()
	}
}

// Exited reports whether pid has exited before it was waited for. Windows
// says nothing of it here: a hook is late until its Wait returns.
func Exited(pid int) bool { return false }
