package acp

import (
	"context"
	"encoding/json"
	"fmt"

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
