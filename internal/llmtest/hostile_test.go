package llmtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// The faults of a hostile or broken server, byte by byte.

func TestFaultPingOnly(t *testing.T) {
	s := New(t, Turn{Text: "never sent", Fault: FaultPingOnly, ChunkDelay: 5e6})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	resp := open(t, ctx, s)
	evs := readEvents(t, bufio.NewReader(resp.Body), 5)
	for _, ev := range evs {
		if ev != ":\n\n" {
			t.Fatalf("events %q", evs)
		}
	}
	cancel()
	waitIdle(t, s)
}

func TestFaultPingMidStream(t *testing.T) {
	s := New(t, Turn{Text: "a b c", Fault: FaultPingMidStream, FaultAfter: 2, ChunkDelay: 5e6})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	resp := open(t, ctx, s)
	evs := readEvents(t, bufio.NewReader(resp.Body), 8)
	if !strings.Contains(evs[1], `"content":"a"`) {
		t.Fatalf("no token before the pings: %q", evs)
	}
	for _, ev := range evs[2:] {
		if ev != ":\n\n" && !strings.Contains(ev, `"delta":{}`) {
			t.Fatalf("more than pings and empty chunks: %q", evs)
		}
	}
	cancel()
	waitIdle(t, s)
}

func TestFaultHugeLineAndAnswer(t *testing.T) {
	s := New(t,
		Turn{Text: "a", Fault: FaultHugeLine, FaultAfter: 1, FaultBytes: 1 << 20},
		Turn{Text: "a", Fault: FaultHugeAnswer, FaultAfter: 1, FaultBytes: 256 << 10},
	)
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	longest := 0
	for _, line := range strings.Split(string(body), "\n") {
		longest = max(longest, len(line))
	}
	if longest < 1<<20 || !strings.HasSuffix(string(body), "data: [DONE]\n\n") {
		t.Errorf("huge-line: longest line %d bytes", longest)
	}
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if n := strings.Count(string(body), strings.Repeat("x", 64<<10)); n != 4 || !strings.HasSuffix(string(body), "data: [DONE]\n\n") {
		t.Errorf("huge-answer: %d pieces of 64 KiB", n)
	}
}

func TestFaultEmptyDataAndLineEnds(t *testing.T) {
	s := New(t,
		Turn{Text: "a b", Fault: FaultEmptyData, FaultAfter: 1},
		Turn{Text: "a b", Fault: FaultCREndings},
		Turn{Text: "a b", Fault: FaultCRLFEndings},
	)
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if !bytes.Contains(body, []byte("\n\ndata:\n\ndata: \n\n")) || !bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		t.Errorf("empty-data: %q", body)
	}
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if bytes.Contains(body, []byte("\n")) || !bytes.HasSuffix(body, []byte("data: [DONE]\r\r")) {
		t.Errorf("cr-endings: %q", body)
	}
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if bytes.Count(body, []byte("\n")) != bytes.Count(body, []byte("\r\n")) || !bytes.HasSuffix(body, []byte("data: [DONE]\r\n\r\n")) {
		t.Errorf("crlf-endings: %q", body)
	}
}

func TestFaultsJSON(t *testing.T) {
	s := New(t,
		Turn{Text: "a b c d", Fault: FaultTruncatedJSON},
		Turn{Text: "a b c d", Fault: FaultShortJSON},
		Turn{Fault: FaultHugeJSON, FaultBytes: 1 << 20},
	)
	resp, body, err := post(t, s.URL()+"/chat/completions", chatBody)
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("truncated-json: %v %v", err, resp.Header)
	}
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if !bytes.HasPrefix(body, []byte(`{"choices":`)) || bytes.HasSuffix(body, []byte("}")) {
		t.Errorf("short-json: %q", body)
	}
	resp, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if len(body) < 1<<20 || !bytes.HasSuffix(body, []byte(`"}}],"object":"chat.completion"}`)) {
		t.Errorf("huge-json: %d bytes", len(body))
	}
}

func TestScriptFaultBytes(t *testing.T) {
	turns, err := ParseScript([]byte("- fault: huge-answer\n  faultBytes: 1024\n- fault: ping-only\n"))
	if err != nil || len(turns) != 2 || turns[0].FaultBytes != 1024 || turns[1].Fault != FaultPingOnly {
		t.Fatalf("%v %+v", err, turns)
	}
}
