package llm

import (
	"context"
	"io/fs"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"testing/fstest"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// genkitEnv are the variables through which Genkit would change what a CLI
// does in a user's repository: GENKIT_ENV=dev starts a reflection server,
// GENKIT_TELEMETRY_SERVER posts every prompt to that URL.
var genkitEnv = []string{"GENKIT_ENV", "GENKIT_TELEMETRY_SERVER"}

// NewGenkit starts Genkit with its side effects neutralised:
//   - no ./prompts/**/*.prompt is read from the user's directory (an empty
//     prompt file system is given instead);
//   - GENKIT_ENV and GENKIT_TELEMETRY_SERVER are removed from mm's own
//     environment (no reflection server, no telemetry upload); ChildEnv
//     gives them back to the commands mm runs;
//   - Init's SIGINT/SIGTERM capture is undone, so Ctrl-C reaches mm's own
//     handlers.
func NewGenkit(ctx context.Context) *genkit.Genkit {
	for _, k := range genkitEnv {
		if v, ok := os.LookupEnv(k); ok {
			savedEnv = append(savedEnv, k+"="+v)
			os.Unsetenv(k)
		}
	}
	g := genkit.Init(ctx, genkit.WithPromptFS(fstest.MapFS{"prompts": &fstest.MapFile{Mode: fs.ModeDir | 0o755}}))
	signal.Reset(os.Interrupt, syscall.SIGTERM)
	return g
}

var savedEnv []string

// ChildEnv is the environment for the commands mm runs (the bash tool, the
// language servers): mm's own, plus the Genkit variables NewGenkit took out
// of it, minus what holds a secret the model must not read with `env`:
// SecretEnv(apiKeyEnv).
func ChildEnv(apiKeyEnv ...string) []string {
	drop := SecretEnv(apiKeyEnv...)
	var env []string
	for _, kv := range append(os.Environ(), savedEnv...) {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(drop, name) {
			env = append(env, kv)
		}
	}
	return env
}

// SecretEnv are the variables kept from mm's children: the configured
// apiKeyEnv names, every provider's default key variable (LLAMA_API_KEY,
// LLMMAN_API_KEY, OLLAMA_API_KEY: a key for another server is a secret
// too), and AGENT_BASE_URL, whose URL may hold a password or a token.
// The other AGENT_ variables (provider, model, yolo, trace) are settings,
// not secrets, and stay.
func SecretEnv(apiKeyEnv ...string) []string {
	drop := []string{"AGENT_BASE_URL"}
	for _, p := range providers {
		if p.APIKeyEnv != "" {
			drop = append(drop, p.APIKeyEnv)
		}
	}
	for _, k := range apiKeyEnv {
		if k != "" {
			drop = append(drop, k)
		}
	}
	return drop
}

// DefineModel registers the client as a Genkit model named
// "<provider>/<model>" and returns it.
func DefineModel(g *genkit.Genkit, c *Client) ai.Model {
	return genkit.DefineModel(g, c.Provider.Name+"/"+c.Model, &ai.ModelOptions{
		Label: c.Model,
		Supports: &ai.ModelSupports{
			Multiturn:  true,
			Tools:      true,
			SystemRole: true,
			ToolChoice: true,
		},
	}, c.Generate)
}
