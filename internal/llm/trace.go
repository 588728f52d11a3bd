package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Tracer writes a pair of files per model call: the request body as sent
// (indented) and the response body as received. Headers are never written
// (they may hold an API key).
//
// Files: <YYYYMMDD-HHMMSS.mmm>-<name>-<NNNN>.request.json, then
// ….response-<status>.sse (the SSE bytes, written as they arrive),
// ….response-<status>.json (a whole JSON body, indented) or
// ….response-error.txt (no response: method, URL and error).
type Tracer struct {
	// Dir is the configured directory; a relative one is resolved at each
	// call against Cwd().
	Dir string
	// Name is acp.name, part of every file name.
	Name string
	// Cwd gives the turn's working directory (the session's cwd in ACP);
	// nil means the process's.
	Cwd func() string
	// Warn prints the one-time message about an unwritable directory.
	Warn func(string)

	count  atomic.Int64
	warned sync.Once
}

// AbsDir is the directory the next call writes to, for the banner.
func (t *Tracer) AbsDir() string {
	if filepath.IsAbs(t.Dir) {
		return filepath.Clean(t.Dir)
	}
	cwd := ""
	if t.Cwd != nil {
		cwd = t.Cwd()
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return filepath.Join(cwd, t.Dir)
}

// traceCall is one model call's files. A nil *traceCall traces nothing, so
// callers never check.
type traceCall struct {
	prefix string
}

// begin starts the files of one call: it numbers the call and writes the
// request. It returns nil when tracing is off or the directory cannot be
// written (after saying so once).
func (t *Tracer) begin(body []byte) *traceCall {
	if t == nil {
		return nil
	}
	n := t.count.Add(1)
	dir := t.AbsDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.fail(dir, err)
		return nil
	}
	name := t.Name
	if name == "" {
		name = "mm"
	}
	tc := &traceCall{prefix: filepath.Join(dir, fmt.Sprintf("%s-%s-%04d", time.Now().Format("20060102-150405.000"), name, n))}
	if err := os.WriteFile(tc.prefix+".request.json", indent(body), 0o644); err != nil {
		t.fail(dir, err)
		return nil
	}
	return tc
}

func (t *Tracer) fail(dir string, err error) {
	t.warned.Do(func() {
		if t.Warn != nil {
			t.Warn(fmt.Sprintf("[trace: cannot write to %s: %v — nothing is traced]", dir, err))
		}
	})
}

// stream opens the file that receives the SSE bytes as they arrive.
func (tc *traceCall) stream(status int) io.WriteCloser {
	if tc == nil {
		return nil
	}
	f, err := os.Create(fmt.Sprintf("%s.response-%d.sse", tc.prefix, status))
	if err != nil {
		return nil
	}
	return f
}

// json writes a whole JSON response body, indented when it parses.
func (tc *traceCall) json(status int, body []byte) {
	if tc == nil {
		return
	}
	_ = os.WriteFile(fmt.Sprintf("%s.response-%d.json", tc.prefix, status), indent(body), 0o644)
}

// failure records a call that got no response at all.
func (tc *traceCall) failure(method, url string, err error) {
	if tc == nil {
		return
	}
	_ = os.WriteFile(tc.prefix+".response-error.txt", fmt.Appendf(nil, "%s %s\n%v\n", method, url, err), 0o644)
}

func indent(body []byte) []byte {
	var buf bytes.Buffer
	if json.Indent(&buf, body, "", "  ") != nil {
		return body
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
