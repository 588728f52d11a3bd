package main_test

import (
	"strings"
	"testing"
)

// The schema check that ends every Go ACP test leaves out only the bad
// input sent on purpose and mm's answer to it: a bad line of mm's, or an
// answer to a good request, is still checked.
func TestACPConformantLeavesOutOnlyBadInput(t *testing.T) {
	forEachACPSchema(t, func(t *testing.T, v *acpValidator) {
		lines := []acpLine{
			{Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"session/fly","params":{}}`), Bad: true},
			{Raw: []byte(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)},
			{FromAgent: true, Raw: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`)},
			{FromAgent: true, Raw: []byte(`{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}`)},
			{FromAgent: true, Raw: []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"x","kind":"banana"}}}`)},
			// A second answer with the bad request's id answers nothing.
			{FromAgent: true, Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)},
		}
		got := conformant(lines)
		if len(got) != 4 || !strings.Contains(string(got[0].Raw), `"id":2`) {
			t.Fatalf("conformant kept: %+v", got)
		}
		all := strings.Join(v.violations(got), "\n")
		if !strings.Contains(all, `"banana" is none of`) || !strings.Contains(all, "a response to no open request") || strings.Contains(all, "session/fly") {
			t.Errorf("violations:\n%s", all)
		}
	})
}
