package main_test

// A configuration is a regular file of at most 1 MiB, however mm finds it
// (-c, ./agent.yaml, the XDG file) and through any link: /dev/zero read
// for ever grew mm to gigabytes, a FIFO blocked its start.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigMustBeASmallRegularFile(t *testing.T) {
	const notRegular = ": cannot read the file: it is not a regular file (a configuration is a file of at most 1 MiB)]\n"
	fifo := func(t *testing.T, path string) string {
		if err := makeFIFO(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	link := func(t *testing.T, target, path string) string {
		if err := os.Symlink(target, path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cases := []struct {
		name string
		// setup prepares dir (mm's directory) and xdg and returns mm's
		// arguments before -p and the path the error names.
		setup func(t *testing.T, dir, xdg string) (args []string, shown string)
		tail  string
	}{
		{"dev-zero", func(t *testing.T, dir, xdg string) ([]string, string) {
			return []string{"-c", "/dev/zero"}, "/dev/zero"
		}, notRegular},
		{"link-to-dev-zero", func(t *testing.T, dir, xdg string) ([]string, string) {
			p := link(t, "/dev/zero", filepath.Join(dir, "zero.yaml"))
			return []string{"-c", p}, p
		}, notRegular},
		{"fifo", func(t *testing.T, dir, xdg string) ([]string, string) {
			p := fifo(t, filepath.Join(dir, "pipe.yaml"))
			return []string{"-c", p}, p
		}, notRegular},
		{"directory", func(t *testing.T, dir, xdg string) ([]string, string) {
			return []string{"-c", dir}, dir
		}, ": cannot read the file: it is a directory]\n"},
		{"agent.yaml-links-to-dev-urandom", func(t *testing.T, dir, xdg string) ([]string, string) {
			link(t, "/dev/urandom", filepath.Join(dir, "agent.yaml"))
			return nil, "agent.yaml"
		}, notRegular},
		{"xdg-file-is-a-fifo", func(t *testing.T, dir, xdg string) ([]string, string) {
			os.MkdirAll(filepath.Join(xdg, "mm"), 0o755)
			return nil, fifo(t, filepath.Join(xdg, "mm", "agent.yaml"))
		}, notRegular},
		{"over-1-MiB", func(t *testing.T, dir, xdg string) ([]string, string) {
			// Valid YAML (comments) one byte too many: refused on its size.
			p := filepath.Join(dir, "big.yaml")
			os.WriteFile(p, []byte("model: m\n"+strings.Repeat("#", 1<<20-8)), 0o644)
			return []string{"-c", p}, p
		}, ": cannot read the file: it is larger than 1 MiB]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, xdg := t.TempDir(), t.TempDir()
			args, shown := c.setup(t, dir, xdg)
			r := mm(t, dir, nil, []string{"XDG_CONFIG_HOME=" + xdg}, "", append(args, "-p", "hi")...)
			if want := "[config error: " + shown + c.tail; r.code != 1 || r.stderr != want || r.stdout != "" {
				t.Errorf("exit %d\nstdout %q\nstderr %q\nwant   %q", r.code, r.stdout, r.stderr, want)
			}
		})
	}
}
