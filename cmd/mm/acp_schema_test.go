package main_test

// The ACP checker itself: it passes a correct conversation and rejects each
// kind of fault it exists to catch. Without this, a checker that accepts
// everything (the schema's unions include free-form extension messages)
// would look the same as one that works.

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"mm/internal/testdeps"
)

// forEachACPSchema runs check against each schema the checker works
// with: the Go SDK's schema/schema.json (the module mm builds with, in the
// module cache: always there) and the npm SDK's schema/v1/schema.json that
// mm's traffic is checked against (installed by `make test-deps`: skipped
// without it, a failure under CI). The checker reads the schema's layout
// (its x-method defs, its envelopes): each schema must pass these tests.
func forEachACPSchema(t *testing.T, check func(t *testing.T, v *acpValidator)) {
	for _, c := range []struct {
		name string
		get  func() (testdeps.Schema, error)
		need bool // missing is a failure everywhere
	}{
		{"go-sdk", func() (testdeps.Schema, error) { return testdeps.ACPGoSchema("schema.json") }, true},
		{"npm-sdk", acpTrafficSchema, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := c.get()
			var v *acpValidator
			if err == nil {
				v, err = acpValidatorOf(s)
			}
			switch {
			case err != nil && c.need:
				t.Fatalf("ACP schema: %v", err)
			case err != nil:
				testdeps.Missing(t, "ACP schema: "+err.Error())
			}
			t.Logf("against %s: %s", s.Package, s.Path)
			check(t, v)
		})
	}
}

// A conversation as an editor and mm have it: client lines start with ">",
// mm's with "<".
func acpConv(lines ...string) []acpMessage {
	var out []acpMessage
	for _, l := range lines {
		out = append(out, acpMessage{FromAgent: l[0] == '<', Raw: []byte(l[1:])})
	}
	return out
}

