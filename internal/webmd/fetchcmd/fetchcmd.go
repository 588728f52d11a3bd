// Package fetchcmd is `mm fetch`: the Markdown fetch_content returns, for
// people and scripts.
//
//	mm fetch URL|FILE.html [-o FILE] [--tables flatten] [--strikethrough] [--task-list] [--base-url U]
//
// The exit status is 0 on success, else the error code of the failure: 1
// conversion (not HTML, over 5 MiB, undecodable, output not writable, or
// a page with no text once cleaned), 2 input (unreachable, timeout, HTTP
// status, redirects, robots.txt), 3 usage (a bad command line or
// argument).
package fetchcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"mm/internal/atomicfile"
	"mm/internal/termsafe"
	"mm/internal/webmd"
)

const usage = `usage: mm fetch URL|FILE.html [-o FILE] [--tables html|flatten] [--strikethrough] [--task-list] [--base-url URL]

Prints a web page (or a local HTML file) as the Markdown fetch_content returns.
  -o FILE          write the Markdown to FILE instead of standard output
  --tables MODE    tables with merged cells or nested tables: html (default) or flatten
  --strikethrough  write <del>/<s> as ~~text~~
  --task-list      write list items that start with a checkbox as - [ ] / - [x]
  --base-url URL   resolve relative links and images against URL
Exit status: 0 ok, 1 conversion error, 2 input error (network, HTTP, robots.txt), 3 usage error.
`

// Command runs `mm fetch` with args (without "fetch") and returns the exit
// status.
func Command(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return run(ctx, args, stdout, stderr, &webmd.Fetcher{})
}

type options struct {
	target, output, tables, baseURL string
	strike, tasks                   bool
}

// parse reads the command line; flags may come before or after the URL.
func parse(args []string, stderr io.Writer) (options, int, bool) {
	var o options
	fs := flag.NewFlagSet("mm fetch", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.output, "o", "", "")
	fs.StringVar(&o.output, "output", "", "")
	fs.StringVar(&o.tables, "tables", "", "")
	fs.BoolVar(&o.strike, "strikethrough", false, "")
	fs.BoolVar(&o.tasks, "task-list", false, "")
	fs.StringVar(&o.baseURL, "base-url", "", "")
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stderr, usage)
				return o, 0, false
			}
			fmt.Fprintf(stderr, "mm fetch: %v\n%s", err, usage)
			return o, int(webmd.ErrUsage), false
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(positional) != 1 {
		fmt.Fprintf(stderr, "mm fetch: give one URL or HTML file\n%s", usage)
		return o, int(webmd.ErrUsage), false
	}
	o.target = positional[0]
	return o, 0, true
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, f *webmd.Fetcher) int {
	o, code, ok := parse(args, stderr)
	if !ok {
		return code
	}
	fail := func(err error) int {
		var e *webmd.Error
		if !errors.As(err, &e) {
			e = &webmd.Error{Code: webmd.ErrInput, Reason: err.Error()}
		}
		fmt.Fprintf(stderr, "mm fetch: %s\n", termsafe.Text(e.Error()))
		return int(e.Code)
	}
	opt := webmd.Options{Tables: webmd.Tables(o.tables), Strikethrough: o.strike, TaskList: o.tasks}
	var md, source string
	if path, isFile := localFile(o.target); isFile {
		tables, ok := webmd.ParseTables(o.tables)
		if !ok {
			return fail(&webmd.Error{Code: webmd.ErrUsage, Reason: fmt.Sprintf("tables is %q — use html or flatten", o.tables)})
		}
		opt.Tables = tables
		if o.baseURL != "" {
			u, err := webmd.ParseBaseURL(o.baseURL)
			if err != nil {
				return fail(err)
			}
			opt.BaseURL = u
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return fail(&webmd.Error{Code: webmd.ErrInput, Reason: fmt.Sprintf("cannot read %s: %v", path, err)})
		}
		if len(body) > webmd.MaxPageBytes {
			return fail(&webmd.Error{Code: webmd.ErrConversion, Reason: "the page is larger than 5 MiB"})
		}
		text, _, err := webmd.Decode(body, "")
		if err != nil {
			return fail(err)
		}
		md, source = webmd.Convert(text, opt), path
	} else {
		res, err := f.Get(ctx, webmd.Request{URL: o.target, BaseURL: o.baseURL, Options: opt})
		if err != nil {
			return fail(err)
		}
		md, source = res.Markdown, o.target
		if u, err := webmd.ParseURL(o.target); err == nil {
			source = u.String()
		}
	}
	if md == "" {
		fmt.Fprintf(stderr, "mm fetch: %s has no text content once scripts, navigation and ads are removed — nothing saved\n", termsafe.Text(source))
		return int(webmd.ErrConversion)
	}
	if o.output == "" {
		if isTerminal(stdout) {
			// The page's text is the server's: a terminal must not
			// interpret it. Redirected, the Markdown stays byte for byte.
			md = termsafe.Text(md)
		}
		if _, err := io.WriteString(stdout, md); err != nil {
			return fail(&webmd.Error{Code: webmd.ErrConversion, Reason: fmt.Sprintf("cannot write the output: %v", err)})
		}
		return 0
	}
	abs, err := filepath.Abs(o.output)
	if err == nil {
		err = atomicfile.WriteCreatingDirs(abs, md)
	}
	if err != nil {
		return fail(&webmd.Error{Code: webmd.ErrConversion, Reason: fmt.Sprintf("cannot write %s: %v", o.output, err)})
	}
	fmt.Fprintln(stderr, termsafe.Text(fmt.Sprintf("mm fetch: saved %d lines of Markdown (%d bytes) from %s to %s", strings.Count(md, "\n"), len(md), source, o.output)))
	return 0
}

// localFile reports a target that is a file on disk: a file:// URL, or a
// path that exists and is not a directory. A name like example.com is a
// file only if it exists.
func localFile(target string) (string, bool) {
	if strings.HasPrefix(strings.ToLower(target), "file://") {
		u, err := url.Parse(target)
		if err != nil {
			return "", false
		}
		return u.Path, true
	}
	if info, err := os.Stat(target); err == nil && !info.IsDir() {
		return target, true
	}
	return "", false
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
