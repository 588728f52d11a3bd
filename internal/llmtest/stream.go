package llmtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// fingerprint is the system_fingerprint of the captured llama-server build.
const fingerprint = "b10587-3f545becc"

// event is one piece of an SSE body: a data event or a keep-alive comment,
// with its trailing blank line.
type event struct {
	raw  []byte
	data bool // a `data:` line (counted by FaultAfter)
	done bool // `data: [DONE]`
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randomString(n int, chars string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[rand.IntN(len(chars))]
	}
	return string(b)
}

// wordPieces splits text the way a tokenizer roughly does: each piece is a
// word with the whitespace before it, so pieces concatenate back to text.
var wordPieces = regexp.MustCompile(`\s*\S+|\s+`)

func splitWords(s string) []string { return wordPieces.FindAllString(s, -1) }

// splitArgs cuts argument text like llama-server's tokens do: the pieces
// of {"command":"ls -la"} are `{` `"` `command` `"` `:` `"` `ls` ` -` `la`
// `"` `}`. JSON punctuation goes alone; a word or another character goes
// with the spaces before it. Bytes >= 0x80 count as word bytes so a UTF-8
// character is never cut.
func splitArgs(s string) []string {
	var out []string
	isWord := func(c byte) bool {
		return c >= 0x80 || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
	}
	i := 0
	for i < len(s) {
		j := i
		if strings.IndexByte(`{}[]:,"`, s[j]) >= 0 {
			out = append(out, s[j:j+1])
			i = j + 1
			continue
		}
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			j++
		}
		switch {
		case j == len(s):
		case isWord(s[j]):
			for j < len(s) && isWord(s[j]) {
				j++
			}
		case strings.IndexByte(`{}[]:,"`, s[j]) < 0:
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// answer is a turn with its defaults filled in.
type answer struct {
	reasoning, text string
	calls           []ToolCall
	finish          string
	usage           Usage
}

func (s *Server) answerFor(req *Request, t *Turn) answer {
	a := answer{reasoning: t.Reasoning, text: t.Text, calls: append([]ToolCall(nil), t.ToolCalls...), finish: t.Finish}
	ollama := s.opts.Provider == "ollama"
	for i := range a.calls {
		if a.calls[i].ID == "" {
			if ollama {
				a.calls[i].ID = "call_" + randomString(8, "abcdefghijklmnopqrstuvwxyz0123456789")
			} else {
				a.calls[i].ID = randomString(32, alnum)
			}
		}
	}
	if t.Fault == FaultLengthInToolCall {
		if len(a.calls) == 0 {
			id := randomString(32, alnum)
			if ollama {
				id = "call_" + randomString(8, "abcdefghijklmnopqrstuvwxyz0123456789")
			}
			a.calls = []ToolCall{{ID: id, Name: "bash", Arguments: `{"command":"ls -la"}`}}
		}
		last := &a.calls[len(a.calls)-1]
		last.Arguments = cutHalf(last.Arguments)
		if a.finish == "" {
			a.finish = "length"
		}
	}
	if a.finish == "" {
		a.finish = "stop"
		if len(a.calls) > 0 {
			a.finish = "tool_calls"
		}
	}
	if t.Usage != nil {
		a.usage = *t.Usage
	} else {
		// Roughly four bytes a token: enough for clients that show usage or
		// estimate the context in use.
		out := len(a.reasoning) + len(a.text)
		for _, c := range a.calls {
			out += len(c.Name) + len(c.Arguments)
		}
		a.usage = Usage{PromptTokens: max(1, len(req.Body)/4), CompletionTokens: max(1, out/4)}
	}
	a.usage = s.truncated(a.usage)
	return a
}

// cutHalf keeps the first half of s, never cutting a UTF-8 character, and
// never the whole of it, so JSON arguments are always incomplete.
func cutHalf(s string) string {
	n := len(s) / 2
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// float formats like nlohmann::json does: always with a decimal point.
func float(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

func (u Usage) llamaJSON() string {
	return fmt.Sprintf(`{"completion_tokens":%d,"prompt_tokens":%d,"total_tokens":%d,"prompt_tokens_details":{"cached_tokens":%d}}`,
		u.CompletionTokens, u.PromptTokens, u.PromptTokens+u.CompletionTokens, u.CachedTokens)
}

func (u Usage) ollamaJSON() string {
	return fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}`,
		u.PromptTokens, u.CompletionTokens, u.PromptTokens+u.CompletionTokens)
}

// timingsJSON makes up plausible timings: cache_n+prompt_n+predicted_n is
// the context in use, as with llama-server.
func (u Usage) timingsJSON() string {
	promptN := max(0, u.PromptTokens-u.CachedTokens)
	promptMS := float64(promptN)*0.5 + 0.125
	predMS := float64(u.CompletionTokens)*2 + 0.25
	return fmt.Sprintf(`{"cache_n":%d,"prompt_n":%d,"prompt_ms":%s,"prompt_per_token_ms":%s,"prompt_per_second":%s,"predicted_n":%d,"predicted_ms":%s,"predicted_per_token_ms":%s,"predicted_per_second":%s}`,
		u.CachedTokens, promptN, float(promptMS), float(promptMS/float64(max(1, promptN))), float(float64(promptN)*1000/promptMS),
		u.CompletionTokens, float(predMS), float(predMS/float64(max(1, u.CompletionTokens))), float(float64(u.CompletionTokens)*1000/predMS))
}

// llamaEvents builds the whole stream of a turn, as llama-server sends it.
func (s *Server) llamaEvents(req *Request, t *Turn, a answer) []event {
	id := jsonString("chatcmpl-" + randomString(32, alnum))
	model := jsonString(s.opts.ModelName)
	var evs []event
	chunk := func(finish, delta, extra string) {
		b := fmt.Appendf(nil, `data: {"choices":[{"finish_reason":%s,"index":0,"delta":%s}],"created":%d,"id":%s,"model":%s,"system_fingerprint":%q,"object":"chat.completion.chunk"%s}`+"\n\n",
			finish, delta, time.Now().Unix(), id, model, fingerprint, extra)
		evs = append(evs, event{raw: b, data: true})
	}
	const role = `{"role":"assistant","content":null}`
	if boolAt(req.JSON, "return_progress") {
		progress := t.Progress
		if len(progress) == 0 {
			progress = []int{a.usage.CachedTokens, a.usage.PromptTokens}
		}
		total, cache := progress[len(progress)-1], progress[0]
		for _, p := range progress {
			chunk("null", role, fmt.Sprintf(`,"prompt_progress":{"total":%d,"cache":%d,"processed":%d,"time_ms":%d}`, total, cache, p, max(0, p-cache)/8))
		}
	}
	chunk("null", role, "")
	for _, p := range splitWords(a.reasoning) {
		chunk("null", `{"reasoning_content":`+jsonString(p)+`}`, "")
	}
	for _, p := range splitWords(a.text) {
		chunk("null", `{"content":`+jsonString(p)+`}`, "")
	}
	for i, c := range a.calls {
		pieces := splitArgs(c.Arguments)
		first := ""
		if len(pieces) > 0 {
			first = pieces[0]
			pieces = pieces[1:]
		}
		chunk("null", fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":%s,"type":"function","function":{"name":%s,"arguments":%s}}]}`,
			i, jsonString(c.ID), jsonString(c.Name), jsonString(first)), "")
		for _, p := range pieces {
			chunk("null", fmt.Sprintf(`{"tool_calls":[{"index":%d,"function":{"arguments":%s}}]}`, i, jsonString(p)), "")
		}
	}
	withUsage := boolAt(req.JSON, "stream_options", "include_usage")
	if withUsage {
		chunk(jsonString(a.finish), "{}", "")
		b := fmt.Appendf(nil, `data: {"choices":[],"created":%d,"id":%s,"model":%s,"system_fingerprint":%q,"object":"chat.completion.chunk","usage":%s,"timings":%s}`+"\n\n",
			time.Now().Unix(), id, model, fingerprint, a.usage.llamaJSON(), a.usage.timingsJSON())
		evs = append(evs, event{raw: b, data: true})
	} else {
		chunk(jsonString(a.finish), "{}", `,"timings":`+a.usage.timingsJSON())
	}
	return append(evs, event{raw: []byte("data: [DONE]\n\n"), data: true, done: true})
}

