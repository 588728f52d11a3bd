package toolcall

import "strings"

// A server that does not know a model's turn tokens are special (a GGUF
// whose metadata lacks them, a chat template that does not match the
// model, a raw completion endpoint behind a proxy) leaves them in the
// content: the beginning-of-text token and the assistant's header before
// the reply, the end-of-turn token after it, and, when it does not stop
// there, turns the model makes up (the tool's result, the user's next
// message). The rules read a reply without them.

// endOfTurn are the end-of-turn, end-of-message and end-of-text tokens of
// the model families mm meets, as each model's tokenizer spells them.
var endOfTurn = []string{
	"<|im_end|>",             // ChatML: Qwen, Hermes, SmolLM, Granite 3 chat
	"<|eot_id|>",             // Llama 3.x end of turn
	"<|eom_id|>",             // Llama 3.1 end of message, after <|python_tag|>
	"<|end_of_text|>",        // Llama 3 base, Granite
	"</s>",                   // Llama 2, Mistral, Mixtral
	"<|end|>",                // Phi-3/4, gpt-oss end of message
	"<|return|>",             // gpt-oss end of the final message
	"<|endoftext|>",          // GPT-2-style BPE: Qwen base, StarCoder, Phi-2
	"<end_of_turn>", "<eos>", // Gemma 2/3
	"<turn|>",               // Gemma 4
	"<｜end▁of▁sentence｜>",   // DeepSeek
	"<|end▁of▁sentence|>",   // DeepSeek, with ASCII bars as some GGUFs print it
	"<|END_OF_TURN_TOKEN|>", // Command R
}

// startOfTurn are the beginning-of-text tokens and assistant headers that
// open a reply when the template the server applied left the model to
// write them.
var startOfTurn = []string{
	"<s>", "<|begin_of_text|>", "<｜begin▁of▁sentence｜>", "<|begin▁of▁sentence|>",
	"<bos>", "<|startoftext|>",
	"<|im_start|>assistant", "<|start_header_id|>assistant<|end_header_id|>",
	"<start_of_turn>model", "<|turn>model", "<｜Assistant｜>", "<|Assistant|>",
	"<|assistant|>", "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
	"<|start_of_role|>assistant<|end_of_role|>",
}

// turnOpeners begin a turn that is not the assistant's reply: after an
// end-of-turn token, what follows one of them was made up by the model.
var turnOpeners = []string{
	"<|im_start|>", "<|start_header_id|>", "<start_of_turn>", "<|turn>",
	"<|start|>", "<｜tool▁outputs▁begin｜>", "<｜tool▁output▁begin｜>", "<｜User｜>",
	"<|User|>", "[TOOL_RESULTS]", "[INST]", "<|user|>", "<|tool|>",
	"<|START_OF_TURN_TOKEN|>", "<|start_of_role|>", "<s>", "<|begin_of_text|>",
}

// trimTurnFrame removes the turn tokens that open and end content (and the
// blanks around them). Content with none comes back as the same string.
func trimTurnFrame(content string) string {
	body := content
	if strings.HasPrefix(strings.TrimLeft(body, " \t\r\n"), "<") {
		for {
			t := strings.TrimLeft(body, " \t\r\n")
			tok := hasAnyPrefix(t, startOfTurn)
			if tok == "" || tok == chatGLM3Header && chatGLM3Shape(t) { // rule_round18.go
				break
			}
			body = strings.TrimLeft(t[len(tok):], " \t\r\n")
		}
	}
	if strings.HasSuffix(strings.TrimRight(body, " \t\r\n"), ">") {
		for {
			t := strings.TrimRight(body, " \t\r\n")
			tok := hasAnySuffix(t, endOfTurn)
			if tok == "" {
				break
			}
			body = t[:len(t)-len(tok)]
		}
	}
	if body == content {
		return content
	}
	return body
}

// cutMadeUpTurns cuts content at the first end-of-turn token that a turn
// opener follows: what comes after it (rest) is a turn the model made up.
func cutMadeUpTurns(content string) (own, rest string, ok bool) {
	if strings.IndexByte(content, '<') < 0 {
		return content, "", false // every end-of-turn token holds '<'
	}
	// next[k] is where endOfTurn[k] next occurs (-1: no more): each token
	// is searched for once per occurrence, so a reply full of them is
	// read in linear time.
	next := make([]int, len(endOfTurn))
	for k, t := range endOfTurn {
		next[k] = strings.Index(content, t)
	}
	for {
		k := -1
		for m, at := range next {
			if at >= 0 && (k < 0 || at < next[k]) {
				k = m
			}
		}
		if k < 0 {
			return content, "", false
		}
		i := next[k]
		end := i + len(endOfTurn[k])
		after := strings.TrimLeft(content[end:], " \t\r\n")
		// gpt-oss ends each message of its reply with <|end|> and opens the
		// next with <|start|>assistant: one turn, not a made-up one.
		if hasAnyPrefix(after, turnOpeners) != "" && !strings.HasPrefix(after, "<|start|>assistant") {
			return trimTurnFrame(content[:i]), content[end:], true
		}
		if n := strings.Index(content[end:], endOfTurn[k]); n >= 0 {
			next[k] = end + n
		} else {
			next[k] = -1
		}
	}
}

// callClosers end a call in the formats whose values are raw text (XML
// parameters, GLM values, harmony and Gemma bodies): a value that holds
// turn tokens and is closed after them is the model's own text (a
// write_file of a chat-template document), not a turn it made up.
var callClosers = []string{
	"</parameter>", "</function>", "</tool_call>", "</arg_value>", "<|call|>",
	"<tool_call|>", "</invoke>", "<｜tool▁call▁end｜>", "<|tool_call_end|>",
}

// preferOwnTurn says whether the reply cut before a made-up turn (own)
// decides rather than the whole reply (full): when only the cut one finds
// a call, when the whole one's extra calls come from the made-up turn, or
// when a value the whole one read runs into the made-up turn with no
// closer after it.
func preferOwnTurn(full, own Result, rest string) bool {
	if len(own.Calls) == 0 && len(own.Rejections) == 0 {
		return false
	}
	if len(full.Calls) == 0 {
		return true
	}
	if ownOnlyCut(full, own) { // rule_redteam7.go
		return false
	}
	if len(own.Calls) > 0 && len(own.Calls) <= len(full.Calls) {
		same := true
		for k, c := range own.Calls {
			if c.Name != full.Calls[k].Name || string(c.Arguments) != string(full.Calls[k].Arguments) {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return !containsAny(rest, callClosers)
}

func containsAny(s string, list []string) bool {
	for _, p := range list {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, list []string) string {
	for _, p := range list {
		if strings.HasPrefix(s, p) {
			return p
		}
	}
	return ""
}

func hasAnySuffix(s string, list []string) string {
	for _, p := range list {
		if strings.HasSuffix(s, p) {
			return p
		}
	}
	return ""
}
