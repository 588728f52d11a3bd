package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"mm/internal/atomicfile"
	"mm/internal/webmd"
)

//go:embed fetch.md
var fetchDescription string

const fetchSchema = `{"type":"object","properties":{` +
	`"url":{"type":"string","description":"The page's URL; https:// is added when there is no scheme."},` +
	`"output":{"type":"string","description":"File to save the Markdown to, relative to the working directory; the Markdown is then not returned."},` +
	`"baseUrl":{"type":"string","description":"Absolute URL to resolve relative links and images against; default: the page's URL after redirects."},` +
	`"tables":{"type":"string","enum":["html","flatten"],"description":"Tables with merged cells or nested tables: html keeps them as HTML (default), flatten makes a Markdown table."},` +
	`"strikethrough":{"type":"boolean","description":"Write struck-out text as ~~text~~ (default false: the text alone)."},` +
	`"taskList":{"type":"boolean","description":"Write list items that start with a checkbox as - [ ] / - [x] (default false: the checkbox is dropped)."}},` +
	`"required":["url"]}`

// FetchOptions configures fetch_content.
type FetchOptions struct {
	Dir       string        // working directory: output resolves against it ("" = process cwd)
	MaxOutput int           // maxOutput: the Markdown returned is truncated to it (<= 0: no limit)
	Client    *http.Client  // nil: a plain client
	Timeout   time.Duration // the whole fetch; <= 0: webmd.DefaultTimeout (30s)
	// AllowLinkLocal is fetchAllowLinkLocal: link-local addresses (cloud
	// metadata) are refused without it.
	AllowLinkLocal bool
}

type fetchArgs struct {
	URL           string    `json:"url"`
	Output        string    `json:"output"`
	BaseURL       string    `json:"baseUrl"`
	Tables        string    `json:"tables"`
	Strikethrough fetchBool `json:"strikethrough"`
	TaskList      fetchBool `json:"taskList"`
}

// fetchBool reads a JSON boolean, and also the "true"/"false" strings and
// 1/0 small models sometimes send for one.
type fetchBool bool

func (b *fetchBool) UnmarshalJSON(data []byte) error {
	s := strings.Trim(strings.ToLower(strings.TrimSpace(string(data))), `"`)
	switch s {
	case "true", "1", "yes":
		*b = true
	case "false", "0", "no", "", "null":
		*b = false
	default:
		return fmt.Errorf("%s is not a boolean", data)
	}
	return nil
}

func parseFetchArgs(args json.RawMessage) (fetchArgs, error) {
	var a fetchArgs
	err := json.Unmarshal(args, &a)
	a.URL = strings.TrimSpace(a.URL)
	a.Output = strings.TrimSpace(a.Output)
	return a, err
}

// NewFetchContent returns the fetch_content tool. A call mutates only when
// it writes a file (output set): it then waits for permission like
// write_file.
func NewFetchContent(o FetchOptions) *Tool {
	f := &webmd.Fetcher{Client: o.Client, Timeout: o.Timeout, AllowLinkLocal: o.AllowLinkLocal}
	return &Tool{
		Name:        "fetch_content",
		Description: strings.TrimSpace(fetchDescription),
		Schema:      MustSchema(fetchSchema),
		SchemaText:  fetchSchema,
		Kind:        KindFetch,
		Paths: func(args json.RawMessage) []string {
			if p := FetchOutputPath(o, args); p != "" {
				return []string{p}
			}
			return nil
		},
		Mutates: func(args json.RawMessage) bool {
			a, _ := parseFetchArgs(args)
			return a.Output != ""
		},
		Summary: func(args json.RawMessage) string {
			a, err := parseFetchArgs(args)
			if err != nil || a.URL == "" {
				return string(args)
			}
			s := a.URL
			if u, err := webmd.ParseURL(a.URL); err == nil {
				s = u.String()
			}
			if a.Output != "" {
				s += " → " + a.Output
			}
			return s
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			return runFetch(ctx, f, o, args)
		},
	}
}

// FetchOutputPath is the absolute path of the file a fetch_content call
// writes, "" when it writes none: the location an editor shows.
func FetchOutputPath(o FetchOptions, args json.RawMessage) string {
	a, err := parseFetchArgs(args)
	if err != nil || a.Output == "" {
		return ""
	}
	return fetchOutputAbs(o.Dir, a.Output)
}

func fetchOutputAbs(dir, p string) string {
	if !filepath.IsAbs(p) {
		if dir == "" {
			dir, _ = os.Getwd()
		}
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

func fetchFailure(err error) string {
	var e *webmd.Error
	if !errors.As(err, &e) {
		e = &webmd.Error{Code: webmd.ErrInput, Reason: err.Error()}
	}
	return "[fetch_content: " + e.Error() + "]"
}

func runFetch(ctx context.Context, f *webmd.Fetcher, o FetchOptions, args json.RawMessage) string {
	a, err := parseFetchArgs(args)
	if err != nil {
		return fetchFailure(&webmd.Error{Code: webmd.ErrUsage, Reason: "cannot read the arguments: " + err.Error()})
	}
	req := webmd.Request{
		URL:     a.URL,
		BaseURL: a.BaseURL,
		Options: webmd.Options{
			Tables:        webmd.Tables(a.Tables),
			Strikethrough: bool(a.Strikethrough),
			TaskList:      bool(a.TaskList),
		},
	}
	res, err := f.Get(ctx, req)
	if err != nil {
		return fetchFailure(err)
	}
	shown := a.URL
	if u, err := webmd.ParseURL(a.URL); err == nil {
		shown = u.String()
	}
	if res.Markdown == "" {
		return fmt.Sprintf("[fetch_content: %s has no text content once scripts, navigation and ads are removed — nothing saved]", shown)
	}
	if a.Output == "" {
		return Truncate(res.Markdown, o.MaxOutput)
	}
	abs := fetchOutputAbs(o.Dir, a.Output)
	if err := atomicfile.WriteCreatingDirs(abs, res.Markdown); err != nil {
		return fetchFailure(&webmd.Error{Code: webmd.ErrConversion, Reason: fmt.Sprintf("cannot write %s: %v", a.Output, fetchPathErr(err))})
	}
	return fmt.Sprintf("[fetch_content: saved %d lines of Markdown (%d bytes) from %s to %s — the content is not shown]",
		strings.Count(res.Markdown, "\n"), len(res.Markdown), shown, a.Output)
}

// fetchPathErr drops the path an *fs.PathError repeats: the message
// names the file already.
func fetchPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
