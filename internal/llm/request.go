package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/firebase/genkit/go/ai"
)

// RequestOptions are the parts of a chat request that do not come from the
// conversation.
type RequestOptions struct {
	Model    string
	Sampling map[string]any
	// Progress asks a llama.cpp server for prompt_progress events.
	Progress bool
}

// ignoredSampling are keys a user may write in sampling that mm builds
// itself from the conversation: they are never sent from the map.
var ignoredSampling = map[string]bool{
	"messages": true, "tools": true, "tool_choice": true, "functions": true, "function_call": true,
	"model": true, "stream": true, "stream_options": true,
}

type samplingKind int

const (
	kindNumber samplingKind = iota + 1
	kindInteger
	kindBool
	kindString
)

// openAISampling are the generation keys the OpenAI API declares with a
// scalar type. mm sends them with that type (a YAML `max_tokens: 4096.0`
// goes out as 4096); any other key goes out as written.
var openAISampling = map[string]samplingKind{
	"temperature": kindNumber, "top_p": kindNumber, "presence_penalty": kindNumber, "frequency_penalty": kindNumber,
	"max_tokens": kindInteger, "max_completion_tokens": kindInteger, "seed": kindInteger, "n": kindInteger, "top_logprobs": kindInteger,
	"logprobs": kindBool, "parallel_tool_calls": kindBool,
	"user": kindString, "reasoning_effort": kindString, "service_tier": kindString,
}

type wireRequest struct {
	Model          string         `json:"model"`
	Messages       []wireMessage  `json:"messages"`
	Tools          []wireTool     `json:"tools,omitempty"`
	ToolChoice     string         `json:"tool_choice,omitempty"` // only the constrained retry of a broken call sets it
	Stream         bool           `json:"stream"`
	StreamOptions  *streamOptions `json:"stream_options,omitempty"`
	ReturnProgress bool           `json:"return_progress,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string      `json:"type"`
	Function wireToolDef `json:"function"`
}

type wireToolDef struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Parameters  any    `json:"parameters"`
}

// RawSchemaKey is the ToolDefinition metadata key holding a tool's schema
// as written (a string). When present it is sent byte for byte instead of
// InputSchema: a decoded map would be marshalled with its keys sorted, and
// llama.cpp's grammar makes the model write properties in schema order.
const RawSchemaKey = "rawSchema"

// ToolParameters is a tool's parameters schema as it is sent: the tool's
// own JSON text when it has one (an MCP server's, kept byte for byte),
// else its schema, else an object with no properties.
func ToolParameters(t *ai.ToolDefinition) any {
	if raw, ok := t.Metadata[RawSchemaKey].(string); ok && json.Valid([]byte(raw)) {
		var compact bytes.Buffer
		json.Compact(&compact, []byte(raw))
		return json.RawMessage(compact.Bytes())
	}
	if t.InputSchema == nil {
		return map[string]any{"type": "object", "properties": map[string]any{}}
	}
	return t.InputSchema
}

// BuildRequest writes the body of a streaming chat-completions request.
//
// The bytes are stable for the same conversation: fixed keys first, tools in
// the order given, then the sampling keys sorted by name. A llama.cpp
// server reuses its prompt cache only for a byte-identical prefix.
//
// req.Config, when it is a map, overrides sampling keys for this request
// only (a nil value removes the key): the summary request of compression
// uses it.
func BuildRequest(req *ai.ModelRequest, o RequestOptions) ([]byte, error) {
	w := wireRequest{
		Model:          o.Model,
		Stream:         true,
		StreamOptions:  &streamOptions{IncludeUsage: true},
		ReturnProgress: o.Progress,
		ToolChoice:     string(req.ToolChoice),
	}
	for _, m := range req.Messages {
		w.Messages = append(w.Messages, wireMessages(m)...)
	}
	for _, t := range req.Tools {
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireToolDef{Name: t.Name, Description: t.Description, Parameters: ToolParameters(t)}})
	}
	body, err := marshal(w)
	if err != nil {
		return nil, err
	}
	sampling := mergeSampling(o.Sampling, req.Config)
	keys := make([]string, 0, len(sampling))
	for k := range sampling {
		if !ignoredSampling[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.Write(body[:len(body)-1]) // without the closing brace
	for _, k := range keys {
		v, err := typedSampling(k, sampling[k])
		if err != nil {
			return nil, err
		}
		kb, _ := marshal(k)
		vb, err := marshal(v)
		if err != nil {
			return nil, fmt.Errorf("sampling.%s: %w", k, err)
		}
		buf.WriteByte(',')
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func mergeSampling(base map[string]any, override any) map[string]any {
	over, _ := override.(map[string]any)
	if len(over) == 0 {
		return base
	}
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if v == nil {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

// typedSampling gives an OpenAI key its declared type.
func typedSampling(k string, v any) (any, error) {
	kind, ok := openAISampling[k]
	if !ok {
		return v, nil
	}
	bad := fmt.Errorf("sampling.%s: %v is not a valid value", k, v)
	switch kind {
	case kindNumber:
		if f, ok := asFloat(v); ok {
			return f, nil
		}
		return nil, bad
	case kindInteger:
		if f, ok := asFloat(v); ok && f == math.Trunc(f) {
			return int64(f), nil
		}
		return nil, bad
	case kindBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return nil, bad
	case kindString:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, bad
	}
	return v, nil
}

func asFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// wireMessages turns one Genkit message into OpenAI messages: a tool message
// carries one response per tool call, and OpenAI wants one message each.
func wireMessages(m *ai.Message) []wireMessage {
	switch m.Role {
	case ai.RoleTool:
		var out []wireMessage
		for _, p := range m.Content {
			if p.ToolResponse == nil {
				continue
			}
			content := outputText(p.ToolResponse.Output)
			out = append(out, wireMessage{Role: "tool", Content: &content, ToolCallID: p.ToolResponse.Ref})
		}
		return out
	case ai.RoleModel:
		text := messageText(m)
		wm := wireMessage{Role: "assistant"}
		for _, p := range m.Content {
			if p.ToolRequest == nil {
				continue
			}
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
				ID: p.ToolRequest.Ref, Type: "function",
				Function: wireFunction{Name: p.ToolRequest.Name, Arguments: ArgumentsText(p.ToolRequest.Input)},
			})
		}
		if text != "" || len(wm.ToolCalls) == 0 {
			wm.Content = &text
		}
		return []wireMessage{wm}
	default:
		role := "user"
		if m.Role == ai.RoleSystem {
			role = "system"
		}
		text := messageText(m)
		return []wireMessage{{Role: role, Content: &text}}
	}
}

// messageText joins the text parts of a message. Reasoning parts are left
// out: they are not sent back to the server.
func messageText(m *ai.Message) string {
	var b strings.Builder
	for _, p := range m.Content {
		if p.IsText() {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// ArgumentsText is a tool request's input as the arguments string of an
// OpenAI tool call: raw text (a string or json.RawMessage) as is, anything
// else as JSON.
func ArgumentsText(input any) string {
	switch v := input.(type) {
	case nil:
		return "{}"
	case string:
		return v
	case json.RawMessage:
		return string(v)
	}
	b, err := marshal(input)
	if err != nil {
		return "{}"
	}
	return string(b)
}

func outputText(out any) string {
	switch v := out.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	b, _ := marshal(out)
	return string(b)
}

// marshal is json.Marshal without HTML escaping, so that code in messages
// stays readable in traces (`<`, `>` and `&` are common in code).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
