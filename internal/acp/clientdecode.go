package acp

import (
	"encoding/json"
	"errors"
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"
)

// knownUpdates are the sessionUpdate variants acp-go-sdk v0.13.0 decodes.
var knownUpdates = map[string]bool{
	"user_message_chunk":        true,
	"agent_message_chunk":       true,
	"agent_thought_chunk":       true,
	"tool_call":                 true,
	"tool_call_update":          true,
	"plan":                      true,
	"available_commands_update": true,
	"current_mode_update":       true,
	"config_option_update":      true,
	"session_info_update":       true,
	"usage_update":              true,
}

// DecodeSessionNotification decodes the params of a session/update
// notification, for mm as a client (driving a child `mm -acp`). The
// SDK's SessionUpdate.UnmarshalJSON falls back, for a sessionUpdate it
// does not know, to the first variant whose fields match, so a variant
// added by a newer agent arrives as, say, a user_message_chunk: wrong
// text shown to the user. Here such a variant is reported as unknown
// (known false, Update empty) so the caller ignores it, as the protocol
// asks of a client.
func DecodeSessionNotification(params json.RawMessage) (n acpsdk.SessionNotification, known bool, err error) {
	var raw struct {
		Meta      map[string]any   `json:"_meta,omitempty"`
		SessionId acpsdk.SessionId `json:"sessionId"`
		Update    json.RawMessage  `json:"update"`
	}
	if err := json.Unmarshal(params, &raw); err != nil {
		return n, false, err
	}
	var disc struct {
		SessionUpdate *string `json:"sessionUpdate"`
	}
	if err := json.Unmarshal(raw.Update, &disc); err != nil {
		return n, false, fmt.Errorf("update: %w", err)
	}
	if disc.SessionUpdate == nil {
		return n, false, errors.New("update: no sessionUpdate")
	}
	n.Meta, n.SessionId = raw.Meta, raw.SessionId
	if !knownUpdates[*disc.SessionUpdate] {
		return n, false, nil
	}
	if err := json.Unmarshal(raw.Update, &n.Update); err != nil {
		return n, false, fmt.Errorf("update %s: %w", *disc.SessionUpdate, err)
	}
	return n, true, nil
}