// ollamaEvents builds the stream of a turn the way Ollama's OpenAI layer
// sends it: no separate role chunk, role and content on every delta,
// reasoning in "reasoning", each tool call whole in one delta, no progress
// and no timings.
func (s *Server) ollamaEvents(req *Request, a answer) []event {
	id := jsonString(fmt.Sprintf("chatcmpl-%d", rand.IntN(1000)))
	model := jsonString(s.opts.ModelName)
	var evs []event
	chunk := func(delta, finish string) {
		b := fmt.Appendf(nil, `data: {"id":%s,"object":"chat.completion.chunk","created":%d,"model":%s,"system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`+"\n\n",
			id, time.Now().Unix(), model, delta, finish)
		evs = append(evs, event{raw: b, data: true})
	}
	for _, p := range splitWords(a.reasoning) {
		chunk(`{"role":"assistant","content":"","reasoning":`+jsonString(p)+`}`, "null")
	}
	for _, p := range splitWords(a.text) {
		chunk(`{"role":"assistant","content":`+jsonString(p)+`}`, "null")
	}
	for i, c := range a.calls {
		chunk(fmt.Sprintf(`{"role":"assistant","content":"","tool_calls":[{"id":%s,"index":%d,"type":"function","function":{"name":%s,"arguments":%s}}]}`,
			jsonString(c.ID), i, jsonString(c.Name), jsonString(c.Arguments)), "null")
	}
	chunk(`{"role":"assistant","content":""}`, jsonString(a.finish))
	if boolAt(req.JSON, "stream_options", "include_usage") {
		b := fmt.Appendf(nil, `data: {"id":%s,"object":"chat.completion.chunk","created":%d,"model":%s,"system_fingerprint":"fp_ollama","choices":[],"usage":%s}`+"\n\n",
			id, time.Now().Unix(), model, a.usage.ollamaJSON())
		evs = append(evs, event{raw: b, data: true})
	}
	return append(evs, event{raw: []byte("data: [DONE]\n\n"), data: true, done: true})
}

