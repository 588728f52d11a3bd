package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mm/internal/ownfile"
)

// Tracer writes a pair of files per model call: the request body as sent
// (indented) and the response body as received. Headers are never written
// (they may hold an API key); a password in the URL is masked.
//
// Files: <YYYYMMDD-HHMMSS.mmm>-<name>-<NNNN>.request.json, then
// ….response-<status>.sse (the SSE bytes, written as they arrive),
// ….response-<status>.json (a whole JSON body, indented) or
// ….response-error.txt (no response: method, URL and error).
//
// Traces hold whole conversations, in a project mm does not trust: the
// directories are created 0700 through mm/internal/ownfile, never through
// a symbolic link a cloned repository planted (.mm or .mm/traces as a
// link), and each file is new (O_EXCL, 0600). The first failure to write
// to a directory (one that cannot be created, a disk that is full, a
// directory removed while mm runs) is reported once and ends tracing into
// that directory: the model calls go on, untraced. Another directory (the
// cwd of another ACP session) is still traced.
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
	mu     sync.Mutex
	broken map[string]bool // the directories that failed
}

// isBroken reports whether writing to dir failed already.
func (t *Tracer) isBroken(dir string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.broken[dir]
}

// workDirKey carries a turn's working directory in its context.
type workDirKey struct{}

// WithWorkDir makes dir the working directory of the model calls made
// with ctx: a relative trace.dir is resolved there (an ACP session's
// cwd) instead of against Tracer.Cwd.
func WithWorkDir(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, workDirKey{}, dir)
}

func (t *Tracer) base() string { return t.baseFor(context.Background()) }

func (t *Tracer) baseFor(ctx context.Context) string {
	if dir, _ := ctx.Value(workDirKey{}).(string); dir != "" {
		return dir
	}
	cwd := ""
	if t.Cwd != nil {
		cwd = t.Cwd()
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return cwd
}

// AbsDir is the directory the next call writes to, for the banner.
func (t *Tracer) AbsDir() string { return t.AbsDirFor(context.Background()) }

// AbsDirFor is the directory a call made with ctx writes to.
func (t *Tracer) AbsDirFor(ctx context.Context) string {
	if filepath.IsAbs(t.Dir) {
		return filepath.Clean(t.Dir)
	}
	return filepath.Join(t.baseFor(ctx), t.Dir)
}

// traceCall is one model call's files. A nil *traceCall traces nothing, so
// callers never check.
type traceCall struct {
	t      *Tracer
	dir    string
	prefix string
}

// begin starts the files of one call: it numbers the call and writes the
// request. It returns nil when tracing is off or broken (after saying so
// once).
func (t *Tracer) begin(ctx context.Context, body []byte) *traceCall {
	if t == nil {
		return nil
	}
	shown := t.AbsDirFor(ctx)
	if t.isBroken(shown) {
		return nil
	}
	n := t.count.Add(1)
	dir, err := ownfile.Dir(t.baseFor(ctx), t.Dir)
	if err != nil {
		t.fail(shown, err)
		return nil
	}
	name := fileNamePart(t.Name)
	if name == "" {
		name = "mm"
	}
	stamp := fmt.Sprintf("%s-%s-%04d", time.Now().Format("20060102-150405.000"), name, n)
	tc := &traceCall{t: t, dir: dir}
	// Another mm with the same name may write the same directory in the
	// same millisecond: a file that exists already is never reused.
	for i := 0; ; i++ {
		tc.prefix = filepath.Join(dir, stamp)
		if i > 0 {
			tc.prefix += fmt.Sprintf("-%d", i)
		}
		err = tc.write(".request.json", indent(body))
		if err == nil {
			return tc
		}
		if !errors.Is(err, fs.ErrExist) || i >= 9 {
			break
		}
	}
	t.fail(dir, err)
	return nil
}

// fileNamePart is acp.name made one part of a file name: a project's
// file may set it, and a separator in it ("x/../../../.bashrc") would
// place the trace outside the trace directory. Separators and control
// characters become _.
func fileNamePart(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, name)
}

// fail reports the first failure of dir, once, and turns tracing into
// dir off.
func (t *Tracer) fail(dir string, err error) {
	t.mu.Lock()
	first := !t.broken[dir]
	if t.broken == nil {
		t.broken = map[string]bool{}
	}
	t.broken[dir] = true
	t.mu.Unlock()
	if first && t.Warn != nil {
		t.Warn(fmt.Sprintf("[trace: cannot write to %s: %s — nothing is traced]", dir, Redact(err.Error())))
	}
}

// write creates the file prefix+suffix with data.
func (tc *traceCall) write(suffix string, data []byte) error {
	f, err := ownfile.Create(tc.prefix + suffix)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// traceStream receives the SSE bytes of one response as they arrive.
type traceStream struct {
	tc   *traceCall
	f    *os.File
	dead bool
}

// write appends to the trace; a failure drops the file and is reported
// once. It never fails the caller.
func (s *traceStream) write(p []byte) {
	if s.dead {
		return
	}
	if _, err := s.f.Write(p); err != nil {
		s.dead = true
		_ = s.f.Close()
		s.tc.t.fail(s.tc.dir, err)
	}
}

func (s *traceStream) Close() error {
	if s.dead {
		return nil
	}
	s.dead = true
	if err := s.f.Close(); err != nil {
		s.tc.t.fail(s.tc.dir, err)
	}
	return nil
}

// stream opens the file that receives the SSE bytes as they arrive.
func (tc *traceCall) stream(status int) *traceStream {
	if tc == nil || tc.t.isBroken(tc.dir) {
		return nil
	}
	f, err := ownfile.Create(fmt.Sprintf("%s.response-%d.sse", tc.prefix, status))
	if err != nil {
		tc.t.fail(tc.dir, err)
		return nil
	}
	return &traceStream{tc: tc, f: f}
}

// json writes a whole JSON response body, indented when it parses.
func (tc *traceCall) json(status int, body []byte) {
	if tc == nil || tc.t.isBroken(tc.dir) {
		return
	}
	if err := tc.write(fmt.Sprintf(".response-%d.json", status), indent(body)); err != nil {
		tc.t.fail(tc.dir, err)
	}
}

// failure records a call that got no response at all.
func (tc *traceCall) failure(method, url string, err error) {
	if tc == nil || tc.t.isBroken(tc.dir) {
		return
	}
	text := fmt.Appendf(nil, "%s %s\n%s\n", method, RedactURL(url), redactErr(err))
	if err := tc.write(".response-error.txt", text); err != nil {
		tc.t.fail(tc.dir, err)
	}
}

func indent(body []byte) []byte {
	var buf bytes.Buffer
	if json.Indent(&buf, body, "", "  ") != nil {
		return body
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
