package agent

import (
	"context"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
	"mm/internal/toolcall"
)

// The constrained retry (docs/tool-calls.md, "Asking again with constrained
// tool calling"): when the recovery layer finds no call to run in a reply,
// only calls it must refuse, a llama.cpp server is asked the same request
// once more with tool_choice "required". llama-server then builds a grammar
// from the tools' schemas and the model can only write a well-formed call
// of a declared tool: the call is valid by construction, where a correction
// would cost a whole round trip and often come back broken again.

// SetToolCallRetry turns the constrained retry on or off: on for the
// llama-server based providers (dmr, llamacpp, llmman) with toolCallRetry,
// whose tool_choice "required" is grammar-constrained; other servers may
// take the key and still not constrain anything.
func (a *Agent) SetToolCallRetry(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.retry = on
}

// wantsRetry says whether a reply is asked again: nothing of it runs, a
// call was attempted and refused for what it says (not for a cut: a reply
// cut by max_tokens is handed back as such), and tools are declared.
func (a *Agent) wantsRetry(resp *ai.ModelResponse, reply toolcall.Result) bool {
	if !a.retry || resp.FinishMessage == "length" || len(reply.Calls) > 0 || len(a.opts.Tools.List()) == 0 {
		return false
	}
	for _, r := range reply.Rejections {
		if !r.Truncated {
			return true
		}
	}
	return false
}

// retryTool is the one declared tool every refused call of the reply was
// about, "" when they name none or several: the notice names it.
func retryTool(rs []toolcall.Rejection) string {
	name := ""
	for _, r := range rs {
		if r.Truncated {
			continue
		}
		if r.Tool == "" || (name != "" && r.Tool != name) {
			return ""
		}
		name = r.Tool
	}
	return name
}

// retryConstrained asks the broken reply's request again, once, with
// tool_choice "required". It returns the retry's reply when a call of it runs,
// and nil when the retry gave nothing better (the server failed, the
// watchdog fired, the call is still refused): the caller then goes on with
// the broken reply as if no retry had been made. The error is the user's
// interrupt, which stops the turn like any request's.
//
// The retry's usage counts in the turn's; it is not a turn of maxTurns (it
// stands for the reply it replaces).
func (a *Agent) retryConstrained(ctx context.Context, ui UI, brokenResp *ai.ModelResponse, broken toolcall.Result, res *Result) (*ai.ModelResponse, toolcall.Result, error) {
	what := "the tool call"
	if name := retryTool(broken.Rejections); name != "" {
		what = "the " + name + " call"
	}
	ui.Notice(what + " could not be repaired; asking again with constrained tool calling")
	// Every tool, not only the one the call named: llama-server keeps one
	// prompt in its cache, and the tools are at the start of it (in the
	// system message), so a narrowed list would make the server read the
	// whole conversation again for the retry, and once more for the next
	// request. With the same tools, the retry's prompt is the broken
	// request's, read from the cache, and the next request extends it
	// (BenchmarkRealToolCallRetry measures both ways).
	//
	// tool_choice "required" alone does not make the call valid: the
	// grammar llama-server builds for it lets the model write text before
	// the call (and a small model writes text until max_tokens). So the
	// retry also sends response_format with the JSON schema of one call,
	// {"name", "arguments"}, narrowed to the tool the refused call named:
	// llama-server turns it into a grammar that holds from the first
	// token, and the reply is one such object, which the recovery reads
	// as the call. The narrowing is in the grammar, not in the tools, so
	// the prompt stays the broken request's.
	defs := a.opts.Tools.Definitions()
	config := map[string]any{"response_format": callResponseFormat(defs, retryTool(broken.Rejections))}
	if n := retryMaxTokens(brokenResp.Usage, a.opts.MaxTokens); n > 0 {
		// max_tokens and response_format are no part of the prompt: the
		// server's cache is not affected.
		config["max_tokens"] = n
	}
	req := &ai.ModelRequest{Messages: a.history, Tools: defs, ToolChoice: ai.ToolChoiceRequired, Config: config}
	resp, _, _, err := a.generateFor(ctx, retryUI{ui}, req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, toolcall.Result{}, err
		}
		return nil, toolcall.Result{}, nil
	}
	addUsage(&res.Usage, resp.Usage)
	reply := a.recover(resp)
	if len(reply.Calls) == 0 {
		return nil, toolcall.Result{}, nil
	}
	if reply.Text != "" {
		ui.Text(reply.Text)
	}
	return resp, reply, nil
}

// retryUI is the UI during the retry: its text and reasoning are held
// back, since a retry that gives no call is dropped (a model that writes
// prose until max_tokens would otherwise show a whole answer that is not
// kept); the text of one that runs is shown once it is known.
type retryUI struct{ UI }

func (retryUI) Text(string)     {}
func (retryUI) Thinking(string) {}

// retryMaxTokens bounds the retry's answer: twice the broken reply's, and
// 64 tokens more, when that is under max_tokens (0: no bound). The call
// asked for is the one the model just wrote, so it needs about as many
// tokens; a server whose grammar lets the model write text before the
// call (llama.cpp's for "required" does) would otherwise let a model that
// never gets to the call run to max_tokens, 4096 by default.
func retryMaxTokens(u *ai.GenerationUsage, maxTokens int) int {
	if u == nil || u.OutputTokens <= 0 {
		return 0
	}
	n := 2*u.OutputTokens + 64
	if maxTokens > 0 && n >= maxTokens {
		return 0
	}
	return n
}

// callResponseFormat is the response_format of the retry: the JSON schema
// of one call written as an object, {"name": NAME, "arguments": {…}}, with
// the arguments' schema of that tool — of the named tool when the refused
// call named one, else of any declared tool (oneOf).
func callResponseFormat(defs []*ai.ToolDefinition, name string) map[string]any {
	var alts []any
	for _, d := range defs {
		if name != "" && d.Name != name {
			continue
		}
		alts = append(alts, map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":      map[string]any{"const": d.Name},
				"arguments": llm.ToolParameters(d),
			},
			"required": []any{"name", "arguments"},
		})
	}
	var schema any = map[string]any{"oneOf": alts}
	if len(alts) == 1 {
		schema = alts[0]
	}
	return map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "tool_call", "schema": schema}}
}
