package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
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

// reply accumulates one answer.
type reply struct {
	text      strings.Builder
	reasoning strings.Builder
	calls     []*RawToolCall
	finish    string
	usage     *wireUsage
	timings   Timings
	done      bool // [DONE] seen
	pieces    int  // chunks emitted (progress, text, reasoning, tool-call pieces)
}

func (r *reply) call(d wireToolCallDelta) *RawToolCall {
	if d.Index != nil {
		for _, c := range r.calls {
			if c.Index == *d.Index {
				return c
			}
		}
		c := &RawToolCall{Index: *d.Index}
		r.calls = append(r.calls, c)
		return c
	}
	// Some servers leave out the index: a new id starts a new call, the
	// rest continues the last one.
	if len(r.calls) == 0 || (d.ID != "" && d.ID != r.calls[len(r.calls)-1].ID) {
		c := &RawToolCall{Index: len(r.calls)}
		r.calls = append(r.calls, c)
		return c
	}
	return r.calls[len(r.calls)-1]
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

// sseReader splits a text/event-stream into events.
type sseReader struct {
	r    *bufio.Reader
	line []byte
}

type sseEvent struct {
	comment bool
	data    []byte
}

// next returns the next event. Lines are joined per the SSE rules: data
// lines accumulate until a blank line; a comment line is reported at once,
// since it is a sign of life on its own.
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
		switch {
		case len(line) == 0:
			if have {
				return sseEvent{data: data}, nil
			}
		case line[0] == ':':
			if !have {
				return sseEvent{comment: true}, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(line[5:], []byte(" "))
			if have {
				data = append(data, '\n')
			}
			data = append(data, v...)
			have = true
		default:
			// event:, id:, retry: and unknown fields carry nothing mm uses.
		}
	}
}

func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		part, err := s.r.ReadSlice('\n')
		s.line = append(s.line, part...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(s.line) > 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return bytes.TrimRight(s.line, "\r\n"), nil
	}
}

// readStream reads a chat-completions event stream to its end, calling cb
// for every piece as it arrives, and returns the assembled reply.
func readStream(ctx context.Context, body io.Reader, cb ai.ModelStreamCallback) (*reply, error) {
	rep := &reply{}
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
			// usage chunk) still proves the server is alive.
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
			rep.reasoning.WriteString(*r)
			if err := emit(&ai.ModelResponseChunk{Content: []*ai.Part{ai.NewReasoningPart(*r, nil)}}); err != nil {
				return err
			}
		}
	}
	if d.Content != nil && *d.Content != "" {
		rep.text.WriteString(*d.Content)
		if err := emit(&ai.ModelResponseChunk{Content: []*ai.Part{ai.NewTextPart(*d.Content)}}); err != nil {
			return err
		}
	}
	for _, tc := range d.ToolCalls {
		c := rep.call(tc)
		if tc.ID != "" && c.ID == "" {
			c.ID = tc.ID
		}
		if tc.Function.Name != "" {
			// The name is whole in its first delta; a server that repeats
			// it in every delta must not make it grow.
			if c.Name == "" || !strings.HasPrefix(c.Name, tc.Function.Name) {
				c.Name += tc.Function.Name
			}
		}
		piece := argumentsPiece(tc.Function.Arguments)
		c.Arguments += piece
		part := ai.NewToolRequestPart(&ai.ToolRequest{Name: c.Name, Ref: c.ID, Input: piece, Partial: true})
		part.Metadata = map[string]any{ToolCallDelta: c.Index}
		if err := emit(&ai.ModelResponseChunk{Content: []*ai.Part{part}}); err != nil {
			return err
		}
	}
	return nil
}

// readJSON reads a non-streaming answer (some servers ignore stream:true).
func readJSON(ctx context.Context, body []byte, cb ai.ModelStreamCallback) (*reply, error) {
	var chunk wireChunk
	if err := json.Unmarshal(body, &chunk); err != nil {
		return nil, engineErrorf("the server sent an answer that is not valid JSON: %s", clip(string(body), 200))
	}
	if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
		return nil, engineErrorf("the server reported an error: %s", errorMessage(chunk.Error))
	}
	rep := &reply{done: true}
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
