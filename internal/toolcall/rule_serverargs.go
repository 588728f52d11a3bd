package toolcall

import (
	"strings"
)

// Rules for a server call's arguments text that is not the JSON object it
// should be, in the shapes a model writes when the server hands its text
// over unparsed. Each reads the text only when what it finds names the
// declared tool's own arguments; anything else keeps the existing outcome.

// harmonyArgTokens is rule "harmony tokens in the arguments": a server that
// cut gpt-oss's header at the recipient passes the rest of the message as
// the arguments, <|constrain|>json<|message|>{…}<|call|> (the harmony
// format's message layout, openai/harmony's docs). The tokens are not part
// of the object.
func harmonyArgTokens(text string) (string, bool) {
	t := text
	t = strings.TrimPrefix(t, "<|constrain|>")
	if len(t) >= 4 && strings.EqualFold(t[:4], "json") && t != text {
		t = t[4:]
	}
	t = strings.TrimPrefix(strings.TrimSpace(t), "<|message|>")
	for _, end := range []string{"<|call|>", "<|end|>"} {
		t = strings.TrimSuffix(strings.TrimSpace(t), end)
	}
	t = strings.TrimSpace(t)
	if t == text || t == "" || t[0] != '{' {
		return text, false
	}
	return t, true
}

// escapedObject is rule "escaped arguments without their quotes": the
// double-encoded object ("{\"path\": …}") with its outer quotes lost in a
// log or a proxy, {\"path\": \"a.go\"}. It is read as the JSON string it
// was.
func escapedObject(text string) (map[string]any, bool) {
	if !strings.HasPrefix(text, `{\"`) {
		return nil, false
	}
	v, ok := decodeText(`"` + text + `"`)
	if !ok {
		return nil, false
	}
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	dv, ok := decodeText(s)
	if !ok {
		return nil, false
	}
	m, ok := dv.(map[string]any)
	return m, ok
}

// keywordArgs is rule "arguments as keywords": path="a.go" (Python's
// keyword arguments, the form of Llama's <|python_tag|>NAME.call(…) and of
// pythonic calls) or path: a.go, one per line (YAML's block mapping), given
// as the arguments text. Every key must be a declared argument of the
// tool: a shell command that starts with FOO=bar stays a command.
func keywordArgs(text string, o *objSchema) (map[string]any, bool, bool) {
	k := 0
	for k < len(text) && isIdent(text[k]) {
		k++
	}
	if k == 0 || !o.has(text[:k]) {
		return nil, false, false
	}
	rest := strings.TrimLeft(text[k:], " \t")
	switch {
	case strings.HasPrefix(rest, "="):
		c, end, ok := pyArgs("("+text+")", "", 0)
		args, isMap := c.args.(map[string]any)
		if !ok || c.fail != failNone || !isMap || end != len(text)+2 {
			return nil, false, false
		}
		for key := range args {
			if !o.has(key) {
				return nil, false, false
			}
		}
		return args, false, true
	case strings.HasPrefix(rest, ":"):
		args := map[string]any{}
		for _, line := range strings.Split(text, "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			key, val, found := strings.Cut(line, ":")
			key = strings.TrimSpace(key)
			if !found || !o.has(key) {
				return nil, false, false
			}
			if _, dup := args[key]; dup {
				return nil, false, false
			}
			args[key] = yamlScalar(strings.TrimSpace(val)) // rule_redteam7.go
		}
		return args, true, true
	}
	return nil, false, false
}

// argWrappers are the keys models put the arguments under, one level too
// deep: {"arguments": {…}} (OpenAI's own field name), {"parameters": {…}}
// (Llama's), {"input": {…}} (Anthropic's tool_use), {"args": …},
// {"kwargs": …}, {"params": …}.
var argWrappers = []string{"arguments", "parameters", "input", "args", "kwargs", "params"}

// unwrapArgWrapper is rule "arguments one level too deep": an object whose
// only key is one of argWrappers, not a declared argument, and whose value
// is an object (or the JSON text of one).
func unwrapArgWrapper(o *objSchema, args map[string]any) (map[string]any, bool) {
	if len(args) != 1 {
		return args, false
	}
	for _, k := range argWrappers {
		v, ok := args[k]
		if !ok || o.has(k) {
			continue
		}
		switch inner := v.(type) {
		case map[string]any:
			return inner, true
		case string:
			if dv, ok := decodeText(inner); ok {
				if m, ok := dv.(map[string]any); ok {
					return m, true
				}
			}
		}
	}
	return args, false
}
