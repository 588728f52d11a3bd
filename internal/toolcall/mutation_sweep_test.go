package toolcall

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// endOfTurnTokens are the end-of-turn and end-of-text tokens of the
// families in the corpus, as they appear in content when the server does
// not treat them as special (a GGUF whose metadata lacks them, a chat
// template that does not match the model): Qwen/ChatML, Llama 3, Llama 2
// and Mistral, Phi, GPT-2-style, Gemma, DeepSeek, gpt-oss, Granite.
var endOfTurnTokens = []string{
	"<|im_end|>", "<|eot_id|>", "</s>", "<|end|>", "<|endoftext|>",
	"<end_of_turn>", "<|end_of_text|>", "<｜end▁of▁sentence｜>", "<|return|>",
	"<|eom_id|>", "<eos>", "<turn|>", "<|END_OF_TURN_TOKEN|>",
}

// TestMarkupMutations checks the rules against the faults that change a
// call's frame rather than its body, on every text case of the corpus: an
// end-of-turn token the server left in the content after the call, and the
// call's closer eaten as a stop string. Neither may lose a call, and a
// leaked token may not make a negative run.
func TestMarkupMutations(t *testing.T) {
	// A deterministic sample keeps the sweep cheap (53,000 mutations took
	// 30 s, the longest test of make test): each case gets every stride-th
	// frame mutation, from an offset that moves with the case, so that
	// together the cases try every mutation many times over; the eaten
	// closer is tried on every case. MM_MUTATIONS_FULL=1 tries them all.
	stride := 4
	if os.Getenv("MM_MUTATIONS_FULL") == "1" {
		stride = 1
	}
	n, changed := 0, 0
	for ci, c := range loadCorpus(t) {
		if c.Content == nil || len(c.ToolCalls) > 0 || c.FinishReason == "length" {
			continue
		}
		if !scoreCase(t, c).ok {
			continue // TestCorpus reports it
		}
		var muts []struct{ name, text string }
		sampled := 0 // frame mutations seen, of which every stride-th is kept
		keep := func(name, text string) {
			if sampled++; (ci+sampled)%stride == 0 {
				muts = append(muts, struct{ name, text string }{name, text})
			}
		}
		body := *c.Content
		trimmed := strings.TrimRight(body, " \n")
		for _, tok := range endOfTurnTokens {
			keep("end token "+tok, trimmed+tok)
		}
		for _, lead := range leakedTurnStarts {
			keep("start "+lead, lead+body)
		}
		for _, next := range nextTurn {
			keep("next turn "+next[:12], trimmed+next)
		}
		if c.Kind == "call" && !closerEndsValue[c.ID] {
			if cl := closerAtEnd(trimmed); cl != "" {
				muts = append(muts, struct{ name, text string }{"closer " + cl + " eaten", strings.TrimSuffix(trimmed, cl)})
			}
		}
		for _, m := range muts {
			vc := c
			text := m.text
			vc.Content = &text
			n++
			if o := scoreCase(t, vc); !o.ok {
				changed++
				t.Errorf("%s %s with %s: %s", c.File, c.ID, m.name, o.why)
			}
		}
	}
	t.Logf("%d mutations of the text cases, %d changed their outcome", n, changed)
}

// closerAtEnd names the call closer ending text, if any: the ones a server
// treats as a stop string and so may remove.
func closerAtEnd(text string) string {
	for _, cl := range []string{
		"</tool_call>", "<|call|>", "<｜tool▁calls▁end｜>", "<tool_call|>",
		"<|tool_calls_section_end|>", "<|tool_call_end|>", "<|END_ACTION|>",
		"</function>", "<|/tool_call|>", "<|/tool_calls|>", "<|tools_suffix|>",
		"</seed:tool_call>", "</minimax:tool_call>", "[/TOOL_CALLS]", "<end_function_call>",
	} {
		if strings.HasSuffix(text, cl) {
			return cl
		}
	}
	return ""
}

