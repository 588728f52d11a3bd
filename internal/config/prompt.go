package config

import "strings"

// DefaultSystemPrompt is the system prompt when the configuration sets none.
// A small local model reads it on every request: every word must earn its
// place.
const DefaultSystemPrompt = `You are a coding agent working in the user's project through tools.
` + bashLine + `
- Make the smallest change that does what was asked, then check it by running it.
- If a tool fails, read the error and fix the cause; do not repeat the same call.
- When done, say briefly what you changed and how you checked it.`

const bashLine = `- Use bash to look around, build and run tests. Read a file before you change it.`

// SystemPromptFor is the built-in prompt for the declared tools: without
// bash, the model must not be told to use it (its calls would only be
// refused).
func SystemPromptFor(bashTool bool) string {
	if bashTool {
		return DefaultSystemPrompt
	}
	return strings.Replace(DefaultSystemPrompt, bashLine, "- Read a file before you change it.", 1)
}
