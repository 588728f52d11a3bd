//go:build unix

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The child started by -background learns from these where its pid file
// is and that file descriptor 3 waits for its address.
const (
	envPidFile = "LLMTEST_PIDFILE"
	readyFD    = 3
)

// How long -background waits for the server to listen, and -stop for it
// to end: ceilings, not expected times.
const (
	startCeiling = 60 * time.Second
	stopCeiling  = 15 * time.Second
)

// files are the pid file and the default log of the background server on
// addr, in the temporary directory.
func files(addr string) (pidFile, logFile string) {
	name := "llmtest-" + strings.NewReplacer(":", "-", "/", "-", "[", "", "]", "").Replace(addr)
	dir := os.TempDir()
	return filepath.Join(dir, name+".pid"), filepath.Join(dir, name+".log")
}

func inBackground() bool { return os.Getenv(envPidFile) != "" }

// backgroundReady, in the background child, writes the pid file and then
// hands the parent the server's address.
func backgroundReady(root string) error {
	pidFile := os.Getenv(envPidFile)
	if pidFile == "" {
		return nil
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		return err
	}
	ready := os.NewFile(readyFD, "ready")
	defer ready.Close()
	_, err := fmt.Fprintln(ready, root)
	return err
}

// backgroundDone, in the child, removes its pid file on the way out.
func backgroundDone() {
	pidFile := os.Getenv(envPidFile)
	if pidFile == "" {
		return
	}
	if b, err := os.ReadFile(pidFile); err == nil && strings.TrimSpace(string(b)) == strconv.Itoa(os.Getpid()) {
		os.Remove(pidFile)
	}
}

// startBackground starts this program again with args in a session of its
// own, its standard output and error in the log file, and returns once it
// listens (or has failed), printing the address and how to stop it.
func startBackground(args []string, addr, logFile string, stdout, stderr io.Writer) int {
	pidFile, defaultLog := files(addr)
	if logFile == "" {
		logFile = defaultLog
	}
	if pid, ok := running(pidFile); ok {
		fmt.Fprintf(stderr, "llmtest: a server is already running in the background on %s (pid %d); stop it with: %s\n", addr, pid, stopCommand(addr))
		return 1
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(stderr, err)
	}
	log, err := os.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o644)
	if err != nil {
		return fail(stderr, err)
	}
	defer log.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return fail(stderr, err)
	}
	defer r.Close()
	// The last -background on the command line wins: the child serves.
	cmd := exec.Command(exe, append(append([]string(nil), args...), "-background=false")...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.ExtraFiles = []*os.File{w} // descriptor 3
	cmd.Env = append(os.Environ(), envPidFile+"="+pidFile)
	// A session of its own: closing the terminal or Ctrl-C in it does not
	// reach the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return fail(stderr, err)
	}
	w.Close()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	var root string
	select {
	case root = <-line:
	case <-time.After(startCeiling):
		cmd.Process.Kill()
	}
	if root == "" {
		// It ended before listening: its log says why.
		cmd.Wait()
		out, _ := os.ReadFile(logFile)
		out = bytes.TrimSpace(out)
		if len(out) == 0 {
			out = []byte(fmt.Sprintf("llmtest: the server did not start within %s", startCeiling))
		}
		fmt.Fprintf(stderr, "%s\n", out)
		return 1
	}
	pid := cmd.Process.Pid
	cmd.Process.Release()
	fmt.Fprintf(stdout, "llmtest: serving %s in the background (pid %d), its log in %s\n", root, pid, logFile)
	fmt.Fprintf(stdout, "AGENT_BASE_URL=%s/v1\n", root)
	fmt.Fprintf(stdout, "stop it with: %s\n", stopCommand(addr))
	return 0
}

func stopCommand(addr string) string {
	cmd := "go run ./cmd/llmtest"
	// A built binary is named by its path; `go run` builds in a go-build
	// temporary directory that is gone once it returns.
	if exe, err := os.Executable(); err == nil && !strings.Contains(exe, "go-build") {
		cmd = exe
	}
	if addr == "127.0.0.1:8080" {
		return cmd + " -stop"
	}
	return cmd + " -stop -addr " + addr
}

// stop ends the background server on addr and waits until it is gone.
func stop(addr string, stdout, stderr io.Writer) int {
	pidFile, _ := files(addr)
	pid, ok := running(pidFile)
	if !ok {
		fmt.Fprintf(stderr, "llmtest: no server running in the background on %s\n", addr)
		return 1
	}
	syscall.Kill(pid, syscall.SIGTERM)
	deadline := time.Now().Add(stopCeiling)
	for alive(pid, pidFile) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	os.Remove(pidFile)
	fmt.Fprintf(stdout, "llmtest: stopped the server on %s (pid %d)\n", addr, pid)
	return 0
}

// running reads the pid file: the pid of a live background server, or
// false (a stale file is removed).
func running(pidFile string) (int, bool) {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || !alive(pid, pidFile) {
		os.Remove(pidFile)
		return 0, false
	}
	return pid, true
}

// alive reports whether pid is a live process, and on Linux that it is
// the server of pidFile: a pid left in a stale file may since belong to
// another program, which must not be signalled.
func alive(pid int, pidFile string) bool {
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	if runtime.GOOS != "linux" {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
		if f := strings.Fields(string(stat[i+1:])); len(f) > 0 && f[0] == "Z" {
			return false // ended, not reaped yet
		}
	}
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	env = append([]byte{0}, env...)
	return err == nil && bytes.Contains(env, []byte("\x00"+envPidFile+"="+pidFile+"\x00"))
}
