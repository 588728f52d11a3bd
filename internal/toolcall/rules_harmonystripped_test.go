package toolcall

import "testing"

// Stripped harmony headers (rule_harmony.go, content.go): the channel glued
// to the recipient, the header glued to the message before it, a recipient
// without functions., each beside a near miss that stays text.
func TestRuleHarmonyStripped(t *testing.T) {
	rf := []call{{"read_file", `{"path":"config.yaml"}`}}
	runTemplateCases(t, []templateCase{
		{label: "channel and type glued", content: `analysisThinkingassistant to=functions.read_filecommentaryjson{"path": "config.yaml"}`, want: rf},
		{label: "channel, then type", content: `analysis I'm thinking assistant to=functions.read_file commentary json {"path": "config.yaml"}`, want: rf},
		{label: "header glued to the analysis", content: `analysisRead the config first.to=functions.read_fileanalysis{"path": "config.yaml"}`, want: rf},
		{label: "no functions. namespace", content: `analysisLet's read it.assistantcommentary to=read_file json{"path": "config.yaml"}`, want: rf},
		// Near misses: prose that is not a stripped reply.
		{label: "near miss: glued to a sentence in prose", answer: true, content: `The log ended with first.to=functions.read_file json{"path": "config.yaml"}`},
		{label: "near miss: to=NAME in prose", answer: true, content: `Set the recipient with to=read_file json{"path": "config.yaml"} in the header.`},
		{label: "near miss: undeclared recipient", answer: true, content: `analysisLet's look.assistantcommentary to=browser json{"path": "config.yaml"}`},
	})
}
