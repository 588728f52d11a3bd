package agent

import (
	"fmt"

	"github.com/firebase/genkit/go/ai"
)

// Restore replaces the conversation with msgs (a saved session's history,
// without its system prompt): the system prompt of the current
// configuration comes first, so the request prefix is this mm's, byte for
// byte. Like /new, the loop detector and the session's permission answers
// start afresh: they belong to the process, not to the conversation. A
// system message in msgs is refused, and the history is then left as it
// was.
func (a *Agent) Restore(msgs []*ai.Message) error {
	for i, m := range msgs {
		if m == nil || m.Role == ai.RoleSystem {
			return fmt.Errorf("message %d of the restored history is a system message", i+1)
		}
	}
	a.Reset()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.history = append(a.history, msgs...)
	return nil
}