var acpGood = []string{
	`>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":false},"clientInfo":{"name":"test","version":"1"}}}`,
	`<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"promptCapabilities":{"image":false,"audio":false,"embeddedContext":true}},"authMethods":[],"agentInfo":{"name":"bob","title":"Bob","version":"dev"}}}`,
	`>{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp/p","mcpServers":[]}}`,
	`<{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`,
	`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"compact","description":"Compress the conversation"}]}}}`,
	`>{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"write a.txt"}]}}`,
	`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"I will."}}}}`,
	`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Write a.txt","kind":"edit","status":"pending","locations":[{"path":"/tmp/p/a.txt","line":1}],"content":[{"type":"diff","path":"/tmp/p/a.txt","oldText":null,"newText":"hi\n"}],"rawInput":{"path":"a.txt"}}}}`,
	// mm's own ids are another namespace than the client's: id 0 again.
	`<{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"allow_once","name":"Allow","kind":"allow_once"},{"optionId":"allow_always","name":"Always","kind":"allow_always"},{"optionId":"reject_once","name":"Reject","kind":"reject_once"},{"optionId":"reject_always","name":"Never","kind":"reject_always"}]}}`,
	`>{"jsonrpc":"2.0","id":0,"result":{"outcome":{"outcome":"selected","optionId":"allow_once"}}}`,
	`<{"jsonrpc":"2.0","id":1,"method":"fs/write_text_file","params":{"sessionId":"s1","path":"/tmp/p/a.txt","content":"hi\n"}}`,
	`>{"jsonrpc":"2.0","id":1,"result":{}}`,
	`<{"jsonrpc":"2.0","id":2,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/tmp/p/a.txt","line":1,"limit":10}}`,
	`>{"jsonrpc":"2.0","id":2,"result":{"content":"hi\n"}}`,
	`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"wrote a.txt"}}]}}}`,
	`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Done."}}}}`,
	`>{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`,
	`<{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}`,
	// An extension method of the client, and mm's error for it.
	`>{"jsonrpc":"2.0","id":"x","method":"_zed/hello","params":{"a":1}}`,
	`<{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"Method not found","data":{"method":"_zed/hello"}}}`,
	// JSON-RPC's answer to a line that was no request has id null.
	`<{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	`>{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"s1","cwd":"/tmp/p","mcpServers":[]}}`,
	`<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"write a.txt"}}}}`,
	`<{"jsonrpc":"2.0","id":3,"result":{}}`,
}

func TestACPSchemaAcceptsGoodConversation(t *testing.T) {
	forEachACPSchema(t, func(t *testing.T, v *acpValidator) {
		if p := v.violations(acpConv(acpGood...)); len(p) > 0 {
			t.Fatalf("a correct conversation rejected:\n%s", strings.Join(p, "\n"))
		}
	})
}

// Each bad line, after the good conversation, must be rejected with a
// message that names the fault.
func TestACPSchemaRejectsBadMessages(t *testing.T) {
	forEachACPSchema(t, func(t *testing.T, v *acpValidator) {
		upd := func(u string) string {
			return `<{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":` + u + `}}`
		}
		cases := []struct {
			name string
			tail []string
			want []string // each must be in one violation
		}{
			{"tool_call kind banana", []string{upd(`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"x","kind":"banana"}`)},
				[]string{`at '/update/kind': "banana" is none of "read", "edit"`, "#/$defs/ToolKind/oneOf"}},
			{"session/update without sessionId", []string{`<{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`},
				[]string{"missing property 'sessionId'", "#/$defs/SessionNotification/required"}},
			{"tool_call_update status ok", []string{upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"ok"}`)},
				[]string{`at '/update/status': "ok" is none of`}},
			{"tool_call without title", []string{upd(`{"sessionUpdate":"tool_call","toolCallId":"c2"}`)},
				[]string{"missing property 'title'", "#/$defs/ToolCall/required"}},
			{"diff without newText", []string{upd(`{"sessionUpdate":"tool_call_update","toolCallId":"c1","content":[{"type":"diff","path":"/a","oldText":"x"}]}`)},
				[]string{"at '/update/content/0': missing property 'newText'"}},
			{"location line -1", []string{upd(`{"sessionUpdate":"tool_call","toolCallId":"c2","title":"x","locations":[{"path":"/a","line":-1}]}`)},
				[]string{"at '/update/locations/0/line'"}},
			{"chunk content as a bare string", []string{upd(`{"sessionUpdate":"agent_message_chunk","content":"hello"}`)},
				[]string{"at '/update/content': got string, want one of object (schema #/$defs/ContentBlock/oneOf)"}},
			{"unknown sessionUpdate", []string{upd(`{"sessionUpdate":"banana_update"}`)},
				[]string{`at '/update/sessionUpdate': "banana_update" is none of "user_message_chunk", "agent_message_chunk"`}},
			{"stopReason done", []string{`>{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`, `<{"jsonrpc":"2.0","id":7,"result":{"stopReason":"done"}}`},
				[]string{`result of session/prompt: at '/stopReason': "done" is none of`}},
			{"protocolVersion out of uint16", []string{`>{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1}}`, `<{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":70000}}`},
				[]string{"result of initialize: at '/protocolVersion'"}},
			{"agentInfo without version", []string{`>{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":1}}`, `<{"jsonrpc":"2.0","id":7,"result":{"protocolVersion":1,"agentInfo":{"name":"bob"}}}`},
				[]string{"at '/agentInfo'"}},
			{"permission option kind allow", []string{`<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"a","name":"A","kind":"allow"}]}}`},
				[]string{"at '/options/0/kind'"}},
			{"permission outcome without optionId", []string{`<{"jsonrpc":"2.0","id":9,"method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[]}}`, `>{"jsonrpc":"2.0","id":9,"result":{"outcome":{"outcome":"selected"}}}`},
				[]string{"result of session/request_permission: at '/outcome': missing property 'optionId'"}},
			{"no jsonrpc", []string{`<{"id":3,"result":{}}`}, []string{`jsonrpc is null, not "2.0"`}},
			{"jsonrpc 1.0", []string{`<{"jsonrpc":"1.0","method":"session/update","params":{}}`}, []string{`jsonrpc is "1.0", not "2.0"`}},
			{"result and error", []string{`>{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, `<{"jsonrpc":"2.0","id":7,"result":{"sessionId":"a"},"error":{"code":1,"message":"x"}}`},
				[]string{"exactly one of result and error", "mm never answered this session/new request"}},
			{"error without message", []string{`>{"jsonrpc":"2.0","id":7,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`, `<{"jsonrpc":"2.0","id":7,"error":{"code":-32602}}`},
				[]string{"envelope: at '/error': missing property 'message'"}},
			{"fractional id", []string{`<{"jsonrpc":"2.0","id":1.5,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/a"}}`}, []string{"envelope: at '/id': got number, want one of null, integer, string"}},
			{"response to nothing", []string{`<{"jsonrpc":"2.0","id":42,"result":{}}`}, []string{"a response to no open request"}},
			{"result with id null", []string{`<{"jsonrpc":"2.0","id":null,"result":{}}`}, []string{"a response to no open request"}},
			{"mm sends a client method", []string{`<{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`},
				[]string{`"session/prompt" is handled by the agent side: the agent side must not send it`}},
			{"session/update as a request", []string{`<{"jsonrpc":"2.0","id":5,"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`},
				[]string{`"session/update" sent as a request`}},
			{"unknown method not an extension", []string{`<{"jsonrpc":"2.0","method":"mm/notice","params":{}}`}, []string{"no extension method"}},
			{"unanswered prompt", []string{`>{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"x"}]}}`},
				[]string{"mm never answered this session/prompt request"}},
			{"not JSON", []string{`<{"jsonrpc":"2.0",`}, []string{"not one JSON value"}},
			{"two values on a line", []string{`<{"jsonrpc":"2.0","method":"_x"} {}`}, []string{"not one JSON value"}},
			{"a batch", []string{`<[{"jsonrpc":"2.0","method":"_x"}]`}, []string{"not a JSON object"}},
			{"client prompt without sessionId", []string{`>{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"prompt":[]}}`, `<{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Invalid params"}}`},
				[]string{"params: at '': missing property 'sessionId'"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				p := v.violations(acpConv(append(append([]string{}, acpGood...), c.tail...)...))
				if len(p) == 0 {
					t.Fatalf("accepted")
				}
				all := strings.Join(p, "\n")
				t.Log(all)
				for _, w := range c.want {
					if !strings.Contains(all, w) {
						t.Errorf("no violation says %q:\n%s", w, all)
					}
				}
				// The fault is blamed on the bad lines, never on the good ones.
				if strings.Contains(all, "message 1 ") || strings.Contains(all, "message 8 ") {
					t.Errorf("a good line was blamed:\n%s", all)
				}
			})
		}
	})
}

// The recorder for Go-driven connections cuts lines the way the wire does,
// however the writes and reads fall, and keeps their order.
func TestACPRecorderCutsLines(t *testing.T) {
	var rec acpRecorder
	var sink bytes.Buffer
	w := rec.Client(&sink)
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}`+"\n")
	r := rec.Agent(iotest.OneByteReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s"}}` + "\n\n" + `{"jsonrpc":"2.0","method":"_x"}`)))
	io.ReadAll(r)
	got := rec.Messages()
	if len(got) != 3 || got[0].FromAgent || !got[1].FromAgent || !got[2].FromAgent || string(got[2].Raw) != `{"jsonrpc":"2.0","method":"_x"}` {
		t.Fatalf("%+v", got)
	}
	if sink.Len() == 0 {
		t.Error("the writer did not pass the bytes on")
	}
	forEachACPSchema(t, func(t *testing.T, v *acpValidator) {
		if p := v.violations(got); len(p) > 0 {
			t.Errorf("%s", strings.Join(p, "\n"))
		}
	})
}