// stream answers a stream:true request with a generated event stream.
func (s *Server) stream(w *statusWriter, ctx context.Context, req *Request, t *Turn) error {
	a := s.answerFor(req, t)
	var evs []event
	if s.opts.Provider == "ollama" {
		evs = s.ollamaEvents(req, a)
	} else {
		llamaHeaders(w.Header())
		w.Header().Set("X-Accel-Buffering", "no")
		evs = s.llamaEvents(req, t, a)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	return s.play(w, ctx, http.StatusOK, evs, t)
}

// play sends headers, keep-alives and events, one flush each, with the
// turn's pauses and mid-stream fault.
func (s *Server) play(w *statusWriter, ctx context.Context, code int, evs []event, t *Turn) error {
	rc := http.NewResponseController(w)
	w.WriteHeader(code)
	if err := rc.Flush(); err != nil {
		return err
	}
	if t.Fault == FaultHangAfterHeaders {
		return s.hang(w, ctx)
	}
	first := true
	// send writes and flushes b, with the line ends of the cr-endings and
	// crlf-endings faults.
	send := func(b []byte) error {
		flush := func(p []byte) error {
			if _, err := w.Write(p); err != nil {
				return errGone
			}
			if err := rc.Flush(); err != nil {
				return errGone
			}
			return nil
		}
		switch t.Fault {
		case FaultCREndings:
			return flush(bytes.ReplaceAll(b, []byte("\n"), []byte("\r")))
		case FaultCRLFEndings:
			// Each "\r" is the last byte of one flush and its "\n" the
			// first of the next: a client reading "\r" must not take the
			// "\n" for an empty line.
			for _, line := range bytes.SplitAfter(b, []byte("\n")) {
				if len(line) == 0 || line[len(line)-1] != '\n' {
					if err := flush(line); err != nil {
						return err
					}
					continue
				}
				if err := flush(append(line[:len(line)-1:len(line)-1], '\r')); err != nil {
					return err
				}
				if err := flush([]byte("\n")); err != nil {
					return err
				}
			}
			return nil
		}
		return flush(b)
	}
	write := func(b []byte) error {
		if !first && !s.sleep(ctx, t.ChunkDelay) {
			_ = s.drop(w)
			return errGone
		}
		first = false
		return send(b)
	}
	// pings sends keep-alives (and, with chunks, empty chunks) until the
	// client goes away, then cuts the connection.
	pings := func(chunks bool) error {
		every := t.ChunkDelay
		if every <= 0 {
			every = 50 * time.Millisecond
		}
		for {
			if err := send([]byte(":\n\n")); err != nil {
				return err
			}
			if chunks {
				if err := send([]byte(`data: {"choices":[{"finish_reason":null,"index":0,"delta":{}}],"object":"chat.completion.chunk"}` + "\n\n")); err != nil {
					return err
				}
			}
			if !s.sleep(ctx, every) {
				_ = s.drop(w)
				return errGone
			}
		}
	}
	if t.Fault == FaultPingOnly {
		return pings(false)
	}
	for range t.KeepAlives {
		if err := write([]byte(":\n\n")); err != nil {
			return err
		}
	}
	pending := t.Fault.midStream()
	// fault runs the mid-stream fault; stop says the answer ends with it.
	fault := func() (stop bool, err error) {
		pending = false
		switch t.Fault {
		case FaultHangMidStream:
			return true, s.hang(w, ctx)
		case FaultDrop:
			return true, s.drop(w)
		case FaultMalformedLine:
			return false, write([]byte("data: {not json\n\n"))
		case FaultErrorEvent:
			msg := t.ErrorMessage
			if msg == "" {
				msg = "llmtest: scripted error after the stream started"
			}
			return true, write([]byte("data: " + errorBody(500, msg, "server_error") + "\n\n"))
		case FaultPingMidStream:
			return true, pings(true)
		case FaultEmptyData:
			if err := write([]byte("data:\n\n")); err != nil {
				return true, err
			}
			return false, write([]byte("data: \n\n"))
		case FaultHugeLine:
			return false, s.hugeLine(send, t.bytesOr(64<<20))
		case FaultHugeAnswer:
			piece := `data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"` + strings.Repeat("x", 64<<10) + `"}}],"object":"chat.completion.chunk"}` + "\n\n"
			for n := 0; n < t.bytesOr(64<<20); n += 64 << 10 {
				if err := write([]byte(piece)); err != nil {
					return true, err
				}
			}
			return false, nil
		}
		return false, nil
	}
	// The fault comes right after the FaultAfter-th data event (keep-alive
	// comments that follow it are not sent), and [DONE] is never sent
	// before it, even when FaultAfter is larger than the stream.
	if pending && t.FaultAfter <= 0 {
		if stop, err := fault(); stop || err != nil {
			return err
		}
	}
	sent := 0
	for _, ev := range evs {
		if pending && ev.done {
			if stop, err := fault(); stop || err != nil {
				return err
			}
		}
		if err := write(ev.raw); err != nil {
			return err
		}
		if !ev.data {
			continue
		}
		sent++
		if pending && sent == t.FaultAfter {
			if stop, err := fault(); stop || err != nil {
				return err
			}
		}
	}
	if pending { // a replayed body without [DONE]
		_, err := fault()
		return err
	}
	return nil
}

// bytesOr is FaultBytes, or def when it is not set.
func (t *Turn) bytesOr(def int) int {
	if t.FaultBytes > 0 {
		return t.FaultBytes
	}
	return def
}

// hugeLine sends one content event of n content bytes on a single line, in
// 64 KiB writes.
func (s *Server) hugeLine(send func([]byte) error, n int) error {
	if err := send([]byte(`data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"`)); err != nil {
		return err
	}
	block := []byte(strings.Repeat("x", 64<<10))
	for sent := 0; sent < n; sent += len(block) {
		if err := send(block[:min(len(block), n-sent)]); err != nil {
			return err
		}
	}
	return send([]byte(`"}}],"object":"chat.completion.chunk"}` + "\n\n"))
}

// jsonFault reports the faults that answer with a JSON body whatever the
// request asked.
func (f Fault) jsonFault() bool {
	return f == FaultTruncatedJSON || f == FaultShortJSON || f == FaultHugeJSON
}

// jsonFault answers with a broken or huge JSON body, as a server that
// ignores stream:true would.
func (s *Server) jsonFault(w *statusWriter, ctx context.Context, req *Request, t *Turn) error {
	llamaHeaders(w.Header())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	rc := http.NewResponseController(w)
	switch t.Fault {
	case FaultHugeJSON:
		n := t.bytesOr(40 << 20)
		head := `{"choices":[{"finish_reason":"stop","index":0,"message":{"role":"assistant","content":"`
		tail := `"}}],"object":"chat.completion"}`
		w.Header().Set("Content-Length", strconv.Itoa(len(head)+n+len(tail)))
		w.WriteHeader(http.StatusOK)
		if _, err := io.WriteString(w, head); err != nil {
			return errGone
		}
		block := []byte(strings.Repeat("x", 64<<10))
		for sent := 0; sent < n; sent += len(block) {
			if _, err := w.Write(block[:min(len(block), n-sent)]); err != nil {
				return errGone
			}
		}
		_, err := io.WriteString(w, tail)
		return err
	}
	body := s.llamaMessage(s.answerFor(req, t))
	if t.Fault == FaultTruncatedJSON {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body[:len(body)/2])
	if err := rc.Flush(); err != nil {
		return errGone
	}
	if t.Fault == FaultTruncatedJSON {
		return s.drop(w)
	}
	return nil
}

// drop closes the TCP connection under the response: the client sees the
// chunked body end without its terminator (io.ErrUnexpectedEOF).
func (s *Server) drop(w http.ResponseWriter) error {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return err
	}
	return conn.Close()
}

