package mcp

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// A message over the limit is replaced by an error answer to its id,
// wherever the id is in it; a request or notification of the server's,
// or a message without an id, is dropped; the messages around it pass
// whole.
func TestFramesOverLimit(t *testing.T) {
	big := strings.Repeat("x", 300)
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + big + `"}]}}`,
		`{"jsonrpc":"2.0","result":{"text":"` + big + `, \"id\": 9, {"},"id":"a,}b"}`,
		`{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"t":"` + big + `"}}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"t":"` + big + `"}}`,
		`{"result":"` + big + `"}`,
		`{"jsonrpc":"2.0","id":4,"result":{}}`,
		`{"jsonrpc":"2.0","id":5,"result":"` + big, // cut by EOF
	}
	in := strings.Join(lines, "\n")
	f := newFrames(io.NopCloser(strings.NewReader(in)), &schemas{}, 200)
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	answer := func(id string, size int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32099,"message":"the message is over the limit of 200 bytes","data":{"size":%d}}}`, id, size)
	}
	// The sizes count the line's newline, the last line has none.
	want := strings.Join([]string{
		lines[0],
		answer("2", len(lines[1])+1),
		answer(`"a,}b"`, len(lines[2])+1),
		lines[6],
		answer("5", len(lines[7])),
	}, "\n") + "\n"
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}
