package llmtest

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestStreamTextLooksLikeLlamaServer(t *testing.T) {
	s := New(t, Turn{Reasoning: "Okay, the user said hello.\n", Text: "Hello! I am a tiny test model."})
	resp, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	for k, want := range map[string]string{"Content-Type": "text/event-stream", "X-Accel-Buffering": "no", "Server": "llama.cpp"} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	st := parseStream(t, body)
	if !st.done {
		t.Fatal("no [DONE]")
	}
	if !strings.Contains(st.raw[0], `"delta":{"role":"assistant","content":null}`) {
		t.Errorf("first chunk is not the role chunk: %s", st.raw[0])
	}
	// Every chunk after the role chunk carries exactly one changed field,
	// reasoning before content, then the empty final delta.
	var kinds []string
	for _, c := range st.chunks[1:] {
		d := delta(t, c)
		if len(d) > 1 {
			t.Errorf("delta with several fields: %v", d)
		}
		k := keys(d)
		if len(kinds) == 0 || kinds[len(kinds)-1] != k {
			kinds = append(kinds, k)
		}
	}
	if want := []string{"reasoning_content", "content", ""}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("delta kinds %q, want %q", kinds, want)
	}
	a := assemble(t, st, "reasoning_content")
	if a.reasoning != "Okay, the user said hello.\n" || a.content != "Hello! I am a tiny test model." || a.finish != "stop" {
		t.Errorf("assembled %+v", a)
	}
	if a.usage != nil {
		t.Error("usage chunk without include_usage")
	}
	last := st.chunks[len(st.chunks)-1]
	if _, ok := last["timings"]; !ok {
		t.Errorf("final chunk without timings: %s", st.raw[len(st.raw)-1])
	}
	id := st.chunks[0]["id"].(string)
	if !strings.HasPrefix(id, "chatcmpl-") || len(id) != 9+32 || !isAlnum(id[9:]) {
		t.Errorf("id %q", id)
	}
	for _, c := range st.chunks {
		if c["id"] != id || c["model"] != "tiny.gguf" || c["object"] != "chat.completion.chunk" {
			t.Errorf("envelope %v", c)
		}
	}

	// The envelopes have the captured key sets: role chunk, delta chunk,
	// final chunk of a_stream_text.
	fx := parseStream(t, Fixture("a_stream_text.sse"))
	for i, pair := range [][2]map[string]any{
		{st.chunks[0], fx.chunks[0]},
		{st.chunks[1], fx.chunks[1]},
		{st.chunks[len(st.chunks)-1], fx.chunks[len(fx.chunks)-1]},
	} {
		if keys(pair[0]) != keys(pair[1]) {
			t.Errorf("envelope %d keys %s, capture has %s", i, keys(pair[0]), keys(pair[1]))
		}
		gc := pair[0]["choices"].([]any)[0].(map[string]any)
		fc := pair[1]["choices"].([]any)[0].(map[string]any)
		if keys(gc) != keys(fc) {
			t.Errorf("choice %d keys %s, capture has %s", i, keys(gc), keys(fc))
		}
	}
	var gt, ft map[string]any
	gt = st.chunks[len(st.chunks)-1]["timings"].(map[string]any)
	ft = fx.chunks[len(fx.chunks)-1]["timings"].(map[string]any)
	if keys(gt) != keys(ft) {
		t.Errorf("timings keys %s, capture has %s", keys(gt), keys(ft))
	}
}

