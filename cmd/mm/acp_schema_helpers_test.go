package main_test

// The ACP conformance checker: every JSON-RPC message of a recorded ACP
// connection is validated against the protocol's published JSON schema,
// method by method. The TypeScript SDK drops optional fields it cannot
// parse without a word, so a client that works proves little about mm's
// messages; this does.
//
// mm's own traffic is checked against schema/v1/schema.json of the npm
// @agentclientprotocol/sdk that `make test-deps` installs into .ci/node
// (2.4.0, as cmd/mm/testdata/acp/package-lock.json pins): the protocol mm
// speaks, elicitation/create and $/cancel_request included, which the Go
// SDK's older schema (acp-go-sdk v0.13.0) lacks. The checker's own tests
// (acp_schema_test.go) run against both.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"mm/internal/testdeps"
)

// acpMessage is one line of an ACP connection: who wrote it and its bytes.
type acpMessage struct {
	FromAgent bool
	Raw       []byte
}

// acpRecorder records one connection driven from Go: wrap mm's stdout
// with Agent and its stdin with Client, then validateACPTraffic(t,
// rec.Messages()). Lines are kept in the order they pass the wrappers.
type acpRecorder struct {
	mu   sync.Mutex
	msgs []acpMessage
	part [2][]byte // an unfinished line of each direction
}

func (r *acpRecorder) add(fromAgent bool, b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := 0
	if fromAgent {
		i = 1
	}
	r.part[i] = append(r.part[i], b...)
	for {
		n := bytes.IndexByte(r.part[i], '\n')
		if n < 0 {
			return
		}
		if line := bytes.TrimSpace(r.part[i][:n]); len(line) > 0 {
			r.msgs = append(r.msgs, acpMessage{FromAgent: fromAgent, Raw: append([]byte(nil), line...)})
		}
		r.part[i] = r.part[i][n+1:]
	}
}

// Messages is what passed so far, an unfinished last line included.
func (r *acpRecorder) Messages() []acpMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]acpMessage(nil), r.msgs...)
	for i, p := range r.part {
		if line := bytes.TrimSpace(p); len(line) > 0 {
			out = append(out, acpMessage{FromAgent: i == 1, Raw: append([]byte(nil), line...)})
		}
	}
	return out
}

type acpTapReader struct {
	r   io.Reader
	rec *acpRecorder
}

func (t acpTapReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.rec.add(true, p[:n])
	return n, err
}

type acpTapWriter struct {
	w   io.Writer
	rec *acpRecorder
}

func (t acpTapWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.rec.add(false, p[:n])
	return n, err
}

// Agent wraps what mm writes (its stdout, read by the test).
func (r *acpRecorder) Agent(rd io.Reader) io.Reader { return acpTapReader{rd, r} }

// Client wraps what the test writes to mm (its stdin).
func (r *acpRecorder) Client(w io.Writer) io.Writer { return acpTapWriter{w, r} }

// validateACPTraffic reports, as test errors, every message of one
// connection (in wire order) that the ACP schema or JSON-RPC 2.0 rejects.
func validateACPTraffic(t *testing.T, msgs []acpMessage) {
	t.Helper()
	v, err := loadACPSchema()
	if err != nil {
		testdeps.Missing(t, "ACP schema: "+err.Error())
	}
	for _, p := range v.violations(msgs) {
		t.Error(p)
	}
}

// acpTrafficSchema is the schema mm's traffic is checked against:
// $MM_ACP_SCHEMA when set, else the npm SDK's schema/v1/schema.json.
func acpTrafficSchema() (testdeps.Schema, error) {
	if p := os.Getenv("MM_ACP_SCHEMA"); p != "" {
		abs, err := filepath.Abs(p)
		return testdeps.Schema{Path: abs, Package: "$MM_ACP_SCHEMA"}, err
	}
	return testdeps.ACPNodeSchema("schema.json")
}

