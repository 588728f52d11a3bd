package acp

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

func TestIsResponse(t *testing.T) {
	for line, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"result":{}}`:                           true,
		`{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"x"}}`:    true,
		`{"jsonrpc":"2.0","id":3,"method":"session/request_permission"}`: false,
		`{"jsonrpc":"2.0","method":"session/update","params":{"id":1}}`:  false,
		`{"jsonrpc":"2.0","method":"x","params":{"result":1},"id":null}`: false,
		`not json`: false,
	} {
		if got := isResponse([]byte(line)); got != want {
			t.Errorf("isResponse(%s) = %v", line, got)
		}
	}
}

func TestCheck(t *testing.T) {
	for line, want := range map[string]int{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`: 0,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{}}`:    0,
		`{"jsonrpc":"2.0","id":4,"result":{}}`:                       0,
		`{"jsonrpc":"2.0","id":1,"method":`:                          -32700,
		`[{"jsonrpc":"2.0"}]`:                                        -32600,
		`{"jsonrpc":"2.0"}`:                                          -32600,
		`{"jsonrpc":"2.0","id":{},"method":"x"}`:                     -32600,
	} {
		rej, _ := check([]byte(line), false)
		got := 0
		if rej != nil {
			got = rej.err.Code
		}
		if got != want {
			t.Errorf("check(%s) = %d, want %d", line, got, want)
		}
	}
	if _, req := check([]byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`), false); !req {
		t.Error("a request is not counted")
	}
	if _, req := check([]byte(`{"jsonrpc":"2.0","method":"x"}`), false); req {
		t.Error("a notification is counted")
	}
}

// A line longer than the SDK reads is reported, and the next one is read
// whole.
func TestReadLineTooLong(t *testing.T) {
	in := strings.Repeat("a", sdkMaxLine+1) + "\n" + `{"x":1}` + "\n"
	r := bufio.NewReaderSize(strings.NewReader(in), 64<<10)
	line, tooLong, err := readLine(r)
	if !tooLong || err != nil || len(line) != sdkMaxLine+1 {
		t.Fatalf("long line: %d %v %v", len(line), tooLong, err)
	}
	line, tooLong, err = readLine(r)
	if tooLong || err != nil || !bytes.Equal(line, []byte(`{"x":1}`)) {
		t.Fatalf("next line: %q %v %v", line, tooLong, err)
	}
	line, tooLong, _ = readLine(bufio.NewReader(strings.NewReader(strings.Repeat("b", sdkMaxLine) + "\r\n")))
	if tooLong || len(line) != sdkMaxLine {
		t.Errorf("a line at the limit: %d %v", len(line), tooLong)
	}
}
