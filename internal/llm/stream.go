package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/textcut"
)

// Progress is llama.cpp's prompt_progress: how far the server has read the
// prompt. It reaches the stream callback as a chunk's Custom value.
type Progress struct {
	Total     int `json:"total"`
	Cache     int `json:"cache"`
	Processed int `json:"processed"`
	TimeMs    int `json:"time_ms"`
	// Loading is set by mm, not the server: the server is loading its
	// model and mm waits for it (loading.go); the counts are 0.
	Loading bool `json:"-"`
}

// KeepAlive is a sign of life that carries nothing to show: an SSE comment
// (llama.cpp's `:` ping), or an event without text, reasoning, tool call or
// progress (the role chunk, the usage chunk). It reaches the stream callback
// as a chunk's Custom value.
type KeepAlive struct {
	// Comment is true for an SSE comment, the server's own keep-alive.
	Comment bool
}

// Timings is llama.cpp's per-request timing report (prompt_n, cache_n,
// predicted_n, …); the context in use is cache_n+prompt_n+predicted_n.
type Timings map[string]float64

// ToolCallDelta is the metadata key of a streamed tool-call piece: the
// chunk's ToolRequest part is Partial, its Input is the new piece of the
// arguments text (a string), and Metadata[ToolCallDelta] is the call's
// index in the reply.
const ToolCallDelta = "toolCallIndex"

type wireChunk struct {
	Choices        []wireChoice    `json:"choices"`
	Usage          *wireUsage      `json:"usage"`
	Timings        Timings         `json:"timings"`
	PromptProgress *Progress       `json:"prompt_progress"`
	Error          json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int        `json:"index"`
	Delta        *wireDelta `json:"delta"`
	Message      *wireDelta `json:"message"` // non-streaming answers
	FinishReason *string    `json:"finish_reason"`
}

type wireDelta struct {
	Content          *string             `json:"content"`
	ReasoningContent *string             `json:"reasoning_content"`
	Reasoning        *string             `json:"reasoning"` // Ollama's name for it
	ToolCalls        []wireToolCallDelta `json:"tool_calls"`
}

type wireToolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// RawToolCall is one tool call as the server sent it, arguments assembled
// from their pieces but not parsed: small models break them in many ways,
// and the recovery layer decides what they become.
type RawToolCall struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}

// textAcc accumulates a long text in blocks and makes it one string at
// the end: a strings.Builder grows by a quarter at a time past a few
// kilobytes, so a 50 MB answer would cost some 250 MB of copies on the way,
// where blocks cost one.
type textAcc struct {
	joined string   // what String made of the earlier blocks
	blocks [][]byte // what came after
	n      int
}

const accBlock = 1 << 20

func (a *textAcc) WriteString(s string) {
	a.n += len(s)
	for len(s) > 0 {
		i := len(a.blocks) - 1
		if i < 0 || len(a.blocks[i]) == cap(a.blocks[i]) {
			if i >= 0 && cap(a.blocks[i]) < accBlock {
				// A small first block doubles until it is a whole one:
				// short answers stay small.
				grown := make([]byte, len(a.blocks[i]), min(accBlock, max(2*cap(a.blocks[i]), len(a.blocks[i])+len(s))))
				copy(grown, a.blocks[i])
				a.blocks[i] = grown
			} else {
				size := accBlock
				if i < 0 {
					size = min(accBlock, max(256, len(s)))
				}
				a.blocks = append(a.blocks, make([]byte, 0, size))
				i++
			}
		}
		k := min(len(s), cap(a.blocks[i])-len(a.blocks[i]))
		a.blocks[i] = append(a.blocks[i], s[:k]...)
		s = s[k:]
	}
}

func (a *textAcc) Len() int { return a.n }

// String is the whole text. It joins the blocks once and keeps the result
// in their place.
func (a *textAcc) String() string {
	if len(a.blocks) == 0 {
		return a.joined
	}
	var b strings.Builder
	b.Grow(a.n)
	b.WriteString(a.joined)
	for _, blk := range a.blocks {
		b.Write(blk)
	}
	a.joined, a.blocks = b.String(), nil
	return a.joined
}