// acpMethod is what the schema says of one method: the defs of its params
// and result, and which side handles it ("agent": the client calls it,
// "client": mm calls it).
type acpMethod struct {
	side           string
	params, result string
	notification   bool
}

type acpValidator struct {
	c       *jsonschema.Compiler
	base    string
	methods map[string]*acpMethod
	mu      sync.Mutex
	cache   map[string]*jsonschema.Schema
}

// acpValidators are the validators compiled so far, by schema file.
var acpValidators struct {
	sync.Mutex
	m map[string]*acpLoaded
}

type acpLoaded struct {
	once sync.Once
	v    *acpValidator
	err  error
}

// loadACPSchema is the validator of mm's traffic (acpTrafficSchema).
func loadACPSchema() (*acpValidator, error) {
	s, err := acpTrafficSchema()
	if err != nil {
		return nil, err
	}
	return acpValidatorOf(s)
}

// acpValidatorOf compiles a schema once for the whole test binary.
func acpValidatorOf(s testdeps.Schema) (*acpValidator, error) {
	acpValidators.Lock()
	if acpValidators.m == nil {
		acpValidators.m = map[string]*acpLoaded{}
	}
	l := acpValidators.m[s.Path]
	if l == nil {
		l = &acpLoaded{}
		acpValidators.m[s.Path] = l
	}
	acpValidators.Unlock()
	l.once.Do(func() {
		l.v, l.err = newACPValidator(s.Path)
		if l.err != nil {
			l.err = fmt.Errorf("%s: %v", s.Package, l.err)
		}
	})
	return l.v, l.err
}

func newACPValidator(path string) (*acpValidator, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	// The schema's integer formats are assertions here: a line number or a
	// protocol version out of range is as wrong as a string.
	c.AssertFormat()
	for name, r := range map[string][2]float64{
		"int32": {math.MinInt32, math.MaxInt32}, "int64": {math.MinInt64, math.MaxInt64},
		"uint16": {0, math.MaxUint16}, "uint32": {0, math.MaxUint32}, "uint64": {0, math.MaxUint64},
	} {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: intRange(r[0], r[1])})
	}
	base := "file://" + filepath.ToSlash(path)
	if err := c.AddResource(base, doc); err != nil {
		return nil, err
	}
	v := &acpValidator{c: c, base: base, methods: map[string]*acpMethod{}, cache: map[string]*jsonschema.Schema{}}
	// The method table comes from the schema itself: each def of a method's
	// params or result carries x-method and x-side.
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	for name, d := range defs {
		m, _ := d.(map[string]any)
		method, _ := m["x-method"].(string)
		side, _ := m["x-side"].(string)
		if method == "" || side == "protocol" {
			continue
		}
		e := v.methods[method]
		if e == nil {
			e = &acpMethod{side: side}
			v.methods[method] = e
		}
		switch {
		case strings.HasSuffix(name, "Request"):
			e.params = name
		case strings.HasSuffix(name, "Response"):
			e.result = name
		case strings.HasSuffix(name, "Notification"):
			e.params, e.notification = name, true
		}
	}
	if v.methods["session/prompt"] == nil || v.methods["session/update"] == nil {
		return nil, fmt.Errorf("%s: no x-method defs for session/prompt and session/update", path)
	}
	return v, nil
}

func intRange(lo, hi float64) func(any) error {
	return func(x any) error {
		n, ok := x.(json.Number)
		if !ok {
			return nil // the type keyword speaks for other values
		}
		f, err := n.Float64()
		if err != nil || f < lo || f > hi || f != math.Trunc(f) {
			return fmt.Errorf("%s is out of range [%.0f, %.0f]", n, lo, hi)
		}
		return nil
	}
}

func (v *acpValidator) schema(ptr string) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s := v.cache[ptr]; s != nil {
		return s, nil
	}
	s, err := v.c.Compile(v.base + "#" + ptr)
	if err != nil {
		return nil, err
	}
	v.cache[ptr] = s
	return s, nil
}

