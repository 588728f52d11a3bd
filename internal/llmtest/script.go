package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// scriptTurn is one turn in a script file: Turn's fields in lower camel
// case. Expect cannot be written in a file.
type scriptTurn struct {
	Reasoning      string         `yaml:"reasoning"`
	Text           string         `yaml:"text"`
	ToolCalls      []scriptCall   `yaml:"toolCalls"`
	Finish         string         `yaml:"finish"`
	Usage          *scriptUsage   `yaml:"usage"`
	Progress       []int          `yaml:"progress"`
	KeepAlives     int            `yaml:"keepAlives"`
	ChunkDelay     scriptDuration `yaml:"chunkDelay"`
	FirstByteDelay scriptDuration `yaml:"firstByteDelay"`
	Fault          string         `yaml:"fault"`
	FaultAfter     int            `yaml:"faultAfter"`
	ErrorMessage   string         `yaml:"errorMessage"`
	FaultBytes     int            `yaml:"faultBytes"`
	Fixture        string         `yaml:"fixture"`
}

type scriptCall struct {
	ID   string `yaml:"id"`
	Name string `yaml:"name"`
	// Arguments is the raw text when it is a string, so invalid JSON can be
	// scripted; a mapping is turned into compact JSON for convenience.
	Arguments yaml.Node `yaml:"arguments"`
}

type scriptUsage struct {
	PromptTokens     int `yaml:"promptTokens"`
	CompletionTokens int `yaml:"completionTokens"`
	CachedTokens     int `yaml:"cachedTokens"`
}

// scriptDuration accepts Go durations ("50ms", "1.5s") and bare numbers,
// which are milliseconds.
type scriptDuration time.Duration

func (d *scriptDuration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a duration must be a string like 50ms", n.Line)
	}
	if ms, err := strconv.ParseFloat(n.Value, 64); err == nil {
		*d = scriptDuration(ms * float64(time.Millisecond))
		return nil
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %v", n.Line, err)
	}
	*d = scriptDuration(v)
	return nil
}

// LoadScript reads a script file: YAML or JSON, either a list of turns or
// an object with a "turns" list. Unknown keys, unknown faults and unknown
// fixtures are errors, so a typo does not silently change a test.
func LoadScript(path string) ([]Turn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	turns, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return turns, nil
}

// ParseScript is LoadScript on bytes.
func ParseScript(data []byte) ([]Turn, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		// JSON is read by encoding/json (YAML parsers reject tabs that JSON
		// allows), then handed to the YAML decoder for one set of rules.
		var v any
		if err := json.Unmarshal(trimmed, &v); err != nil {
			return nil, err
		}
		y, err := yaml.Marshal(v)
		if err != nil {
			return nil, err
		}
		data = y
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("empty script")
	}
	root := doc.Content[0]
	var list []scriptTurn
	switch root.Kind {
	case yaml.SequenceNode:
		if err := decodeStrict(data, &list); err != nil {
			return nil, err
		}
	case yaml.MappingNode:
		var wrapped struct {
			Turns []scriptTurn `yaml:"turns"`
		}
		if err := decodeStrict(data, &wrapped); err != nil {
			return nil, err
		}
		list = wrapped.Turns
	default:
		return nil, errors.New("a script is a list of turns or {turns: [...]}")
	}
	turns := make([]Turn, 0, len(list))
	for i, st := range list {
		t := Turn{
			Reasoning:      st.Reasoning,
			Text:           st.Text,
			Finish:         st.Finish,
			Progress:       st.Progress,
			KeepAlives:     st.KeepAlives,
			ChunkDelay:     time.Duration(st.ChunkDelay),
			FirstByteDelay: time.Duration(st.FirstByteDelay),
			Fault:          Fault(st.Fault),
			FaultAfter:     st.FaultAfter,
			ErrorMessage:   st.ErrorMessage,
			FaultBytes:     st.FaultBytes,
			Fixture:        st.Fixture,
		}
		if st.Usage != nil {
			t.Usage = &Usage{PromptTokens: st.Usage.PromptTokens, CompletionTokens: st.Usage.CompletionTokens, CachedTokens: st.Usage.CachedTokens}
		}
		for j, c := range st.ToolCalls {
			args, err := argumentsText(&c.Arguments)
			if err != nil {
				return nil, fmt.Errorf("turn %d, tool call %d: %w", i+1, j+1, err)
			}
			if c.Name == "" {
				return nil, fmt.Errorf("turn %d, tool call %d: name is missing", i+1, j+1)
			}
			t.ToolCalls = append(t.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: args})
		}
		turns = append(turns, t)
	}
	if err := checkTurns(turns); err != nil {
		return nil, err
	}
	return turns, nil
}

// decodeStrict decodes the document and rejects keys the script format
// does not have (yaml.v3 checks them only through a Decoder).
func decodeStrict(data []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(v)
	var te *yaml.TypeError
	if errors.As(err, &te) {
		// "line 3: field bogus not found in type llmtest.scriptTurn" names
		// Go types a script writer never sees.
		msgs := make([]string, len(te.Errors))
		for i, m := range te.Errors {
			msgs[i] = unknownField.ReplaceAllString(m, "unknown key $1")
		}
		return errors.New(strings.Join(msgs, "; "))
	}
	return err
}

var unknownField = regexp.MustCompile(`field (\S+) not found in type \S+`)

func argumentsText(n *yaml.Node) (string, error) {
	switch n.Kind {
	case 0:
		return "", nil
	case yaml.ScalarNode:
		return n.Value, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("arguments: %w", err)
	}
	return string(b), nil
}
