package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"mm/internal/testdeps"
)

// An elicitation sent with CreateElicitation reaches the client with its
// sessionId and toolCallId, and the client's answer comes back.
func TestCreateElicitationCarriesTheSession(t *testing.T) {
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	t.Cleanup(func() {
		toAgentW.Close()
		toClientW.Close()
	})
	got := make(chan ElicitationRequest, 1)
	raw := make(chan json.RawMessage, 1)
	client := acpsdk.NewConnection(func(_ context.Context, method string, params json.RawMessage) (any, *acpsdk.RequestError) {
		if method != acpsdk.ClientMethodElicitationCreate {
			return nil, acpsdk.NewMethodNotFound(method)
		}
		raw <- append(json.RawMessage(nil), params...)
		r, err := DecodeElicitation(params)
		if err != nil {
			return nil, acpsdk.NewInvalidParams(err.Error())
		}
		got <- r
		return acpsdk.UnstableCreateElicitationResponse{Accept: &acpsdk.UnstableCreateElicitationAccept{Content: map[string]any{"color": "blue"}}}, nil
	}, toAgentW, toClientR)
	agent := acpsdk.NewConnection(func(_ context.Context, method string, _ json.RawMessage) (any, *acpsdk.RequestError) {
		return nil, acpsdk.NewMethodNotFound(method)
	}, toClientW, toAgentR)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	client.SetLogger(quiet)
	agent.SetLogger(quiet)

	call := acpsdk.ToolCallId("call-7")
	resp, err := CreateElicitation(context.Background(), agent, ElicitationRequest{
		SessionId:  "sess-42",
		ToolCallId: &call,
		Message:    "Which color?",
		RequestedSchema: acpsdk.UnstableElicitationSchema{
			Type:       acpsdk.UnstableElicitationSchemaTypeObject,
			Properties: map[string]any{"color": map[string]any{"type": "string", "enum": []string{"red", "blue"}}},
			Required:   []string{"color"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.SessionId != "sess-42" || r.ToolCallId == nil || *r.ToolCallId != "call-7" || r.Mode != "form" || r.Message != "Which color?" || r.RequestedSchema.Required[0] != "color" {
		t.Fatalf("client received %+v", r)
	}
	if resp.Accept == nil || resp.Accept.Content["color"] != "blue" {
		t.Fatalf("answer = %+v", resp)
	}

	// The SDK's own request type loses the session on the way through.
	params := <-raw
	var sdk acpsdk.UnstableCreateElicitationRequest
	if err := json.Unmarshal(params, &sdk); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(sdk)
	if strings.Contains(string(again), "sess-42") {
		t.Fatalf("the SDK now keeps sessionId (%s): this workaround may go", again)
	}
	// What mm sends is what the unstable schema asks; the SDK's is not.
	if err := validateElicitation(t, params); err != nil {
		t.Fatalf("sent params against the unstable schema: %v", err)
	}
	if err := validateElicitation(t, again); err == nil {
		t.Fatalf("the SDK's request %s now passes the schema", again)
	}
}

// validateElicitation checks params against CreateElicitationRequest of
// the unstable ACP schema that ships with the Go SDK mm builds with
// (schema/schema.unstable.json of github.com/coder/acp-go-sdk v0.13.0, in
// the module cache): the schema asks for the sessionId its Go type drops.
// The npm SDK's (2.4.0) says the same.
func validateElicitation(t *testing.T, params []byte) error {
	t.Helper()
	s, err := testdeps.ACPGoSchema("schema.unstable.json")
	if err != nil {
		t.Fatalf("no unstable ACP schema: %v", err)
	}
	f, err := os.Open(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Logf("against %s: %s", s.Package, s.Path)
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("acp-unstable.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("acp-unstable.json#/$defs/CreateElicitationRequest")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(params))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst)
}

func TestDecodeElicitationRefusals(t *testing.T) {
	for _, bad := range []string{
		`{"mode":"url","sessionId":"s","elicitationId":"e","url":"https://example.invalid","message":"m"}`,
		`{"mode":"form","requestId":3,"message":"m","requestedSchema":{"type":"object","properties":{}}}`,
		`nope`,
	} {
		if _, err := DecodeElicitation(json.RawMessage(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

// The same over the SDK's agent-side connection, as the facade has it:
// SendElicitation and ElicitationOutput put the session back.
func TestSendElicitationThroughTheAgentSideConnection(t *testing.T) {
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	t.Cleanup(func() {
		toAgentW.Close()
		toClientW.Close()
	})
	raw := make(chan json.RawMessage, 1)
	client := acpsdk.NewConnection(func(_ context.Context, method string, params json.RawMessage) (any, *acpsdk.RequestError) {
		raw <- append(json.RawMessage(nil), params...)
		return acpsdk.UnstableCreateElicitationResponse{Decline: &acpsdk.UnstableCreateElicitationDecline{}}, nil
	}, toAgentW, toClientR)
	agent := acpsdk.NewAgentSideConnection(efsAgent{}, ElicitationOutput(toClientW), toAgentR)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	client.SetLogger(quiet)
	agent.SetLogger(quiet)

	resp, err := SendElicitation(context.Background(), agent, ElicitationRequest{
		SessionId: "sess-9",
		Meta:      map[string]any{"trace": "x"},
		Message:   "Go on?",
		RequestedSchema: acpsdk.UnstableElicitationSchema{
			Type:       acpsdk.UnstableElicitationSchemaTypeObject,
			Properties: map[string]any{"ok": map[string]any{"type": "boolean"}},
		},
	})
	if err != nil || resp.Decline == nil {
		t.Fatalf("answer %+v, %v", resp, err)
	}
	params := <-raw
	r, err := DecodeElicitation(params)
	if err != nil || r.SessionId != "sess-9" || r.ToolCallId != nil || r.Message != "Go on?" {
		t.Fatalf("client received %+v (%v) from %s", r, err, params)
	}
	if strings.Contains(string(params), scopeKey) || r.Meta["trace"] != "x" {
		t.Fatalf("_meta = %v: the scope key must go, the caller's keys stay", r.Meta)
	}
	if err := validateElicitation(t, params); err != nil {
		t.Fatalf("sent params against the unstable schema: %v", err)
	}
}