// check validates x against the schema at ptr and returns the problems,
// one line each, prefixed by what.
func (v *acpValidator) check(what, ptr string, x any) []string {
	s, err := v.schema(ptr)
	if err != nil {
		return []string{fmt.Sprintf("%s: compiling %s: %v", what, ptr, err)}
	}
	err = s.Validate(x)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{fmt.Sprintf("%s: %v", what, err)}
	}
	var out []string
	for _, l := range v.leaves(ve) {
		out = append(out, fmt.Sprintf("%s: %s (schema %s)", what, l.text, l.schema))
	}
	return out
}

type acpLeaf struct{ loc, text, schema string }

// leaves flattens a validation error into its leaf failures. In a tagged
// union (a oneOf/anyOf whose branches fix a property with const, as
// sessionUpdate, type or outcome) the branches whose tag does not match are
// dropped, so a bad tool_call reports the tool_call's fault, not why it is
// no agent_message_chunk either.
func (v *acpValidator) leaves(e *jsonschema.ValidationError) []acpLeaf {
	if len(e.Causes) == 0 {
		loc := ptr(e.InstanceLocation)
		return []acpLeaf{{loc, e.Error(), v.kwLoc(e)}}
	}
	causes := e.Causes
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		if got, wants, ok := constChoices(e); ok {
			loc := ptr(e.InstanceLocation)
			return []acpLeaf{{loc, fmt.Sprintf("at '%s': %s is none of %s", loc, got, strings.Join(wants, ", ")), v.kwLoc(e)}}
		}
		depth := len(e.InstanceLocation) + 1
		var kept []*jsonschema.ValidationError
		for _, c := range causes {
			if !hasConstAt(c, depth) && !onlyType(c, len(e.InstanceLocation)) {
				kept = append(kept, c)
			}
		}
		switch {
		case len(kept) > 0:
			causes = kept
		case len(causes) > 1:
			if l, ok := v.unionSummary(e, depth); ok {
				return []acpLeaf{l}
			}
		}
	}
	var out []acpLeaf
	for _, c := range causes {
		out = append(out, v.leaves(c)...)
	}
	return out
}

// unionSummary says in one line why no branch of a union matched when
// each failed for the same reason: an unknown tag ("banana_update" is no
// sessionUpdate) or the wrong type (a string where each wants an object).
func (v *acpValidator) unionSummary(e *jsonschema.ValidationError, depth int) (acpLeaf, bool) {
	loc := ptr(e.InstanceLocation)
	var tagLoc, got string
	var wants []string
	for _, c := range e.Causes {
		k, at := constAt(c, depth)
		if k == nil {
			wants = nil
			break
		}
		g, _ := json.Marshal(k.Got)
		w, _ := json.Marshal(k.Want)
		tagLoc, got, wants = at, string(g), append(wants, string(w))
	}
	if wants != nil {
		return acpLeaf{tagLoc, fmt.Sprintf("at '%s': %s is none of %s", tagLoc, got, strings.Join(wants, ", ")), v.kwLoc(e)}, true
	}
	var types []string
	for _, c := range e.Causes {
		for len(c.Causes) == 1 {
			c = c.Causes[0]
		}
		k, ok := c.ErrorKind.(*kind.Type)
		if !ok || len(c.Causes) > 0 {
			return acpLeaf{}, false
		}
		got = k.Got
		for _, w := range k.Want {
			if !slices.Contains(types, w) {
				types = append(types, w)
			}
		}
	}
	return acpLeaf{loc, fmt.Sprintf("at '%s': got %s, want one of %s", loc, got, strings.Join(types, ", ")), v.kwLoc(e)}, true
}

