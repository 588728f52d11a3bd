package acp

import (
	"encoding/json"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
)

func TestDecodeSessionNotificationUnknownVariant(t *testing.T) {
	// A variant a newer agent may send: it has "content", as the message
	// chunks do.
	params := json.RawMessage(`{"sessionId":"s1","update":{"sessionUpdate":"agent_status_chunk","content":{"type":"text","text":"compacting…"}}}`)

	// The SDK's own decoding takes it for a user_message_chunk.
	var sdk acpsdk.SessionNotification
	if err := json.Unmarshal(params, &sdk); err != nil {
		t.Fatal(err)
	}
	if sdk.Update.UserMessageChunk == nil {
		t.Fatalf("the SDK no longer misdecodes an unknown variant (%+v): this workaround may go", sdk.Update)
	}

	n, known, err := DecodeSessionNotification(params)
	if err != nil || known {
		t.Fatalf("known %v, err %v: want an unknown, ignorable update", known, err)
	}
	if n.SessionId != "s1" || n.Update.UserMessageChunk != nil || n.Update.AgentMessageChunk != nil {
		t.Fatalf("notification = %+v", n)
	}
	// Even without the fields of any known variant.
	if _, known, err := DecodeSessionNotification(json.RawMessage(`{"sessionId":"s1","update":{"sessionUpdate":"_mm_custom"}}`)); err != nil || known {
		t.Fatalf("known %v, err %v", known, err)
	}
}

func TestDecodeSessionNotificationKnownVariants(t *testing.T) {
	for _, raw := range []string{
		`{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hm"}}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Read main.go","kind":"read","status":"pending"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"compact","description":"compact the history"}]}}`,
		`{"sessionId":"s","update":{"sessionUpdate":"usage_update","size":1000,"used":10}}`,
	} {
		var sdk acpsdk.SessionNotification
		if err := json.Unmarshal([]byte(raw), &sdk); err != nil {
			t.Fatal(err)
		}
		n, known, err := DecodeSessionNotification(json.RawMessage(raw))
		if err != nil || !known {
			t.Fatalf("%s: known %v, err %v", raw, known, err)
		}
		a, _ := json.Marshal(n)
		b, _ := json.Marshal(sdk)
		if string(a) != string(b) {
			t.Fatalf("decoded %s, the SDK %s", a, b)
		}
	}
	for _, bad := range []string{`{"sessionId":"s","update":{}}`, `{"sessionId":"s","update":3}`, `[]`} {
		if _, _, err := DecodeSessionNotification(json.RawMessage(bad)); err == nil {
			t.Errorf("%s decoded without error", bad)
		}
	}
}
