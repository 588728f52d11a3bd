package llm

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/firebase/genkit/go/ai"
)

// A server may close a kept-alive connection just as mm sends its next
// request on it (llama-server did, once, under load): the request never
// reached it, and is sent again on a new connection instead of failing
// the turn with "EOF".
func TestClosedKeepAliveConnectionIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	body := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	var conns, answered atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func(c net.Conn) {
				defer c.Close()
				br := bufio.NewReader(c)
				for n := 0; ; n++ {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					if n == 1 {
						return // the second request on a connection: closed unanswered
					}
					answered.Add(1)
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
				}
			}(c)
		}
	}()
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: "http://" + ln.Addr().String() + "/v1", Model: "m", HTTP: NewHTTPClient()}
	for i := range 3 {
		resp, err := c.Generate(context.Background(), &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("q")}}, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		if got := resp.Text(); !strings.Contains(got, "hi") {
			t.Fatalf("request %d: %q", i+1, got)
		}
	}
	if answered.Load() != 3 || conns.Load() < 3 {
		t.Errorf("%d answered over %d connections", answered.Load(), conns.Load())
	}
}