// constAt finds the failed const of a branch's tag (see hasConstAt).
func constAt(e *jsonschema.ValidationError, depth int) (*kind.Const, string) {
	switch k := e.ErrorKind.(type) {
	case *kind.Const:
		if len(e.InstanceLocation) == depth {
			return k, ptr(e.InstanceLocation)
		}
	case *kind.OneOf, *kind.AnyOf:
		return nil, ""
	}
	for _, c := range e.Causes {
		if k, at := constAt(c, depth); k != nil {
			return k, at
		}
	}
	return nil, ""
}

// ptr is a JSON pointer as the validator's messages write it.
func ptr(loc []string) string {
	if len(loc) == 0 {
		return ""
	}
	return "/" + strings.Join(loc, "/")
}

func jsonOf(x any) []byte {
	b, _ := json.Marshal(x)
	return b
}

func (v *acpValidator) kwLoc(e *jsonschema.ValidationError) string {
	u := e.SchemaURL
	if r, ok := e.ErrorKind.(*kind.Reference); ok {
		u = r.URL
	} else if kp := e.ErrorKind.KeywordPath(); len(kp) > 0 {
		u += "/" + strings.Join(kp, "/")
	}
	return strings.TrimPrefix(u, v.base)
}

// hasConstAt says whether a branch failed on a const of a property of the
// union's value (instance depth depth): its tag did not match. Unions nested
// in the branch (a property's own enum) are not its tag.
func hasConstAt(e *jsonschema.ValidationError, depth int) bool {
	switch e.ErrorKind.(type) {
	case *kind.Const:
		if len(e.InstanceLocation) == depth {
			return true
		}
	case *kind.OneOf, *kind.AnyOf:
		return false
	}
	for _, c := range e.Causes {
		if hasConstAt(c, depth) {
			return true
		}
	}
	return false
}

// onlyType says whether a branch failed only on the type of the union's
// value itself, as the {"type":"null"} of an optional field: noise beside
// the branch that says what is wrong.
func onlyType(e *jsonschema.ValidationError, depth int) bool {
	for len(e.Causes) == 1 {
		e = e.Causes[0]
	}
	_, ok := e.ErrorKind.(*kind.Type)
	return ok && len(e.Causes) == 0 && len(e.InstanceLocation) == depth
}

// constChoices reads an enum written as a oneOf of consts (ToolKind,
// ToolCallStatus, StopReason…) whose every branch failed.
func constChoices(e *jsonschema.ValidationError) (string, []string, bool) {
	var got string
	var wants []string
	for _, c := range e.Causes {
		for len(c.Causes) == 1 {
			c = c.Causes[0]
		}
		k, ok := c.ErrorKind.(*kind.Const)
		if !ok || len(c.Causes) > 0 {
			return "", nil, false
		}
		g, _ := json.Marshal(k.Got)
		w, _ := json.Marshal(k.Want)
		got, wants = string(g), append(wants, string(w))
	}
	return got, wants, len(wants) > 0
}

