package llm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
)

// overflow is a server's "the prompt does not fit" error, with its figures.
type overflow struct{ tokens, window int }

var (
	// llama-server: "request (2383 tokens) exceeds the available context
	// size (2048 tokens), try increasing it" (g1_ctx_overflow), with the
	// same figures in n_prompt_tokens and n_ctx.
	llamaOverflowRe = regexp.MustCompile(`request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)`)
	// OpenAI and vLLM: "This model's maximum context length is 4096
	// tokens. However, your messages resulted in 5000 tokens…".
	openAIOverflowRe = regexp.MustCompile(`(?s)maximum context length is (\d+) tokens.*?(\d+) (?:input )?tokens`)
)

// parseOverflow recognises a context overflow in the "error" value of an
// error answer.
func parseOverflow(raw json.RawMessage) (overflow, bool) {
	var e struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Prompt  int    `json:"n_prompt_tokens"`
		NCtx    int    `json:"n_ctx"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return overflow{}, false
	}
	if e.Type == "exceed_context_size_error" && e.Prompt > 0 && e.NCtx > 0 {
		return overflow{e.Prompt, e.NCtx}, true
	}
	if m := llamaOverflowRe.FindStringSubmatch(e.Message); m != nil {
		return overflow{atoi(m[1]), atoi(m[2])}, true
	}
	if m := openAIOverflowRe.FindStringSubmatch(e.Message); m != nil {
		return overflow{atoi(m[2]), atoi(m[1])}, true
	}
	return overflow{}, false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// OverflowMessage says that the conversation does not fit the context
// window, with the figures and what to do. estimated is mm's own check
// before sending: its figure is a lower bound, and nothing was sent.
func OverflowMessage(p Provider, model string, tokens, window int, estimated bool) string {
	var head string
	if estimated {
		head = fmt.Sprintf("the conversation is at least %d tokens, more than the model's context window (%d tokens) — mm did not send it.", tokens, window)
	} else {
		head = fmt.Sprintf("the conversation is %d tokens, more than the server's context window (%d tokens).", tokens, window)
	}
	return head + " Compress it (/compact in line mode) or start a new conversation (/new), ask for less at once, or give the model a larger context: " +
		p.contextHint(roomFor(tokens), model)
}

// roomFor is a context size to suggest: a power of two with a quarter
// more than tokens, for the answer and what follows.
func roomFor(tokens int) int {
	n := 1024
	for n < tokens+tokens/4 && n < 1<<24 {
		n *= 2
	}
	return n
}