// leakedTurnStarts are the beginning-of-text tokens and assistant headers a
// server leaves before the reply when the template it applied and the
// model's do not match.
var leakedTurnStarts = []string{
	"<s>", "<|begin_of_text|>", "<|im_start|>assistant\n",
	"<|start_header_id|>assistant<|end_header_id|>\n\n", "<start_of_turn>model\n",
	"<｜Assistant｜>", "<|assistant|>\n",
}

// nextTurn are the turns a model writes after its own when the server
// does not stop at its end-of-turn token: it makes up the tool's result
// and the user's next message.
// closerEndsValue are the calls whose closer is all that ends a value left
// open: an object (rule "closed_by_call_closer", lenient.go), a <content>
// element without its own closer (generic_markup's genericElement). With
// the closer eaten as well, the call is cut, and is rightly corrected.
var closerEndsValue = map[string]bool{"gemma-13h022": true, "write_file-13n125": true,
	// The object's braces never close: only </tool_call> says the call
	// ended (round 17h).
	"hermes-17h009": true, "hermes-19t012": true,
	// A Qwen3-Coder value whose </parameter> and </function> were never
	// written: </tool_call> is all that ends it; eaten, the value is cut
	// inside its wrapper (cut_wrapped_value, round 17p).
	"qwen3_coder_xml-23b024": true}

var nextTurn = []string{
	"<|im_end|>\n<|im_start|>user\n<tool_response>\n{\"output\": \"ok\"}\n</tool_response><|im_end|>\n<|im_start|>assistant\nDone.",
	"<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n{\"output\": \"ok\"}<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nDone.",
	"<｜end▁of▁sentence｜><｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{\"output\": \"ok\"}<｜tool▁output▁end｜><｜tool▁outputs▁end｜>Done.",
	"</s>[TOOL_RESULTS]{\"content\": \"ok\"}[/TOOL_RESULTS]Done.",
	"<end_of_turn>\n<start_of_turn>user\n```tool_output\nok\n```<end_of_turn>\n<start_of_turn>model\nDone.",
}

// harmonyToken is one of gpt-oss's special tokens (<|channel|>, <|message|>…).
var harmonyToken = regexp.MustCompile(`<\|[a-z_]+\|>`)

// strippedRawBody are harmony cases whose call body is raw text (a shell
// command, a quoted JSON string): with the tokens gone nothing marks where
// it begins, so they are not read stripped.
var strippedRawBody = map[string]bool{"gpt_oss-007": true, "gpt_oss-w009": true, "gpt_oss-e004": true, "gpt_oss-s001": true,
	"negative_file-w005": true, // a write_file whose content holds harmony: stripping changes the expected content
	// Read only with their tokens: a parser test's filler words between
	// the channel and the recipient, and a header under prose, which
	// stripped is pasted text (strippedHarmonyReply).
	"gpt_oss-j001": true, "gpt_oss-j004": true,
}

// TestHarmonyStripped checks gpt-oss's replies with their special tokens
// removed, as servers that treat them as text to hide do: the calls are
// still read from what is left of the headers, no negative runs, and a
// reject runs nothing (its correction may be lost with the markup).
func TestHarmonyStripped(t *testing.T) {
	n, changed := 0, 0
	for _, c := range loadCorpus(t) {
		if c.Content == nil || len(c.ToolCalls) > 0 || c.FinishReason == "length" || !strings.Contains(*c.Content, "<|channel|>") {
			continue
		}
		if strippedRawBody[c.ID] || !scoreCase(t, c).ok {
			continue
		}
		text := harmonyToken.ReplaceAllString(*c.Content, "")
		vc := c
		vc.Content = &text
		n++
		o := scoreCase(t, vc)
		if c.Kind == "reject" && o.runs == 0 {
			continue
		}
		if !o.ok {
			changed++
			t.Errorf("%s %s stripped: %s\n%q", c.File, c.ID, o.why, text)
		}
	}
	t.Logf("%d stripped harmony replies, %d changed their outcome", n, changed)
}