// partialJSON announces the whole body, sends half of it, then hangs or
// drops: a non-streaming answer cut in transit.
func (s *Server) partialJSON(w *statusWriter, ctx context.Context, code int, body []byte, f Fault) error {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body[:len(body)/2])
	if err := http.NewResponseController(w).Flush(); err != nil {
		return errGone
	}
	if f == FaultDrop {
		return s.drop(w)
	}
	return s.hang(w, ctx)
}

// nonStream answers a request without stream:true with one JSON body.
func (s *Server) nonStream(w *statusWriter, ctx context.Context, req *Request, t *Turn) error {
	a := s.answerFor(req, t)
	var body []byte
	if s.opts.Provider == "ollama" {
		body = s.ollamaMessage(a)
		w.Header().Set("Content-Type", "application/json")
	} else {
		body = s.llamaMessage(a)
		llamaHeaders(w.Header())
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	switch t.Fault {
	case FaultHangAfterHeaders:
		w.WriteHeader(http.StatusOK)
		_ = http.NewResponseController(w).Flush()
		return s.hang(w, ctx)
	case FaultHangMidStream, FaultDrop:
		return s.partialJSON(w, ctx, http.StatusOK, body, t.Fault)
	case FaultMalformedLine:
		body = []byte("{not json")
	case FaultErrorEvent:
		// Without a stream there is no event to send: the error is an HTTP one.
		msg := t.ErrorMessage
		if msg == "" {
			msg = "llmtest: scripted error"
		}
		writeJSONError(w, http.StatusInternalServerError, errorBody(500, msg, "server_error"))
		return nil
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// llamaMessage is llama-server's non-streaming chat.completion
// (h_nonstream_text, h2_nonstream_tools_required).
func (s *Server) llamaMessage(a answer) []byte {
	var msg strings.Builder
	msg.WriteString(`{"role":"assistant","content":`)
	if a.text == "" && len(a.calls) > 0 {
		msg.WriteString("null")
	} else {
		msg.WriteString(jsonString(a.text))
	}
	if a.reasoning != "" {
		msg.WriteString(`,"reasoning_content":` + jsonString(a.reasoning))
	}
	if len(a.calls) > 0 {
		msg.WriteString(`,"tool_calls":[`)
		for i, c := range a.calls {
			if i > 0 {
				msg.WriteString(",")
			}
			fmt.Fprintf(&msg, `{"type":"function","function":{"name":%s,"arguments":%s},"id":%s}`,
				jsonString(c.Name), jsonString(c.Arguments), jsonString(c.ID))
		}
		msg.WriteString("]")
	}
	msg.WriteString("}")
	return fmt.Appendf(nil, `{"choices":[{"finish_reason":%s,"index":0,"message":%s}],"created":%d,"model":%s,"system_fingerprint":%q,"object":"chat.completion","usage":%s,"id":%s,"timings":%s}`,
		jsonString(a.finish), msg.String(), time.Now().Unix(), jsonString(s.opts.ModelName), fingerprint,
		a.usage.llamaJSON(), jsonString("chatcmpl-"+randomString(32, alnum)), a.usage.timingsJSON())
}

// ollamaMessage is Ollama's non-streaming chat.completion.
func (s *Server) ollamaMessage(a answer) []byte {
	var msg strings.Builder
	msg.WriteString(`{"role":"assistant","content":` + jsonString(a.text))
	if a.reasoning != "" {
		msg.WriteString(`,"reasoning":` + jsonString(a.reasoning))
	}
	if len(a.calls) > 0 {
		msg.WriteString(`,"tool_calls":[`)
		for i, c := range a.calls {
			if i > 0 {
				msg.WriteString(",")
			}
			fmt.Fprintf(&msg, `{"id":%s,"index":%d,"type":"function","function":{"name":%s,"arguments":%s}}`,
				jsonString(c.ID), i, jsonString(c.Name), jsonString(c.Arguments))
		}
		msg.WriteString("]")
	}
	msg.WriteString("}")
	return fmt.Appendf(nil, `{"id":%s,"object":"chat.completion","created":%d,"model":%s,"system_fingerprint":"fp_ollama","choices":[{"index":0,"message":%s,"finish_reason":%s}],"usage":%s}`,
		jsonString(fmt.Sprintf("chatcmpl-%d", rand.IntN(1000))), time.Now().Unix(), jsonString(s.opts.ModelName),
		msg.String(), jsonString(a.finish), a.usage.ollamaJSON())
}
