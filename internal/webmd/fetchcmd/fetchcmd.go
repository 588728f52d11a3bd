// Package fetchcmd is `mm fetch`: the Markdown fetch_content returns, for
// people and scripts.
//
//	mm fetch URL|FILE.html [-o FILE] [--tables flatten] [--strikethrough] [--task-list] [--base-url U]
//
// The exit status is 0 on success, else the error code of the failure: 1
// conversion (not HTML, over 5 MiB, undecodable, output not writable, or
// a page with no text once cleaned), 2 input (a missing file, unreachable, timeout, HTTP
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
Exit status: 0 ok, 1 conversion error, 2 input error (missing file, network, HTTP, robots.txt), 3 usage error.
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
// Help asked for goes to stdout; a mistake goes to stderr.
func parse(args []string, stdout, stderr io.Writer) (options, int, bool) {
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
				fmt.Fprint(stdout, usage)
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
	o, code, ok := parse(args, stdout, stderr)
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
	path, isFile, err := localFile(o.target)
	if err != nil {
		return fail(err)
	}
	if isFile {
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
		reason := source + " has no text content once scripts, navigation and ads are removed"
		if o.output != "" {
			reason += " — nothing saved"
		}
		return fail(&webmd.Error{Code: webmd.ErrConversion, Reason: reason})
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
// file only if it exists; otherwise it is a web address (https:// is
// added). A missing name that can only be a path (page.html, ./x,
// www/index.html when there is no www/ host to speak of) is an error
// rather than a lookup of a host named "page.html" or "www".
func localFile(target string) (string, bool, error) {
	if strings.HasPrefix(strings.ToLower(target), "file://") {
		u, err := url.Parse(target)
		if err != nil {
			return "", false, nil
		}
		return u.Path, true, nil
	}
	info, err := os.Stat(target)
	if err == nil && !info.IsDir() {
		return target, true, nil
	}
	if err == nil && looksLikePath(target) {
		return "", false, &webmd.Error{Code: webmd.ErrInput, Reason: fmt.Sprintf("%s is a directory: name an HTML file in it", target)}
	}
	if looksLikePath(target) {
		return "", false, &webmd.Error{Code: webmd.ErrInput, Reason: fmt.Sprintf("no such file: %s (for a web page, write its address with https://)", target)}
	}
	return "", false, nil
}

// looksLikePath reports a target without a scheme that cannot be meant
// as a web address: it starts like a path (/, ./, ../, ~/), it is a bare
// name ending in .html or .htm (no such top-level domain), or its first
// part has no dot and is not localhost, so it is not a host name people
// type (www, docs), and that part is a directory here or ends in an HTML
// file name.
func looksLikePath(target string) bool {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "//") {
		return false
	}
	for _, p := range []string{"/", "./", "../", "~/", "." + string(filepath.Separator)} {
		if strings.HasPrefix(target, p) {
			return true
		}
	}
	first, rest, nested := strings.Cut(target, "/")
	if !nested {
		return htmlName(target)
	}
	if strings.ContainsAny(first, ".:") || strings.EqualFold(first, "localhost") {
		return false // a host, maybe with a port
	}
	if info, err := os.Stat(first); err == nil && info.IsDir() {
		return true
	}
	return htmlName(rest)
}

// htmlName reports a name ending in an HTML file extension.
func htmlName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".html" || ext == ".htm" || ext == ".xhtml"
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