func TestUsageChunkOnlyWithIncludeUsage(t *testing.T) {
	u := &Usage{PromptTokens: 85, CompletionTokens: 20, CachedTokens: 84}
	s := New(t, Turn{Text: "a b", Usage: u}, Turn{Text: "a b", Usage: u})

	_, body := mustPost(t, s.URL()+"/chat/completions",
		`{"messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true}}`)
	st := parseStream(t, body)
	last := st.chunks[len(st.chunks)-1]
	if choices := last["choices"].([]any); len(choices) != 0 {
		t.Fatalf("usage chunk has choices: %s", st.raw[len(st.raw)-1])
	}
	jsonEqual(t, mustJSON(last["usage"]), `{"completion_tokens":20,"prompt_tokens":85,"total_tokens":105,"prompt_tokens_details":{"cached_tokens":84}}`)
	timings := last["timings"].(map[string]any)
	if timings["cache_n"].(float64)+timings["prompt_n"].(float64) != 85 || timings["predicted_n"].(float64) != 20 {
		t.Errorf("timings %v", timings)
	}
	finish := st.chunks[len(st.chunks)-2]
	if _, ok := finish["timings"]; ok {
		t.Error("finish chunk has timings although a usage chunk follows")
	}
	// The same shape as the capture b_stream_usage.
	fx := parseStream(t, Fixture("b_stream_usage.sse"))
	if keys(last) != keys(fx.chunks[len(fx.chunks)-1]) {
		t.Errorf("usage chunk keys %s, capture %s", keys(last), keys(fx.chunks[len(fx.chunks)-1]))
	}

	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	st = parseStream(t, body)
	for _, c := range st.chunks {
		if _, ok := c["usage"]; ok {
			t.Errorf("usage without include_usage: %v", c)
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestToolCallDeltas(t *testing.T) {
	s := New(t, Turn{
		Text: "Let me look.",
		ToolCalls: []ToolCall{
			{Name: "bash", Arguments: `{"command":"ls -la"}`},
			{ID: "fixedid", Name: "read", Arguments: `{"path": "a b`}, // invalid JSON on purpose
		},
	})
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	st := parseStream(t, body)
	a := assemble(t, st, "reasoning_content")
	if a.content != "Let me look." || a.finish != "tool_calls" || len(a.calls) != 2 {
		t.Fatalf("assembled %+v", a)
	}
	c0, c1 := a.calls[0], a.calls[1]
	if c0.name != "bash" || c0.typ != "function" || c0.args != `{"command":"ls -la"}` || len(c0.id) != 32 || !isAlnum(c0.id) {
		t.Errorf("call 0: %+v", *c0)
	}
	if c1.name != "read" || c1.id != "fixedid" || c1.args != `{"path": "a b` {
		t.Errorf("call 1: %+v", *c1)
	}
	// The pieces of the first call are llama-server's, and only the first
	// delta of a call has id, type and name.
	var pieces []string
	seen := map[int]bool{}
	for _, c := range st.chunks {
		d := delta(t, c)
		tcs, ok := d["tool_calls"].([]any)
		if !ok {
			continue
		}
		if len(d) != 1 || len(tcs) != 1 {
			t.Fatalf("tool-call delta %v", d)
		}
		tc := tcs[0].(map[string]any)
		i := int(tc["index"].(float64))
		fn := tc["function"].(map[string]any)
		if !seen[i] {
			seen[i] = true
			if keys(tc) != "function,id,index,type" || keys(fn) != "arguments,name" {
				t.Errorf("first delta of call %d: %v", i, tc)
			}
		} else if keys(tc) != "function,index" || keys(fn) != "arguments" {
			t.Errorf("later delta of call %d: %v", i, tc)
		}
		if i == 0 {
			pieces = append(pieces, fn["arguments"].(string))
		}
	}
	want := []string{`{`, `"`, `command`, `"`, `:`, `"`, `ls`, ` -`, `la`, `"`, `}`}
	if !reflect.DeepEqual(pieces, want) {
		t.Errorf("pieces %q, want %q", pieces, want)
	}
}

func TestProgressChunks(t *testing.T) {
	s := New(t,
		Turn{Text: "x", Progress: []int{0, 512, 1024, 1536, 1570}},
		Turn{Text: "x", Progress: []int{0, 512}},
		Turn{Text: "x", Usage: &Usage{PromptTokens: 100, CompletionTokens: 1, CachedTokens: 40}},
	)
	progressBody := `{"messages":[{"role":"user","content":"hi"}],"stream":true,"return_progress":true}`

	_, body := mustPost(t, s.URL()+"/chat/completions", progressBody)
	st := parseStream(t, body)
	a := assemble(t, st, "reasoning_content")
	var processed []float64
	for _, p := range a.progress {
		if p["total"].(float64) != 1570 || p["cache"].(float64) != 0 {
			t.Errorf("progress %v", p)
		}
		processed = append(processed, p["processed"].(float64))
	}
	if !reflect.DeepEqual(processed, []float64{0, 512, 1024, 1536, 1570}) {
		t.Errorf("processed %v", processed)
	}
	// Progress chunks carry the role delta, and the role delta comes once
	// more before the first token (as in c2_stream_progress_batch512).
	for i := 0; i <= 5; i++ {
		if !strings.Contains(st.raw[i], `"delta":{"role":"assistant","content":null}`) {
			t.Errorf("chunk %d: %s", i, st.raw[i])
		}
	}
	if strings.Contains(st.raw[5], "prompt_progress") || !strings.Contains(st.raw[6], `"content":"x"`) {
		t.Errorf("chunks 5-6: %s %s", st.raw[5], st.raw[6])
	}

	// Not asked: no progress even when scripted.
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if strings.Contains(string(body), "prompt_progress") {
		t.Error("progress without return_progress")
	}

	// Asked, not scripted: from the cache to the prompt size.
	_, body = mustPost(t, s.URL()+"/chat/completions", progressBody)
	a = assemble(t, parseStream(t, body), "reasoning_content")
	if len(a.progress) != 2 || a.progress[0]["processed"].(float64) != 40 || a.progress[1]["processed"].(float64) != 100 || a.progress[1]["cache"].(float64) != 40 {
		t.Errorf("default progress %v", a.progress)
	}
}

func TestKeepAlivesBeforeFirstDataEvent(t *testing.T) {
	s := New(t, Turn{Text: "hi", KeepAlives: 3})
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if !strings.HasPrefix(string(body), ":\n\n:\n\n:\n\ndata: {") {
		t.Errorf("body starts %q", body[:min(len(body), 40)])
	}
	st := parseStream(t, body)
	if st.comments != 3 || !st.done {
		t.Errorf("comments %d, done %v", st.comments, st.done)
	}
}

func TestNonStreaming(t *testing.T) {
	s := New(t,
		Turn{Reasoning: "think", Text: "Hello!"},
		Turn{ToolCalls: []ToolCall{{ID: "abc", Name: "bash", Arguments: `{"command":"ls"}`}}},
	)
	body := `{"messages":[{"role":"user","content":"hi"}]}`
	resp, b := mustPost(t, s.URL()+"/chat/completions", body)
	if resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("content type %q", resp.Header.Get("Content-Type"))
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var fx map[string]any
	_ = json.Unmarshal(Fixture("h_nonstream_text.json"), &fx)
	if keys(m) != keys(fx) {
		t.Errorf("keys %s, capture %s", keys(m), keys(fx))
	}
	msg := m["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if msg["content"] != "Hello!" || msg["reasoning_content"] != "think" || msg["role"] != "assistant" {
		t.Errorf("message %v", msg)
	}

	_, b = mustPost(t, s.URL()+"/chat/completions", body)
	_ = json.Unmarshal(b, &m)
	ch := m["choices"].([]any)[0].(map[string]any)
	msg = ch["message"].(map[string]any)
	if ch["finish_reason"] != "tool_calls" || msg["content"] != nil {
		t.Errorf("choice %v", ch)
	}
	jsonEqual(t, mustJSON(msg["tool_calls"]), `[{"type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"},"id":"abc"}]`)
}

func TestFirstByteDelay(t *testing.T) {
	const d = 200 * time.Millisecond
	s := New(t, Turn{Text: "hi", FirstByteDelay: d})
	start := time.Now()
	resp, _ := mustPost(t, s.URL()+"/chat/completions", chatBody)
	// A lower bound only, which a busy machine cannot break.
	if took := time.Since(start); took < d {
		t.Errorf("answer after %v, before the %v delay", took, d)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
}
