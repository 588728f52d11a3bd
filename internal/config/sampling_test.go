package config

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestSamplingMergesOverDefaults(t *testing.T) {
	cfg := mustLoad(t, "sampling:\n  max_tokens: 8192\n", nil)
	want := map[string]any{"temperature": 0.0, "top_p": 0.9, "max_tokens": 8192}
	if !reflect.DeepEqual(cfg.Sampling, want) {
		t.Errorf("sampling = %#v, want %#v", cfg.Sampling, want)
	}
	if cfg.MaxTokens() != 8192 {
		t.Errorf("MaxTokens = %d", cfg.MaxTokens())
	}

	cfg = mustLoad(t, `
sampling:
  temperature: 1
  top_p: null
  seed: 42
  stop: "END"
  parallel_tool_calls: false
  chat_template_kwargs: {enable_thinking: false}
  reasoning_effort: none
  logit_bias: {1234: -100}
  response_format: {type: json_object}
  custom: [1, two, 3.5]
`, nil)
	want = map[string]any{
		"temperature":          1.0, // a declared number is a float64 even written as 1
		"max_tokens":           4096,
		"seed":                 42,
		"stop":                 "END",
		"parallel_tool_calls":  false,
		"chat_template_kwargs": map[string]any{"enable_thinking": false},
		"reasoning_effort":     "none",
		"logit_bias":           map[string]any{"1234": -100},
		"response_format":      map[string]any{"type": "json_object"},
		"custom":               []any{1, "two", 3.5},
	}
	if !reflect.DeepEqual(cfg.Sampling, want) {
		t.Errorf("sampling =\n%#v\nwant\n%#v", cfg.Sampling, want)
	}
	// The request builder encodes the map as JSON: every value must encode.
	if _, err := json.Marshal(cfg.Sampling); err != nil {
		t.Errorf("sampling does not encode: %v", err)
	}
}

func TestSamplingDropsRequestFields(t *testing.T) {
	cfg := mustLoad(t, `
sampling:
  messages: [{role: user, content: hi}]
  tools: []
  tool_choice: required
  functions: x
  function_call: none
  top_p: 0.5
`, nil)
	want := map[string]any{"temperature": 0.0, "top_p": 0.5, "max_tokens": 4096}
	if !reflect.DeepEqual(cfg.Sampling, want) {
		t.Errorf("sampling = %#v, want %#v", cfg.Sampling, want)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings: %q", cfg.Warnings)
	}
}

func TestSamplingStopList(t *testing.T) {
	cfg := mustLoad(t, "sampling:\n  stop: [\"\\n\\n\", END]\n", nil)
	if got, want := cfg.Sampling["stop"], []any{"\n\n", "END"}; !reflect.DeepEqual(got, want) {
		t.Errorf("stop = %#v, want %#v", got, want)
	}
	cfg = mustLoad(t, "sampling:\n  logit_bias: [[\"<think>\", false], [\"<tool_call>\", 3]]\n", nil)
	if got, want := cfg.Sampling["logit_bias"], []any{[]any{"<think>", false}, []any{"<tool_call>", 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("logit_bias = %#v, want %#v", got, want)
	}
}

func TestSamplingTypeErrors(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"sampling:\n  temperature: hot", `line 2: sampling.temperature must be a number, got "hot"`},
		{"sampling:\n  top_p: [0.9]", `line 2: sampling.top_p must be a number, got a list`},
		{"sampling:\n  presence_penalty: true", `line 2: sampling.presence_penalty must be a number, got true`},
		{"sampling:\n  frequency_penalty: .inf", `line 2: sampling.frequency_penalty must be a number, got .inf`},
		{"sampling:\n\n  max_tokens: 4k", `line 3: sampling.max_tokens must be an integer, got "4k"`},
		{"sampling:\n  max_completion_tokens: 1.5", `line 2: sampling.max_completion_tokens must be an integer, got 1.5`},
		{"sampling:\n  seed: x", `line 2: sampling.seed must be an integer, got "x"`},
		{"sampling:\n  n: {}", `line 2: sampling.n must be an integer, got a mapping`},
		{"sampling:\n  top_logprobs: \"3\"", `line 2: sampling.top_logprobs must be an integer, got "3"`},
		{"sampling:\n  logprobs: 1", `line 2: sampling.logprobs must be true or false, got 1`},
		{"sampling:\n  parallel_tool_calls: never", `line 2: sampling.parallel_tool_calls must be true or false, got "never"`},
		{"sampling:\n  stop: {a: b}", `line 2: sampling.stop must be a list of strings, got a mapping`},
		{"sampling:\n  stop: [a, [b]]", `line 2: sampling.stop[1] must be a string, got a list`},
		{"sampling:\n  user: [me]", `line 2: sampling.user must be a string, got a list`},
		{"sampling:\n  reasoning_effort: {level: low}", `line 2: sampling.reasoning_effort must be a string, got a mapping`},
		{"sampling:\n  service_tier: [auto]", `line 2: sampling.service_tier must be a string, got a list`},
		{"sampling:\n  logit_bias: 5", `line 2: sampling.logit_bias must be a mapping of token to bias, or a list, got 5`},
		{"sampling:\n  response_format: json", `line 2: sampling.response_format must be a mapping, got "json"`},
		{"sampling:\n  custom: {x: .nan}", `line 2: sampling.custom.x must be a finite number, got .nan`},
		{"sampling:\n  seed: 1\n  seed: 2", `line 3: sampling.seed is set twice (first on line 2)`},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			wantError(t, tc.yaml, nil, "[config error: agent.yaml: "+tc.want+"]")
		})
	}
}

func TestIsOpenAISamplingKey(t *testing.T) {
	for _, k := range []string{"temperature", "top_p", "max_tokens", "max_completion_tokens", "stop", "seed", "n",
		"presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "response_format",
		"parallel_tool_calls", "user", "reasoning_effort", "service_tier"} {
		if !IsOpenAISamplingKey(k) {
			t.Errorf("%s is an OpenAI parameter", k)
		}
	}
	for _, k := range []string{"chat_template_kwargs", "top_k", "min_p", "repeat_penalty", "messages", "tools", "Temperature"} {
		if IsOpenAISamplingKey(k) {
			t.Errorf("%s is not an OpenAI sampling parameter", k)
		}
	}
	keys := OpenAISamplingKeys()
	if len(keys) != 17 || keys[0] != "frequency_penalty" || keys[len(keys)-1] != "user" {
		t.Errorf("OpenAISamplingKeys = %v", keys)
	}
}
