package config

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// samplingKind is the type the OpenAI chat completions API declares for a
// generation parameter.
type samplingKind int

const (
	kindNumber    samplingKind = iota + 1 // float64
	kindInteger                           // int
	kindBool                              // bool
	kindString                            // string
	kindStop                              // string, or []any of strings
	kindMap                               // map[string]any
	kindLogitBias                         // map[string]any, or []any
)

// openAISampling lists the generation parameters the OpenAI API declares,
// with their type. Their values are checked at load time, so a typo in the
// file is reported with its line rather than as a 400 from the server.
var openAISampling = map[string]samplingKind{
	"temperature":           kindNumber,
	"top_p":                 kindNumber,
	"presence_penalty":      kindNumber,
	"frequency_penalty":     kindNumber,
	"max_tokens":            kindInteger,
	"max_completion_tokens": kindInteger,
	"seed":                  kindInteger,
	"n":                     kindInteger,
	"top_logprobs":          kindInteger,
	"logprobs":              kindBool,
	"parallel_tool_calls":   kindBool,
	"stop":                  kindStop,
	"user":                  kindString,
	"reasoning_effort":      kindString,
	"service_tier":          kindString,
	"logit_bias":            kindLogitBias,
	"response_format":       kindMap,
}

// droppedSampling are request fields mm builds itself from the conversation;
// set in sampling, they are ignored (the reference's rule).
var droppedSampling = map[string]bool{
	"messages":      true,
	"tools":         true,
	"tool_choice":   true,
	"functions":     true,
	"function_call": true,
}

// IsOpenAISamplingKey reports whether k is a generation parameter the
// OpenAI chat completions API declares (temperature, top_p, max_tokens,
// stop, …). The request builder passes the other sampling keys unchanged at
// the top level of the request body. The fields mm builds itself
// (messages, tools, tool_choice, functions, function_call) are not sampling
// keys: they never reach Config.Sampling.
func IsOpenAISamplingKey(k string) bool {
	_, ok := openAISampling[k]
	return ok
}

// OpenAISamplingKeys lists the keys IsOpenAISamplingKey accepts, sorted.
func OpenAISamplingKeys() []string {
	keys := make([]string, 0, len(openAISampling))
	for k := range openAISampling {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sampling merges the file's sampling mapping over the defaults, key by
// key. A key set to null removes it (and its default) from the request.
//
// Go types in Config.Sampling: the OpenAI numbers are float64, integers
// int, booleans bool, user/reasoning_effort/service_tier string, stop a
// string or []any of strings, response_format map[string]any, logit_bias
// map[string]any or []any. Any other key keeps the value YAML gives it
// (int, float64, string, bool, nil, []any, map[string]any; nested mapping
// keys are always strings, so the map encodes to JSON as is).
func (d *decoder) sampling(n *yaml.Node) error {
	ps, err := d.mapping(n, "sampling", " of generation parameters")
	if err != nil {
		return err
	}
	for _, p := range ps {
		key := p.key.Value
		path := "sampling." + key
		v := resolve(p.val)
		if droppedSampling[key] {
			continue
		}
		d.read(path, v)
		if isNull(v) {
			delete(d.cfg.Sampling, key)
			continue
		}
		var val any
		switch openAISampling[key] {
		case kindNumber:
			val, err = d.number(v, path)
		case kindInteger:
			val, err = d.integer(v, path)
		case kindBool:
			val, err = d.boolean(v, path)
		case kindString:
			val, err = d.str(v, path)
		case kindStop:
			if v.Kind == yaml.ScalarNode {
				val, err = d.str(v, path)
				break
			}
			var list []string
			if list, err = d.stringList(v, path); err == nil {
				items := make([]any, len(list))
				for i, s := range list {
					items[i] = s
				}
				val = items
			}
		case kindMap:
			if v.Kind != yaml.MappingNode {
				return d.errAt(v, "%s must be a mapping, got %s", path, describe(v))
			}
			val, err = d.anyValue(v, path, 0)
		case kindLogitBias:
			if v.Kind != yaml.MappingNode && v.Kind != yaml.SequenceNode {
				return d.errAt(v, "%s must be a mapping of token to bias, or a list, got %s", path, describe(v))
			}
			val, err = d.anyValue(v, path, 0)
		default:
			val, err = d.anyValue(v, path, 0)
		}
		if err != nil {
			return err
		}
		d.cfg.Sampling[key] = val
	}
	return nil
}

// anyValue converts a node to plain Go values for the request body. Mapping
// keys become strings (`logit_bias: {1234: -100}` has the key "1234"), which
// JSON needs; numbers JSON cannot carry (.inf, .nan) are refused here.
func (d *decoder) anyValue(n *yaml.Node, path string, depth int) (any, error) {
	n = resolve(n)
	if err := d.spend(n, 1); err != nil {
		return nil, err
	}
	if depth > 64 {
		// An alias inside its own anchor (&x [*x]) nests forever; name the
		// sampling key, the path itself would be 64 levels long.
		root := path
		if i := strings.IndexAny(root[len("sampling."):], ".["); i >= 0 {
			root = root[:len("sampling.")+i]
		}
		return nil, d.errAt(n, "%s nests too deeply (does an alias refer to its own anchor?)", root)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, d.errAt(n, "%s: %s is not a valid %s", path, describe(n), n.ShortTag())
		}
		if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return nil, d.errAt(n, "%s must be a finite number, got %s", path, describe(n))
		}
		return v, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, item := range n.Content {
			v, err := d.anyValue(item, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		ps, err := d.pairs(n, path, 0)
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, len(ps))
		for _, p := range ps {
			v, err := d.anyValue(p.val, join(path, p.key.Value), depth+1)
			if err != nil {
				return nil, err
			}
			out[p.key.Value] = v
		}
		return out, nil
	}
	return nil, d.errAt(n, "%s cannot be read, got %s", path, describe(n))
}