// violations checks one connection's messages in wire order. Responses are
// matched to their requests by id, per direction, to know their method.
func (v *acpValidator) violations(msgs []acpMessage) []string {
	var out []string
	type pending struct {
		method string
		index  int
	}
	// Requests waiting for an answer, keyed by "sender id".
	open := map[string]pending{}
	key := func(fromAgent bool, id any) string {
		b, _ := json.Marshal(id)
		return fmt.Sprintf("%v %s", fromAgent, b)
	}
	for i, m := range msgs {
		who := "client"
		if m.FromAgent {
			who = "mm"
		}
		what := fmt.Sprintf("message %d (%s→): %s", i+1, who, clip(m.Raw))
		add := func(p ...string) { out = append(out, p...) }
		x, err := jsonschema.UnmarshalJSON(bytes.NewReader(m.Raw))
		if err != nil || !singleJSON(m.Raw) {
			add(fmt.Sprintf("%s: not one JSON value: %v", what, err))
			continue
		}
		obj, ok := x.(map[string]any)
		if !ok {
			add(what + ": not a JSON object (ACP sends no batches)")
			continue
		}
		if obj["jsonrpc"] != "2.0" {
			add(fmt.Sprintf("%s: jsonrpc is %s, not \"2.0\" (schema #/anyOf/0/properties/jsonrpc)", what, clip(jsonOf(obj["jsonrpc"]))))
		}
		method, hasMethod := obj["method"].(string)
		id, hasID := obj["id"]
		_, hasResult := obj["result"]
		_, hasError := obj["error"]
		// The envelope of each kind of message, as the schema's top level
		// has it for each side (Agent… for mm's, Client… for the client's).
		side := "Client"
		if m.FromAgent {
			side = "Agent"
		}
		switch {
		case hasMethod && hasID:
			add(v.check(what+" envelope", "/$defs/"+side+"Request", x)...)
		case hasMethod:
			add(v.check(what+" envelope", "/$defs/"+side+"Notification", x)...)
		case hasResult && !hasError:
			add(v.check(what+" envelope", "/$defs/"+side+"Response/anyOf/0", x)...)
		case hasError && !hasResult:
			add(v.check(what+" envelope", "/$defs/"+side+"Response/anyOf/1", x)...)
		}
		switch {
		case hasMethod:
			notif := !hasID
			if strings.HasPrefix(method, "$/") {
				add(v.check(what+" params", "/anyOf/2", x)...)
				continue
			}
			me := v.methods[method]
			if me == nil {
				// Extension methods are free-form, and must say so with "_".
				if !strings.HasPrefix(method, "_") {
					add(fmt.Sprintf("%s: method %q is not in the ACP schema and is no extension method (\"_…\")", what, method))
				}
			} else {
				wantSide := "agent" // the client calls what the agent handles
				if m.FromAgent {
					wantSide = "client"
				}
				switch {
				case me.side != wantSide:
					add(fmt.Sprintf("%s: %q is handled by the %s side: the %s side must not send it", what, method, me.side, map[bool]string{true: "agent", false: "client"}[m.FromAgent]))
				case me.notification != notif:
					add(fmt.Sprintf("%s: %q sent as a %s", what, method, map[bool]string{true: "notification", false: "request"}[notif]))
				default:
					add(v.check(what+" params", "/$defs/"+me.params, obj["params"])...)
				}
			}
			if hasID {
				k := key(m.FromAgent, id)
				if _, dup := open[k]; dup {
					add(fmt.Sprintf("%s: id %v reused while its request is still open", what, id))
				}
				open[k] = pending{method, i}
			}
		case hasID && (hasResult != hasError):
			if id == nil && hasError {
				// JSON-RPC's answer to a line that was no request (a parse
				// error, an invalid request): it answers nothing open.
				continue
			}
			k := key(!m.FromAgent, id)
			req, ok := open[k]
			if !ok {
				add(fmt.Sprintf("%s: a response to no open request of the other side (id %v)", what, id))
				continue
			}
			delete(open, k)
			me := v.methods[req.method]
			if hasResult && me != nil && me.result != "" {
				add(v.check(fmt.Sprintf("%s result of %s", what, req.method), "/$defs/"+me.result, obj["result"])...)
			}
		default:
			add(what + ": neither a request, a notification nor a response (exactly one of result and error)")
		}
	}
	// mm must answer every request it was sent; what the client leaves open
	// at the end is the recording's business, not mm's.
	var unanswered []string
	for k, p := range open {
		if strings.HasPrefix(k, "false ") {
			unanswered = append(unanswered, fmt.Sprintf("message %d: mm never answered this %s request", p.index+1, p.method))
		}
	}
	sort.Strings(unanswered)
	return append(out, unanswered...)
}

// singleJSON says whether raw holds exactly one JSON value.
func singleJSON(raw []byte) bool {
	d := json.NewDecoder(bytes.NewReader(raw))
	var x json.RawMessage
	if d.Decode(&x) != nil {
		return false
	}
	return len(bytes.TrimSpace(raw[d.InputOffset():])) == 0
}

func clip(raw []byte) string {
	s := string(raw)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
