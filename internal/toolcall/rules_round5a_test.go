package toolcall

import "testing"

// Tests for the rules written for widened-threads-round5a.jsonl: the two
// lead-ins of rule_intent_wide.go (exampleTailRe, specAsksRe) and the run
// of back-to-back calls of rule_round5a.go (callRun), each with near misses
// that must still run.

const (
	glmSF  = "<tool_call>fetch_content<arg_key>url</arg_key><arg_value>SF</arg_value></tool_call>"
	glmNYC = "<tool_call>fetch_content<arg_key>url</arg_key><arg_value>NYC</arg_value></tool_call>"
	jsonRF = `{"name": "read_file", "arguments": {"path": "main.go"}}`
)

// exampleTailRe: "…, for example:" ending the lead-in shows the call.
func TestRuleForExampleEndsLeadIn(t *testing.T) {
	wantText(t, "glm fenced", recoverText(t, "GLM-4.7 writes parallel calls back to back, for example:\n\n```xml\n"+glmSF+"\n"+glmNYC+"\n```\n\nA parser must loop."))
	wantText(t, "bare json", recoverText(t, "Qwen2.5-Coder often answers without tags, for instance:\n\n"+jsonRF))
	wantText(t, "e.g.", recoverText(t, "Some models fence the object (e.g.:\n```json\n"+jsonRF+"\n```"))
	// Near misses: the words open the lead-in, or are part of another phrase.
	checkCalls(t, "opens the lead-in", recoverText(t, "For example, let me read main.go:\n\n"+jsonRF), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "run the example", recoverText(t, "Let me run the example:\n```json\n"+jsonRF+"\n```"), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "example file", recoverText(t, "I'll read the example configuration:\n\n"+jsonRF), call{"read_file", `{"path":"main.go"}`})
}

// specAsksRe: what a template, prompt, parser or the docs ask of a model,
// quoted; never with the model itself as the subject.
func TestRuleSpecAsksLeadIn(t *testing.T) {
	wantText(t, "template asks", recoverText(t, "Qwen's Hermes-style template asks the model to answer a tool request like this:\n\n```json\n"+jsonRF+"\n```\n\nwrapped in tags."))
	wantText(t, "prompt expects", recoverText(t, "The system prompt expects each call in this form:\n\n"+jsonRF))
	// Near misses: the model speaks (I, let me), or the spec is only the
	// reason for a call it makes.
	checkCalls(t, "let me", recoverText(t, "The template expects a path, so let me read it:\n```json\n"+jsonRF+"\n```"), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "I'll", recoverText(t, "The docs ask for the config first, so I'll read it:\n\n"+jsonRF), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "no asking verb", recoverText(t, "The parser needs main.go:\n\n"+jsonRF), call{"read_file", `{"path":"main.go"}`})
}

// callRun: calls with only white space, ; or , between them share the
// lead-in of the first and the sentence after the last.
func TestRuleBackToBackCallsShareProse(t *testing.T) {
	wantText(t, "example lead-in", recoverText(t, "Here is an example call:\n\n"+glmSF+"\n"+glmNYC+"\n\nThat is the format."))
	wantText(t, "refused after", recoverText(t, glmSF+"\n"+glmNYC+"\n\nI won't run these."))
	// Near misses: a real lead-in runs both; prose between two calls
	// starts a new run with its own lead-in.
	checkCalls(t, "real run", recoverText(t, "Let me fetch both:\n\n"+glmSF+"\n"+glmNYC),
		call{"fetch_content", `{"url":"SF"}`}, call{"fetch_content", `{"url":"NYC"}`})
	checkCalls(t, "prose between", recoverText(t, "Here is an example call:\n\n"+glmSF+"\n\nNow the real one:\n\n"+glmNYC),
		call{"fetch_content", `{"url":"NYC"}`})
	checkCalls(t, "separated by ;", recoverText(t, "Running both:\n"+jsonRF+"; "+`{"name": "bash", "arguments": {"command": "ls"}}`),
		call{"read_file", `{"path":"main.go"}`}, call{"bash", `{"command":"ls"}`})
}
