// Package toolcall decides which tool calls of a model reply mm runs.
//
// Small local models break their tool calls in many ways: the server leaves
// the call in the content as text (in one of a dozen model formats), or
// hands back tool_calls whose name or arguments are wrong. Recover finds the
// calls wherever they are, repairs what can be repaired without guessing,
// and turns every call that must not run (cut by the token limit, unknown
// tool, missing or unreadable argument) into a short correction for the
// model. The rules are those of docs/tool-calls.md, measured on the corpus
// in testdata.
package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Tool is a declared tool: its name and its JSON schema (properties,
// required, and the type of each property are what the repairs use).
type Tool struct {
	Name   string
	Schema map[string]any // JSON schema object as decoded by encoding/json
}

// RawCall is one entry of the server's tool_calls, as assembled from the
// stream.
type RawCall struct {
	ID   string
	Name string
	// Arguments is the text exactly as received: possibly invalid JSON,
	// double-encoded, an object's JSON text when the server sent an object,
	// or empty.
	Arguments string
}

// Input is one assistant reply as the server returned it.
type Input struct {
	Content      string // the assistant content exactly as received
	Reasoning    string // reasoning_content, if separated; never a source of calls
	ToolCalls    []RawCall
	FinishReason string // "stop", "length", "tool_calls", ...
	Tools        []Tool
}

// Call is a call mm will run: a declared tool name and an arguments object
// valid against its schema.
type Call struct {
	ID        string          // the server's id, or "" when recovered from text
	Name      string          // a declared tool name
	Arguments json.RawMessage // compact JSON object
	Repairs   []string        // what was fixed; empty when the call was clean
}

// Rejection is a call the model attempted that must not run, with the
// correction mm sends back so that the model can do better.
type Rejection struct {
	Name      string // as the model wrote it ("" if unknown)
	Reason    string // the correction text for the model
	Truncated bool   // cut by the token limit, or arguments that never close
	// Tool is the declared tool the call is about, "" when its name is
	// none of them (the constrained retry's notice names it).
	Tool string
}

// Result is what mm runs, what it tells the model, and what the user sees.
type Result struct {
	Calls      []Call
	Rejections []Rejection
	// Text is the content without the recovered call markup (and the
	// wrappers, markers and think blocks that held calls), trimmed. When no
	// call was found it is the content as received.
	Text string
}

// Recover decides which calls of one reply run. Well-formed tool_calls come
// back unchanged; prose without call markers comes back as Text after one
// quick scan.
func Recover(in Input) Result {
	// The reply is read as if the server had treated the model's turn
	// tokens as special (turnframe.go).
	bare := in
	bare.Content = trimTurnFrame(devstralEmptyArgs(in.Content)) // devstralEmptyArgs: rule_round8j.go
	res := recoverReply(bare)
	if own, rest, ok := cutMadeUpTurns(bare.Content); ok {
		cut := bare
		cut.Content = own
		if r := recoverReply(cut); preferOwnTurn(res, r, rest) {
			res = r
		}
	}
	if len(in.ToolCalls) == 0 && len(res.Calls) > 0 && leadSavesElsewhere(res.Text, res.Calls) { // rule_round14r.go
		res = Result{Text: in.Content}
	}
	if bare.Content != in.Content && len(res.Calls) == 0 && len(res.Rejections) == 0 {
		res.Text = in.Content // a final "</s>" may be the answer's own
	}
	return res
}

func recoverReply(in Input) Result {
	ts := newToolset(in.Tools)
	truncated := in.FinishReason == "length"
	var res Result
	if c := functionGemmaUnstopped(in.Content); c != in.Content { // rule_round11h.go
		in.Content = c
		truncated = false // the token limit cut a copy, not the call kept
	}
	written := in.Content
	in.Content = glmSecondOpener(minimaxNamespace(m3LeadingThinkClosers(minimaxAnglesLost(functionGemma(gemmaStrayChannel(step3Steptml(round23Rewrites(round21Rewrites(in.Content, ts), ts)))), ts))), ts) // gemmaStrayChannel: rule_round7e.go; step3Steptml: rule_round11s.go; m3LeadingThinkClosers: rule_round12q.go; round21Rewrites: rule_round21.go

	for _, rc := range mergeFragmentCalls(in.ToolCalls) { // rule_round17.go
		rc.Name = glmSecondOpener(rc.Name, ts)
		if emptyServerCall(rc, in.Content) {
			continue
		}
		if r, ok := nestedOtherCall(rc, ts); ok { // rule_round22.go
			res.Rejections = append(res.Rejections, r)
			continue
		}
		for _, c := range structuredCandidates(rc, ts) {
			emit(&res, ts, dsmlCloserArgs(c), truncated) // rule_round21.go
		}
	}

	fromServer := len(res.Calls)
	res.Text = in.Content
	if len(in.ToolCalls) == 0 {
		// Every line of the reply's end one of these calls: read before
		// the scanner, which would take the JSON inside one for a call of
		// its own (rule_round24.go).
		if cs, lead, ok := callingToolCalls(in.Content, ts); ok {
			emitBlock(&res, ts, cs, lead, truncated)
			res.Calls = dedupeWritten(res.Calls, fromServer)
			res.Text = lead // the call lines are no answer, run or corrected
			return res
		}
		if r, lead, ok := kimiIDFault(in.Content, ts); ok && !truncated { // rule_round24.go
			res.Rejections = append(res.Rejections, r)
			res.Text = lead // the section's tokens are no answer
			return res
		}
		if c, lead, ok := clineBlockFirst(in.Content, ts); ok { // rule_round22.go
			// Read as the block, or shown whole when the lead-in says
			// so: never the JSON inside its values.
			if pre := strings.TrimSpace(stripReasoning(lead)); pre == "" || !notIntended(sentenceBefore(pre, 0, len(pre)), "") && !shownRound21(pre, 0, len(pre), sentenceBefore(pre, 0, len(pre)), "") {
				emit(&res, ts, clineCommandEntities(c, ts), truncated)
				if len(res.Calls) > 0 {
					res.Text = strings.TrimSpace(stripReasoning(lead))
				}
			}
			if len(res.Calls) == 0 && len(res.Rejections) == 0 {
				res.Text = written // shown: the reply as the model wrote it
			}
			return res
		}
	}
	glimmer, gtext, gok := glimmerMessages(in.Content, ts) // rule_round15.go
	if !gok {
		glimmer, gok = glimmerCalls(in.Content, ts) // rule_round14.go
	}
	if gok && len(res.Calls) == 0 {
		for _, c := range glimmer {
			emit(&res, ts, c, truncated)
		}
		res.Text = gtext
		res.Calls = dedupe(res.Calls)
		return res
	}
	if mayHaveCalls(in.Content, ts) {
		sc := scanContent(in.Content, ts)
		for _, c := range sc.cands {
			emit(&res, ts, c, truncated)
		}
		if truncated && len(sc.cands) == 0 && sc.sawOpener && !quotedLoopCut(sc) { // quotedLoopCut: rule_redteam12.go
			res.Rejections = append(res.Rejections, Rejection{
				Truncated: true,
				Reason:    "your reply was cut off by the token limit while you were writing a tool call; nothing was run — send the call again, smaller (split a long file into several calls)",
			})
		}
		res.Text = sc.text
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 && (emptyCallWrapper(in.Content) || callBegunNoName(written) || nameBegunOnly(in.Content) || paramsWithoutFunction(in.Content) || toolCallsNoName(in.Content) || toolCallsNoNameFenced(in.Content) || minimaxOpenerLost(in.Content) || openerWithoutCall(in.Content) || harmonyArgsNoRecipient(in.Content) || qwen3CoderOpenerLost(in.Content) || m3ElementsOpenerLost(in.Content) || unreadableCallBlock(in.Content) || harmonyStrippedNoRecipient(in.Content) || minimaxWrapperCut(in.Content) || namelessCallBlock(in.Content) || barrenCallMarkup(in.Content) || otherWrapperEmpty(in.Content)) { // otherWrapperEmpty: rule_round18.go // namelessCallBlock: rule_round15.go // m3ElementsOpenerLost: rule_round8g.go; unreadableCallBlock: rule_round10p.go; harmonyStrippedNoRecipient, minimaxWrapperCut: rule_round12q.go
		res.Rejections = append(res.Rejections, Rejection{Reason: "your tool call has no tool name; the tools are: " + ts.list()})
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if envelopeCut(in.Content) { // rule_round23.go
			res.Rejections = append(res.Rejections, Rejection{Truncated: true, Reason: cutReason("")})
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		// rule_round18.go
		if interpreterCall(in.Content) {
			res.Rejections = append(res.Rejections, Rejection{Reason: "you called a code interpreter, and there is none here; nothing was run — use one of the tools: " + ts.list()})
		} else if name, ok := selfClosingToolTag(in.Content, ts); ok {
			res.Rejections = append(res.Rejections, Rejection{Name: name, Tool: name, Reason: fmt.Sprintf("your %s call has no arguments; it was not run — send it again with %s", name, argList(ts.schema(name)))})
		} else if name, ok := strippedNameAttrs(in.Content, ts); ok {
			res.Rejections = append(res.Rejections, Rejection{Name: name, Tool: name, Reason: fmt.Sprintf("your %s call lost its markup and could not be read; it was not run — send it again with %s", name, argList(ts.schema(name)))})
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if c, ok := glmBareName(in.Content, ts); ok {
			emit(&res, ts, c, truncated)
		} else if c, ok := glmValueNoKey(in.Content, ts); ok { // rule_round5b.go
			emit(&res, ts, c, truncated)
		} else if c, ok := harmonyHeaderNoMessage(in.Content, ts); ok { // rule_round5b.go
			emit(&res, ts, c, truncated)
		} else if c, ok := flatCallObject(in.Content, ts); ok { // rule_round7e.go
			emit(&res, ts, c, truncated)
		} else if c, ok := toolNameArgsObject(in.Content, ts); ok { // rule_round12q.go
			emit(&res, ts, c, truncated)
		} else if c, ok := namedWordBlock(in.Content, ts); ok { // rule_round15.go
			emit(&res, ts, c, truncated)
		} else if cs, ok := memgptCalls(in.Content, ts); ok { // rule_round15.go
			emitBlock(&res, ts, cs, "", truncated)
		} else if cs, ok := labelledFencedCalls(in.Content, ts); ok { // rule_round15.go
			emitBlock(&res, ts, cs, "", truncated)
		} else if c, ok := autoGPTCommand(in.Content, ts); ok { // rule_round15.go
			emitBlock(&res, ts, []candidate{c}, "", truncated)
		} else if cs, ok := fencedFunctionObjects(in.Content, ts); ok { // rule_round15.go
			emitBlock(&res, ts, cs, "", truncated)
		} else if cs, text, ok := fencedWireCalls(in.Content, ts); ok { // rule_round17.go
			emitBlock(&res, ts, cs, text, truncated)
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if r, ok := reactAction(in.Content, ts); ok {
			res.Rejections = append(res.Rejections, r)
		} else if r, ok := nameKVLine(in.Content, ts); ok { // rule_round4a.go
			res.Rejections = append(res.Rejections, r)
		} else if r, ok := openAIElementText(in.Content, ts); ok { // rule_round4a.go
			res.Rejections = append(res.Rejections, r)
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, rest, ok := continueToolBlocks(continueCanon(in.Content, ts), ts); ok { // rule_continue.go; continueCanon: rule_round15.go
			for _, c := range cs {
				emit(&res, ts, c, truncated)
			}
			if len(res.Calls) > 0 {
				res.Text = rest
			}
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, ok := clineLabelChain(in.Content, ts); ok { // rule_round15.go
			for k := range cs {
				cs[k] = clineCommandEntities(cs[k], ts) // rule_round12q.go, as for every Cline block
			}
			emitBlock(&res, ts, cs, "", truncated)
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if c, lead, ok := clineXMLCall(in.Content, ts); ok || clineXMLOpen(in.Content, ts, &c) { // rule_round4a.go
			// Earlier blocks, each led in by the model's next step
			// (rule_round13.go).
			earlier, first, shown := clineEarlierBlocks(lead, ts)
			for _, e := range earlier {
				emit(&res, ts, clineCommandEntities(e, ts), truncated)
			}
			if !shown {
				emit(&res, ts, clineCommandEntities(c, ts), truncated) // rule_round12q.go
			}
			if len(res.Calls) > 0 {
				res.Text = lead
				if len(earlier) > 0 {
					res.Text = first
				}
			}
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if c, text, ok := clineInlineBlock(in.Content, ts); ok { // rule_round15.go
			emitBlock(&res, ts, []candidate{clineCommandEntities(c, ts)}, text, truncated)
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, lead, ok := kimiK3Calls(in.Content, ts); ok { // rule_round14.go
			emitBlock(&res, ts, cs, lead, truncated)
		} else if c, lead, ok := dsmlShrunk(in.Content, ts); ok { // rule_round15.go
			emitBlock(&res, ts, []candidate{c}, lead, truncated)
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, lead, ok := qwenAgentCalls(qwenAgentBrackets(in.Content), ts); ok { // rule_round13.go; qwenAgentBrackets: rule_round22.go
			emitBlock(&res, ts, cs, lead, truncated)
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, lead, noName, ok := genericMarkupCalls(in.Content, ts); ok { // rule_generic.go
			emitBlock(&res, ts, cs, lead, truncated)
		} else if noName && truncated {
			res.Rejections = append(res.Rejections, Rejection{Truncated: true, Reason: cutReason("")})
		} else if noName {
			res.Rejections = append(res.Rejections, Rejection{Reason: "your tool call has no tool name; the tools are: " + ts.list()})
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if c, ok := pythonicBraces(in.Content, ts); ok { // rule_round14.go
			emit(&res, ts, c, truncated)
		} else if c, ok := toolNameParamsJSON(in.Content, ts); ok { // rule_round15.go
			emit(&res, ts, c, truncated)
			if len(res.Calls) > 0 {
				res.Text = ""
			}
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, lead, ok := pinhookCalls(in.Content, ts); ok { // rule_round20.go
			emitBlock(&res, ts, cs, lead, truncated)
		} else if cs, ok := bareNameCalls(in.Content, ts); ok { // rule_round20.go
			emitBlock(&res, ts, cs, "", truncated)
		} else if c, ok := llama3WholeObject(in.Content, ts); ok { // rule_round20.go
			emit(&res, ts, c, truncated)
		} else if inner, ok := replyAsJSONString(in.Content); ok && len(in.ToolCalls) == 0 { // rule_round20.go
			sub := in
			sub.Content = inner
			if r := Recover(sub); len(r.Calls) > 0 || len(r.Rejections) > 0 {
				res.Calls, res.Rejections, res.Text = r.Calls, r.Rejections, r.Text
			}
		} else if inner, ok := toolTagInWrapper(in.Content, ts); ok && len(in.ToolCalls) == 0 { // rule_round20.go
			sub := in
			sub.Content = inner
			if r := Recover(sub); len(r.Calls) > 0 || len(r.Rejections) > 0 {
				res.Calls, res.Rejections, res.Text = r.Calls, r.Rejections, r.Text
			}
		}
	}
	if len(res.Calls) == 0 && len(res.Rejections) == 0 {
		if cs, ok := selfClosingToolAttrs(in.Content, ts); ok { // rule_round21.go
			emitBlock(&res, ts, cs, "", truncated)
		} else if cs, text, ok := functionaryV2Calls(in.Content, ts); ok { // rule_round21.go
			emitBlock(&res, ts, cs, text, truncated)
		} else if c, lead, ok := reactJSONAction(in.Content, ts); ok { // rule_round22.go
			emitBlock(&res, ts, []candidate{c}, lead, truncated)
		} else if cs, ok := functionKeyList(in.Content, ts); ok { // rule_round22.go
			emitBlock(&res, ts, cs, "", truncated)
		} else if cs, lead, ok := toolCallFences(in.Content, ts); ok { // rule_round24.go
			emitBlock(&res, ts, cs, lead, truncated)

		} else if inner, ok := toolTagParams(in.Content, ts); ok && len(in.ToolCalls) == 0 { // rule_round22.go
			sub := in
			sub.Content = inner
			if r := Recover(sub); len(r.Calls) > 0 || len(r.Rejections) > 0 {
				res.Calls, res.Rejections, res.Text = r.Calls, r.Rejections, r.Text
			}
		}
	}
	if truncated && len(res.Calls) == 0 && len(res.Rejections) == 0 && cutCallObject(in.Content) { // rule_round13.go
		res.Rejections = append(res.Rejections, Rejection{Truncated: true, Reason: cutReason("")})
	}
	res.Calls = dedupeWritten(res.Calls, fromServer) // rule_round21.go
	if len(res.Calls) > 0 {
		res.Text = danglingOpener(res.Text)
	} else if len(res.Rejections) == 0 && in.Content != written {
		res.Text = written // markup spelled anew for the readers, and no call in it: the reply as written
	}
	return res
}

// emitBlock emits the calls one reader found in the text; when any runs,
// the text shown is what came before them (lead).
func emitBlock(res *Result, ts *toolset, cs []candidate, lead string, truncated bool) {
	for _, c := range cs {
		emit(res, ts, c, truncated)
	}
	if len(res.Calls) > 0 {
		res.Text = lead
	}
}

// candidate is a call found somewhere, before its name and arguments are
// checked against the declared tools.
type candidate struct {
	id    string
	name  string // as written
	args  any    // map[string]any, a raw body string, or nil
	clean string // for a well-formed server call: the argument text to keep
	xml   bool   // values are raw text from XML-style markup
	fail  failKind
	msg   string
	key   string   // the argument whose value has no delimiter
	notes []string // repairs made while reading
	// fromText: recovered from the content (a note says so; placeholders
	// make it a non-call).
	fromText bool
	format   string
	strArgs  bool   // "arguments" a JSON string in a call object (rule_round10p.go)
	cutKey   string // a pythonic call cut right after cutKey= (rule_round11s.go)
	// cutNoArgs: a JSON call cut with its arguments object still empty
	// (rule_round11s.go)
	cutNoArgs bool
}

// emit turns a candidate into a call or a rejection.
func emit(res *Result, ts *toolset, c candidate, truncated bool) {
	call, rej, drop := build(ts, c)
	if drop {
		return
	}
	if truncated {
		name := c.name
		if call != nil {
			name = call.Name
		}
		reason := cutReason(echoName(name))
		if c.cutKey != "" { // cut_key_under_limit: rule_redteam12.go
			reason = cutKeyReason(ts.resolve(c.name), echoName(name), echoName(c.cutKey))
		}
		res.Rejections = append(res.Rejections, Rejection{Name: echoName(c.name), Truncated: true, Reason: reason})
		return
	}
	if rej != nil {
		if rej.Tool == "" {
			rej.Tool = ts.resolve(rej.Name)
		}
		rej.Name = echoName(rej.Name)
		res.Rejections = append(res.Rejections, *rej)
		return
	}
	res.Calls = append(res.Calls, *call)
}

func cutReason(name string) string {
	what := "your tool call"
	if name != "" {
		what = "your " + name + " call"
	}
	return what + " was cut off by the token limit before its arguments were complete; it was not run — send it again, smaller (split a long file into several calls)"
}

func (ts *toolset) list() string {
	if len(ts.names) == 0 {
		return "(none: no tool is declared)"
	}
	return strings.Join(ts.names, ", ")
}

// build checks a candidate against the declared tools. drop means it is not
// a call after all (a placeholder).
func build(ts *toolset, c candidate) (*Call, *Rejection, bool) {
	display := cleanName(c.name)
	if display == "" {
		display = c.name
	}
	display = echoName(display)
	if c.fromText && templateName(c.name) {
		return nil, nil, true
	}
	if c.fail == failEOF {
		if c.cutKey != "" { // pyCutBeforeValue: rule_round11s.go
			return nil, &Rejection{Name: c.name, Truncated: true, Reason: cutKeyReason(ts.resolve(c.name), display, echoName(c.cutKey))}, false
		}
		if n := ts.resolve(c.name); c.cutNoArgs && n != "" { // cutBeforeArguments: rule_round11s.go
			return nil, &Rejection{Name: c.name, Truncated: true, Reason: cutBeforeArguments(n, argList(ts.schema(n)))}, false
		}
		return nil, &Rejection{Name: c.name, Truncated: true, Reason: neverClosesReason(ts.resolve(c.name), display)}, false
	}
	name := ts.resolve(c.name)
	if name == "" {
		// The whole call given as the arguments names the tool itself.
		if m, ok := c.args.(map[string]any); ok {
			if inner, ok := m["name"].(string); ok && ts.resolve(inner) != "" {
				if _, ok := m["arguments"]; ok {
					name = ts.resolve(inner)
				} else if _, ok := m["parameters"]; ok {
					name = ts.resolve(inner)
				}
			}
		}
	}
	if name == "" {
		reason := fmt.Sprintf("there is no tool named %s; the tools are: %s", display, ts.list())
		if strings.TrimSpace(c.name) == "" {
			reason = "your tool call has no tool name; the tools are: " + ts.list()
		}
		return nil, &Rejection{Name: c.name, Reason: reason}, false
	}
	switch c.fail {
	case failUndelimited:
		key := echoName(c.key)
		if key == "" {
			key = "a value"
		}
		return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("%s: the value of %s is not quoted and runs over several lines, so where it ends cannot be known; it was not run — send it as a quoted JSON string", name, key)}, false
	case failSyntax:
		return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("the arguments of your %s call could not be read (%s); it was not run — send them as one JSON object with %s", name, echoText(c.msg), argList(ts.schema(name)))}, false
	}

	var repairs []string
	if c.fromText {
		repairs = append(repairs, "call recovered from the text ("+c.format+")")
	}
	if name != c.name {
		repairs = append(repairs, "name "+echoName(c.name)+" → "+name)
	}
	repairs = append(repairs, c.notes...)

	o := ts.schema(name)
	var args map[string]any
	switch a := c.args.(type) {
	case nil:
		args = map[string]any{}
	case map[string]any:
		args = a
	case string:
		if m, ok := quotedObject(strings.TrimSpace(a)); ok {
			args = m
			repairs = append(repairs, "quotes around the JSON object removed")
			break
		}
		if m, ok := encodedObject(strings.TrimSpace(a)); ok { // rule_round8g.go
			args = m
			repairs = append(repairs, "JSON-encoded arguments decoded")
			break
		}
		if m, ok := paramTags(a, o); ok {
			args = m
			repairs = append(repairs, "arguments read from parameter tags")
			c.xml = true
			break
		}
		if stringArgsNotBody(c) { // rule_round10p.go
			return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("the arguments of your %s call must be a JSON object with %s, not a string; it was not run", name, argList(o))}, false
		}
		// A body that is not JSON is the value of the tool's single
		// required string argument; broken JSON never is.
		if t := strings.TrimSpace(a); t != "" && (t[0] == '{' || t[0] == '[' || strings.HasPrefix(t, `"{`) || argsHoldCall(t) || proseBody(t) || bodyOpensJSON(t)) { // proseBody: rule_round18.go; bodyOpensJSON: rule_round19.go
			return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("the arguments of your %s call are not valid JSON; it was not run — send them as one JSON object with %s", name, argList(o))}, false
		}
		k := singleStringArg(o)
		if notURLBody(k, a) { // rule_round19.go
			return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("the arguments of your %s call are not valid JSON; it was not run — send them as one JSON object with %s", name, argList(o))}, false
		}
		if k == "" {
			return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("the arguments of your %s call must be a JSON object with %s", name, argList(o))}, false
		}
		args = map[string]any{k: a}
		repairs = append(repairs, "body taken as "+k)
		c.xml = true
	default:
		return nil, &Rejection{Name: c.name, Reason: fmt.Sprintf("the arguments of your %s call must be a JSON object with %s", name, argList(o))}, false
	}
	args, unwrapped := unwrapCall(o, args)
	if unwrapped {
		repairs = append(repairs, "the whole call was given as the arguments")
	}
	if inner, ok := unwrapArgWrapper(o, args); ok { // rule_serverargs.go
		args = inner
		repairs = append(repairs, "arguments unwrapped from a wrapper key")
	}
	out, more, reason := normalizeArgs(name, o, args, c.xml)
	if reason != "" {
		return nil, &Rejection{Name: c.name, Reason: reason}, false
	}
	repairs = append(repairs, more...)
	if c.fromText && hasPlaceholder(out) {
		return nil, nil, true
	}
	call := &Call{ID: c.id, Name: name}
	if c.clean != "" && len(repairs) == 0 {
		var buf bytes.Buffer
		if json.Compact(&buf, []byte(c.clean)) == nil {
			call.Arguments = buf.Bytes()
			return call, nil, false
		}
	}
	call.Arguments = marshal(out)
	if len(repairs) > 0 {
		call.Repairs = repairs
	}
	return call, nil, false
}

func neverClosesReason(name, display string) string {
	what := "your tool call"
	if name != "" {
		what = "your " + name + " call"
	} else if display != "" {
		what = "your " + display + " call"
	}
	return what + " was cut off before its arguments were complete (the JSON never closes — the token limit, or a missing } or quote); it was not run — send it again, complete and smaller (split a long file into several calls)"
}

// singleStringArg is the argument a bare text body stands for: the tool's
// only required argument, when it is a string.
func singleStringArg(o *objSchema) string {
	if len(o.required) == 1 && o.props[o.required[0]].typ == "string" {
		return o.required[0]
	}
	if len(o.required) == 0 && len(o.names) == 1 && o.props[o.names[0]].typ == "string" {
		return o.names[0]
	}
	return ""
}

func argList(o *objSchema) string {
	if len(o.required) == 0 {
		return "its arguments"
	}
	parts := make([]string, len(o.required))
	for i, r := range o.required {
		parts[i] = r + " (" + article(o.props[r].typ) + ")"
	}
	return strings.Join(parts, ", ")
}

// unwrapCall reads arguments that hold the whole call,
// {"name": …, "arguments": {…}}, as the inner arguments.
func unwrapCall(o *objSchema, args map[string]any) (map[string]any, bool) {
	if o.has("name") || o.has("arguments") || o.has("parameters") {
		return args, false
	}
	if _, ok := args["name"].(string); !ok {
		return args, false
	}
	for _, k := range []string{"arguments", "parameters"} {
		switch inner := args[k].(type) {
		case map[string]any:
			return inner, true
		case string:
			if v, ok := decodeText(inner); ok {
				if m, ok := v.(map[string]any); ok {
					return m, true
				}
			}
		}
	}
	return args, false
}

// marshal writes compact JSON without HTML escaping (a command with < or &
// stays readable in logs).
func marshal(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("{}")
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// dedupe drops a call identical to an earlier one of the same reply: a call
// rehearsed in reasoning the server did not separate, or repeated in both
// tool_calls and the content.
func dedupe(calls []Call) []Call {
	if len(calls) < 2 {
		return calls
	}
	seen := map[string]bool{}
	out := calls[:0]
	for _, c := range calls {
		k := c.Name + "\x00" + canonical(c.Arguments)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	return out
}

func canonical(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return string(marshal(v))
}

// structuredCandidates reads one server tool call.
func structuredCandidates(rc RawCall, ts *toolset) []candidate {
	rc, shifted := r1LayoutShifted(rc, ts) // rule_round20.go
	c := candidate{id: rc.ID, name: rc.Name}
	if shifted {
		c.notes = append(c.notes, "DeepSeek R1's layout read one field off")
	}
	text := strings.TrimSpace(rc.Arguments)
	if ts.resolve(rc.Name) == "" && !strings.Contains(rc.Name, "<arg_key>") {
		if n := ts.nameInMarkup(rc.Name); n != "" { // names.go
			c.name = n
			c.notes = append(c.notes, "name read from the markup around it")
		} else if n := ts.serverAlias(rc.Name); n != "" { // names.go
			c.name = n
		}
	}

	// GLM's arguments glued to the name: read<arg_key>filePath</arg_key>…
	if i := strings.Index(rc.Name, "<arg_key>"); i >= 0 {
		pairs, _ := readArgPairs(rc.Name, i)
		c.name = rc.Name[:i]
		args := map[string]any{}
		for _, kv := range pairs {
			if _, dup := args[kv.k]; !dup {
				args[kv.k] = kv.v
			}
		}
		if v, ok := decodeStrict(text); ok {
			if m, ok := v.(map[string]any); ok {
				for k, x := range m {
					args[k] = x
				}
			}
		}
		c.args = args
		c.xml = true
		c.notes = append(c.notes, "arguments read from the name (GLM markup)")
		return []candidate{c}
	}

	if t, ok := harmonyArgTokens(text); ok { // rule_serverargs.go
		text = t
		c.notes = append(c.notes, "harmony tokens removed from the arguments")
	}
	if t, ok := argsFenceHeader(text); ok {
		text = t
		c.notes = append(c.notes, "json fence header removed from the arguments")
	}
	if text == "" || text == "null" {
		// No arguments: fine for a tool that needs none.
		return []candidate{c}
	}
	if v, ok := decodeStrict(text); ok {
		switch x := v.(type) {
		case map[string]any:
			c.args = x
			c.clean = text
			return []candidate{c}
		case string:
			// Double-encoded: a JSON string holding the object.
			inner := x
			for range 3 {
				if dv, ok := decodeText(inner); ok {
					if m, ok := dv.(map[string]any); ok {
						c.args = m
						c.notes = append(c.notes, "double-encoded arguments decoded")
						return []candidate{c}
					}
					if s, ok := dv.(string); ok {
						inner = s
						continue
					}
				}
				break
			}
			c.args = x
			return []candidate{c}
		case []any:
			if len(x) == 1 {
				if m, ok := x[0].(map[string]any); ok {
					c.args = m
					c.notes = append(c.notes, "arguments unwrapped from a one-item list")
					return []candidate{c}
				}
			}
		}
		c.fail, c.msg = failSyntax, "they are not a JSON object"
		return []candidate{c}
	}
	if text[0] == '<' && (strings.Contains(text, "<parameter") || strings.Contains(text, "<arg_key>")) {
		args, ok := readXMLArgs(text)
		if ok {
			c.args, c.xml = args, true
			c.notes = append(c.notes, "arguments read from XML markup")
			return []candidate{c}
		}
	}
	if m, ok := escapedObject(text); ok { // rule_serverargs.go
		c.args = m
		c.notes = append(c.notes, "escaped arguments decoded")
		return []candidate{c}
	}
	if name := ts.resolve(c.name); name != "" && text[0] != '{' && text[0] != '[' {
		if args, raw, ok := keywordArgs(text, ts.schema(name)); ok { // rule_serverargs.go
			c.args, c.xml = args, raw
			c.notes = append(c.notes, "arguments read as keywords")
			return []candidate{c}
		}
	}
	if text[0] != '{' && text[0] != '[' && text[0] != '"' && text[0] != '\'' {
		if multilineServerBody(text) {
			c.fail, c.msg = failSyntax, "they are not a JSON object"
			return []candidate{c}
		}
		c.args = text
		return []candidate{c}
	}
	if m, ok := resentPrefixArgs(text); ok { // rule_round7b.go
		c.args = m
		c.notes = append(c.notes, "arguments resent after a streamed prefix read once")
		return []candidate{c}
	}
	return lenientArgs(c, text, ts)
}

// lenientArgs reads invalid JSON arguments: repairs, junk after a complete
// object, objects glued together, a cut fragment after a complete object.
func lenientArgs(c candidate, text string, ts *toolset) []candidate {
	r := readValue(text, 0, false)
	if r.fail != failNone {
		c.args, c.fail, c.msg, c.key, c.notes = r.v, r.fail, r.msg, r.key, append(c.notes, r.notes...)
		// A lone "{": cut before any argument (openai/codex#29549), so the
		// correction names the arguments (rule_round24.go).
		c.cutNoArgs = r.fail == failEOF && strings.TrimSpace(text) == "{"
		return []candidate{c}
	}
	objs := []map[string]any{}
	first, ok := r.v.(map[string]any)
	if !ok {
		c.fail, c.msg = failSyntax, "they are not a JSON object"
		return []candidate{c}
	}
	objs = append(objs, first)
	notes := append([]string(nil), r.notes...)
	var extra []candidate
	pos := r.end
	for {
		rest := strings.TrimLeft(text[pos:], " \t\r\n,;")
		if rest == "" {
			break
		}
		if rest[0] != '{' {
			if more, ok := trailingHermesCalls(rest, ts); ok { // rule_round9v.go
				extra = more
				notes = append(notes, "a Hermes call after the arguments read as the next call")
				break
			}
			notes = append(notes, "junk after the arguments dropped")
			break
		}
		off := len(text) - len(rest)
		nr := readValue(text, off, false)
		m, isObj := nr.v.(map[string]any)
		if nr.fail != failNone || !isObj {
			notes = append(notes, "cut fragment after the arguments dropped")
			break
		}
		objs = append(objs, m)
		notes = append(notes, nr.notes...)
		pos = nr.end
	}
	c.notes = append(c.notes, notes...)
	if len(objs) == 1 {
		c.args = first
		return append([]candidate{c}, extra...)
	}
	return append(splitGlued(c, objs, ts), extra...)
}

// splitGlued decides what objects glued in one arguments text are: several
// calls of the same tool when each is complete alone, else one call whose
// parts were split.
func splitGlued(c candidate, objs []map[string]any, ts *toolset) []candidate {
	name := ts.resolve(c.name)
	if name != "" {
		o := ts.schema(name)
		all := true
		for _, m := range objs {
			if _, _, reason := normalizeArgs(name, o, m, false); reason != "" {
				all = false
				break
			}
		}
		if all {
			out := make([]candidate, len(objs))
			for i, m := range objs {
				out[i] = c
				out[i].args = m
				out[i].notes = append(append([]string(nil), c.notes...), "glued objects split into separate calls")
				if i > 0 {
					out[i].id = ""
				}
			}
			return out
		}
	}
	if name != "" && gluedForeignObject(ts.schema(name), objs) { // rule_round23.go
		c.fail, c.msg = failSyntax, "the arguments are several JSON objects glued together, and one holds none of "+name+"'s arguments (two calls merged into one?); send one call per tool"
		return []candidate{c}
	}
	merged := map[string]any{}
	for _, m := range objs {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, dup := merged[k]; !dup {
				merged[k] = m[k]
			}
		}
	}
	c.args = merged
	c.notes = append(c.notes, "glued objects merged")
	return []candidate{c}
}