// reply accumulates one answer.
type reply struct {
	text      textAcc
	reasoning textAcc
	calls     []*callAcc
	finish    string
	usage     *wireUsage
	timings   Timings
	done      bool // [DONE] seen
	pieces    int  // chunks emitted (progress, text, reasoning, tool-call pieces)

	// limit caps size: the bytes of text, reasoning, tool-call names, ids
	// and arguments together (see answerLimit); 0 means no cap.
	limit int
	size  int
}

// callAcc is one tool call being assembled: its arguments grow in a
// builder, never by concatenating strings (quadratic on a long call).
type callAcc struct {
	RawToolCall
	args textAcc
}

// maxCalls caps the tool calls of one answer: a model asks for a few at a
// time; a server that sends thousands is broken, and each one costs memory
// and a lookup on every later piece.
const maxCalls = 1000

// grow accounts for n more bytes of the answer and fails past the limit.
func (r *reply) grow(n int) error {
	r.size += n
	if r.limit > 0 && r.size > r.limit {
		return engineErrorf("the server sent an answer over %s (text, reasoning and tool calls together) — mm stopped reading it", mib(r.limit))
	}
	return nil
}

// mib writes a size in MiB the way the messages say it.
func mib(n int) string {
	if n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// rawCalls returns the assembled calls.
func (r *reply) rawCalls() []RawToolCall {
	out := make([]RawToolCall, len(r.calls))
	for i, c := range r.calls {
		out[i] = c.RawToolCall
		out[i].Arguments = c.args.String()
	}
	return out
}

// call finds or starts the call a delta belongs to; isNew says it started.
func (r *reply) call(d wireToolCallDelta) (c *callAcc, isNew bool, err error) {
	if d.Index != nil {
		// Most recent first: a server streams one call after the other.
		for i := len(r.calls) - 1; i >= 0; i-- {
			if r.calls[i].Index == *d.Index {
				return r.calls[i], false, nil
			}
		}
		c, err := r.newCall(*d.Index)
		return c, true, err
	}
	// Some servers leave out the index: a new id starts a new call, the
	// rest continues the last one.
	if len(r.calls) == 0 || (d.ID != "" && d.ID != r.calls[len(r.calls)-1].ID) {
		c, err := r.newCall(len(r.calls))
		return c, true, err
	}
	return r.calls[len(r.calls)-1], false, nil
}

func (r *reply) newCall(index int) (*callAcc, error) {
	if len(r.calls) >= maxCalls {
		return nil, engineErrorf("the server sent over %d tool calls in one answer — mm stopped reading it", maxCalls)
	}
	c := &callAcc{RawToolCall: RawToolCall{Index: index}}
	r.calls = append(r.calls, c)
	return c, nil
}

// argumentsPiece reads a tool call's arguments field: normally a JSON string
// holding a piece of the arguments text; some servers send the whole object.
func argumentsPiece(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// MaxEvent caps one SSE line and one event's data. A chunk of a streamed
// answer is a few hundred bytes; a server that sends megabytes without a
// line end is broken or hostile, and mm would otherwise buffer it whole.
const MaxEvent = 4 << 20

// sseReader splits a text/event-stream into events. Lines end with "\n",
// "\r\n" or a lone "\r", as the SSE rules say.
type sseReader struct {
	r    *bufio.Reader
	line []byte
	// skipLF is set after a line ended by "\r": a "\n" that follows it
	// (maybe only in the next read) is the rest of that line end.
	skipLF  bool
	started bool // the first line was read (a leading BOM is dropped)
	max     int  // line and event cap; 0 means MaxEvent
}

type sseEvent struct {
	comment bool
	data    []byte
}

// next returns the next event. Lines are joined per the SSE rules: data
// lines accumulate until a blank line; a comment line is reported at once,
// since it is a sign of life on its own. An event whose data is empty
// (`data:` alone) is not dispatched, as the SSE rules say.
func (s *sseReader) next() (sseEvent, error) {
	var data []byte
	have := false
	for {
		line, err := s.readLine()
		if err != nil {
			// An event cut by the end of the body is incomplete: the SSE
			// rules discard it, and so does mm.
			return sseEvent{}, err
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch {
		case len(line) == 0:
			if have && len(bytes.TrimSpace(data)) > 0 {
				return sseEvent{data: data}, nil
			}
			data, have = data[:0], false
		case line[0] == ':':
			if !have {
				return sseEvent{comment: true}, nil
			}
		case string(field) == "data":
			if have {
				data = append(data, '\n')
			}
			if len(data)+len(value) > s.limit() {
				return sseEvent{}, s.tooLong()
			}
			data = append(data, value...)
			have = true
		default:
			// event:, id:, retry: and unknown fields carry nothing mm uses.
		}
	}
}

func (s *sseReader) limit() int {
	if s.max > 0 {
		return s.max
	}
	return MaxEvent
}

func (s *sseReader) tooLong() error {
	return engineErrorf("the server sent a stream event over %s — mm stopped reading it", mib(s.limit()))
}

// readLine returns the next line without its end. The returned slice is
// valid until the next call.
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		if s.skipLF {
			b, err := s.r.ReadByte()
			if err != nil {
				return nil, err
			}
			s.skipLF = false
			if b != '\n' {
				_ = s.r.UnreadByte()
			}
		}
		buf, err := s.peek()
		if len(buf) == 0 {
			if err == io.EOF && len(s.line) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			if len(s.line)+len(buf) > s.limit() {
				return nil, s.tooLong()
			}
			s.line = append(s.line, buf...)
			_, _ = s.r.Discard(len(buf))
			continue
		}
		if len(s.line)+i > s.limit() {
			return nil, s.tooLong()
		}
		s.line = append(s.line, buf[:i]...)
		s.skipLF = buf[i] == '\r'
		_, _ = s.r.Discard(i + 1)
		if !s.started {
			s.started = true
			s.line = bytes.TrimPrefix(s.line, []byte("\xef\xbb\xbf"))
		}
		return s.line, nil
	}
}

// peek returns what is buffered, reading more only when nothing is: a
// line end already received is never held back waiting for more bytes.
func (s *sseReader) peek() ([]byte, error) {
	if n := s.r.Buffered(); n > 0 {
		return s.r.Peek(n)
	}
	if _, err := s.r.Peek(1); err != nil {
		return nil, err
	}
	return s.r.Peek(s.r.Buffered())
}

// readStream reads a chat-completions event stream to its end, calling cb
// for every piece as it arrives, and returns the assembled reply. limit
// caps the answer (see answerLimit); 0 means no cap.
func readStream(ctx context.Context, body io.Reader, limit int, cb ai.ModelStreamCallback) (*reply, error) {
	rep := &reply{limit: limit}
	sse := &sseReader{r: bufio.NewReaderSize(body, 64<<10)}
	emit := func(c *ai.ModelResponseChunk) error {
		if cb == nil {
			return nil
		}
		c.Role = ai.RoleModel
		return cb(ctx, c)
	}
	for {
		ev, err := sse.next()
		if err != nil {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			var ee *EngineError
			if errors.As(err, &ee) {
				return rep, err
			}
			if errors.Is(err, io.EOF) && rep.finish != "" {
				return rep, nil // no [DONE], but the answer was complete
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return rep, engineErrorf("the server closed the stream before the answer was complete")
			}
			return rep, engineErrorf("the stream from the server broke: %v", err)
		}
		if ev.comment {
			if err := emit(&ai.ModelResponseChunk{Custom: KeepAlive{Comment: true}}); err != nil {
				return rep, err
			}
			continue
		}
		if string(bytes.TrimSpace(ev.data)) == "[DONE]" {
			rep.done = true
			return rep, nil
		}
		var chunk wireChunk
		if err := json.Unmarshal(ev.data, &chunk); err != nil {
			return rep, engineErrorf("the server sent a malformed stream event: %s", clip(string(ev.data), 200))
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
			return rep, engineErrorf("the server reported an error mid-stream: %s", errorMessage(chunk.Error))
		}
		n := rep.pieces
		if err := rep.absorb(&chunk, emit); err != nil {
			return rep, err
		}
		if rep.pieces == n {
			// An event with nothing to show (the role chunk, the finish or
			// usage chunk): the watchdog does not take it for a token.
			if err := emit(&ai.ModelResponseChunk{Custom: KeepAlive{}}); err != nil {
				return rep, err
			}
		}
	}
}

// absorb adds one chunk (streamed or a whole non-streaming answer) to the
// reply, emitting its pieces.
func (rep *reply) absorb(chunk *wireChunk, send func(*ai.ModelResponseChunk) error) error {
	emit := func(c *ai.ModelResponseChunk) error {
		rep.pieces++
		return send(c)
	}
	if chunk.PromptProgress != nil {
		if err := emit(&ai.ModelResponseChunk{Custom: *chunk.PromptProgress}); err != nil {
			return err
		}
	}
	if chunk.Usage != nil {
		rep.usage = chunk.Usage
	}
	if chunk.Timings != nil {
		rep.timings = chunk.Timings
	}
	for _, ch := range chunk.Choices {
		if ch.Index != 0 {
			continue // mm asks for one choice
		}
		d := ch.Delta
		if d == nil {
			d = ch.Message
		}
		if d != nil {
			if err := rep.absorbDelta(d, emit); err != nil {
				return err
			}
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			rep.finish = *ch.FinishReason
		}
	}
	return nil
}

func (rep *reply) absorbDelta(d *wireDelta, emit func(*ai.ModelResponseChunk) error) error {
	for _, r := range []*string{d.ReasoningContent, d.Reasoning} {
		if r != nil && *r != "" {
			if err := rep.grow(len(*r)); err != nil {
				return err
			}
			rep.reasoning.WriteString(*r)
			if err := emit(&ai.ModelResponseChunk{Content: []*ai.Part{ai.NewReasoningPart(*r, nil)}}); err != nil {
				return err
			}
		}
	}
	if d.Content != nil && *d.Content != "" {
		if err := rep.grow(len(*d.Content)); err != nil {
			return err
		}
		rep.text.WriteString(*d.Content)
		if err := emit(&ai.ModelResponseChunk{Content: []*ai.Part{ai.NewTextPart(*d.Content)}}); err != nil {
			return err
		}
	}
	for _, tc := range d.ToolCalls {
		c, isNew, err := rep.call(tc)
		if err != nil {
			return err
		}
		if tc.ID != "" && c.ID == "" {
			if err := rep.grow(len(tc.ID)); err != nil {
				return err
			}
			c.ID = tc.ID
		}
		if tc.Function.Name != "" {
			// The name is whole in its first delta; a server that repeats
			// it in every delta must not make it grow.
			if c.Name == "" || !strings.HasPrefix(c.Name, tc.Function.Name) {
				if err := rep.grow(len(tc.Function.Name)); err != nil {
					return err
				}
				c.Name += tc.Function.Name
			}
		}
		piece := argumentsPiece(tc.Function.Arguments)
		if piece == "" && !isNew {
			// Nothing new: not a token (a server repeating empty deltas
			// must not keep the watchdog fed).
			continue
		}
		if err := rep.grow(len(piece)); err != nil {
			return err
		}
		c.args.WriteString(piece)
		part := ai.NewToolRequestPart(&ai.ToolRequest{Name: c.Name, Ref: c.ID, Input: piece, Partial: true})
		part.Metadata = map[string]any{ToolCallDelta: c.Index}
		if err := emit(&ai.ModelResponseChunk{Content: []*ai.Part{part}}); err != nil {
			return err
		}
	}
	return nil
}

// readJSON reads a non-streaming answer (some servers ignore stream:true).
// limit caps the answer as in readStream.
func readJSON(ctx context.Context, body []byte, limit int, cb ai.ModelStreamCallback) (*reply, error) {
	var chunk wireChunk
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&chunk); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, engineErrorf("the server's answer was truncated: its JSON ends after %d bytes", len(body))
		}
		return nil, engineErrorf("the server sent an answer that is not valid JSON: %s", clip(string(body), 200))
	}
	if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
		return nil, engineErrorf("the server reported an error: %s", errorMessage(chunk.Error))
	}
	rep := &reply{done: true, limit: limit}
	emit := func(c *ai.ModelResponseChunk) error {
		if cb == nil {
			return nil
		}
		c.Role = ai.RoleModel
		return cb(ctx, c)
	}
	if err := rep.absorb(&chunk, emit); err != nil {
		return rep, err
	}
	return rep, nil
}

// errorMessage extracts the human message of an OpenAI-style error value:
// {"message": …} or a plain string.
func errorMessage(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	return clip(string(raw), 300)
}

// clip shortens s to n bytes on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return textcut.Prefix(s, n) + "…"
}
