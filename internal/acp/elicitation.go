package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	acpsdk "github.com/coder/acp-go-sdk"
)

// ElicitationRequest is a form elicitation/create request (unstable
// schema) with the scope acp-go-sdk v0.13.0 leaves out of its
// UnstableCreateElicitationRequest: the session it belongs to and,
// optionally, the tool call that asks (coder/acp-go-sdk PR #51, not
// merged). A client such as Zed, or mm driving a child `mm -acp`, needs
// sessionId to show the question in the right conversation.
type ElicitationRequest struct {
	Meta            map[string]any                   `json:"_meta,omitempty"`
	SessionId       acpsdk.SessionId                 `json:"sessionId"`
	ToolCallId      *acpsdk.ToolCallId               `json:"toolCallId,omitempty"`
	Mode            string                           `json:"mode"` // "form"
	Message         string                           `json:"message"`
	RequestedSchema acpsdk.UnstableElicitationSchema `json:"requestedSchema"`
}

// CreateElicitation sends req on c, the raw JSON-RPC connection, and
// waits for the user's answer (accept with content, decline or cancel).
func CreateElicitation(ctx context.Context, c *acpsdk.Connection, req ElicitationRequest) (acpsdk.UnstableCreateElicitationResponse, error) {
	if req.Mode == "" {
		req.Mode = "form"
	}
	return acpsdk.SendRequest[acpsdk.UnstableCreateElicitationResponse](c, ctx, acpsdk.ClientMethodElicitationCreate, req)
}

// DecodeElicitation is the receiving side: elicitation/create params with
// their sessionId, which the SDK's own type drops.
func DecodeElicitation(params json.RawMessage) (ElicitationRequest, error) {
	var r ElicitationRequest
	if err := json.Unmarshal(params, &r); err != nil {
		return r, err
	}
	if r.Mode != "form" {
		return r, fmt.Errorf("elicitation mode %q: mm asks with forms only", r.Mode)
	}
	if r.SessionId == "" {
		return r, fmt.Errorf("elicitation without sessionId")
	}
	return r, nil
}

// scopeKey carries an elicitation's scope through the SDK's request type,
// which has no field for it, to ElicitationOutput.
const scopeKey = "mm/elicitationScope"

// SendElicitation sends req over the SDK's agent-side connection, which
// keeps its *acpsdk.Connection to itself (so CreateElicitation cannot be
// used there) and sends only the SDK's type, without sessionId. The
// scope rides in _meta under scopeKey, and ElicitationOutput, the writer
// the facade gives NewAgentSideConnection, moves it where the schema
// wants it. Without that writer the client gets no sessionId.
func SendElicitation(ctx context.Context, conn *acpsdk.AgentSideConnection, req ElicitationRequest) (acpsdk.UnstableCreateElicitationResponse, error) {
	meta := map[string]any{scopeKey: map[string]any{"sessionId": req.SessionId, "toolCallId": req.ToolCallId}}
	for k, v := range req.Meta {
		meta[k] = v
	}
	return conn.UnstableCreateElicitation(ctx, acpsdk.UnstableCreateElicitationRequest{Form: &acpsdk.UnstableCreateElicitationForm{
		Meta: meta, Message: req.Message, RequestedSchema: req.RequestedSchema,
	}})
}

// ElicitationOutput wraps the agent's output: an elicitation/create
// request written by SendElicitation gets its sessionId (and toolCallId)
// back at the top level of its params. The SDK writes each message with
// one Write; every other write passes through untouched.
func ElicitationOutput(w io.Writer) io.Writer { return elicitationOutput{w} }

type elicitationOutput struct{ w io.Writer }

func (o elicitationOutput) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte(scopeKey)) {
		return o.w.Write(p)
	}
	line, err := withScope(p)
	if err != nil {
		return o.w.Write(p) // not ours after all: as written
	}
	if _, err := o.w.Write(line); err != nil {
		return 0, err
	}
	return len(p), nil
}

// withScope rewrites one JSON-RPC line of elicitation/create.
func withScope(p []byte) ([]byte, error) {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(p, &msg); err != nil {
		return nil, err
	}
	var method string
	if json.Unmarshal(msg["method"], &method) != nil || method != acpsdk.ClientMethodElicitationCreate {
		return nil, fmt.Errorf("not elicitation/create")
	}
	var params map[string]any
	if err := json.Unmarshal(msg["params"], &params); err != nil {
		return nil, err
	}
	meta, _ := params["_meta"].(map[string]any)
	scope, ok := meta[scopeKey].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no scope")
	}
	delete(meta, scopeKey)
	if len(meta) == 0 {
		delete(params, "_meta")
	}
	params["sessionId"] = scope["sessionId"]
	if id, ok := scope["toolCallId"].(string); ok {
		params["toolCallId"] = id
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	msg["params"] = b
	line, err := json.Marshal(msg)
	return append(line, '\n'), err
}
