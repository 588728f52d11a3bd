package agent

import "github.com/firebase/genkit/go/ai"

// AddExchange records a question and its answer that did not come from
// this agent's model (an /ask-<name> exchange: another agent answered),
// so that the model reads it on the next question. It waits for a
// running turn to end.
func (a *Agent) AddExchange(question, answer string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.history = append(a.history, ai.NewUserTextMessage(question), ai.NewModelTextMessage(answer))
}
