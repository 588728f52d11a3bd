package ask

import (
	"encoding/json"
	"sync"
	"time"
)

// order keeps a child's requests behind the notifications sent before
// them. The SDK handles notifications one at a time, in order, but each
// request at once in a goroutine of its own: a permission request could
// reach the user before the tool call it is about was shown. The reader
// of the child's output (filterUpdates) sees every line in order: it
// counts the session/update notifications and notes, for each permission
// request and form, how many came before it; the handler waits until that
// many were handled.
type order struct {
	mu       sync.Mutex
	cond     *sync.Cond
	seen     int            // session/update lines passed to the SDK
	handled  int            // session/update notifications handled
	barriers map[string]int // request key → seen when it was read
}

func newOrder() *order {
	o := &order{barriers: map[string]int{}}
	o.cond = sync.NewCond(&o.mu)
	return o
}

// orderWait bounds the wait: a notification the SDK refused never comes.
const orderWait = time.Second

func permissionKey(session, toolCall string) string { return "p\x00" + session + "\x00" + toolCall }
func formKey(session string) string                 { return "f\x00" + session }

// read notes one line the SDK is about to read.
func (o *order) read(method string, params json.RawMessage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch method {
	case "session/update":
		o.seen++
	case "session/request_permission":
		var p struct {
			SessionID string `json:"sessionId"`
			ToolCall  struct {
				ToolCallID string `json:"toolCallId"`
			} `json:"toolCall"`
		}
		if json.Unmarshal(params, &p) == nil {
			o.barriers[permissionKey(p.SessionID, p.ToolCall.ToolCallID)] = o.seen
		}
	case "elicitation/create":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(params, &p) == nil {
			o.barriers[formKey(p.SessionID)] = o.seen
		}
	}
}

// done counts one notification handled.
func (o *order) done() {
	o.mu.Lock()
	o.handled++
	o.cond.Broadcast()
	o.mu.Unlock()
}

// wait waits until the notifications read before the request of key were
// handled (at most orderWait).
func (o *order) wait(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	need, ok := o.barriers[key]
	delete(o.barriers, key)
	if !ok || o.handled >= need {
		return
	}
	expired := false
	t := time.AfterFunc(orderWait, func() {
		o.mu.Lock()
		expired = true
		o.cond.Broadcast()
		o.mu.Unlock()
	})
	defer t.Stop()
	for o.handled < need && !expired {
		o.cond.Wait()
	}
}
