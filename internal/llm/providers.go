package llm

import (
	"fmt"
	"strings"
)

// Provider is one entry of the reference's provider table: where its server
// listens by default and which variable holds its API key.
type Provider struct {
	Name      string
	BaseURL   string
	Fallback  string // "" = no fallback
	APIKeyEnv string // "" = no key
	// LlamaCpp is true for the servers that run llama.cpp's llama-server
	// (dmr, llamacpp, llmman): they accept return_progress and
	// chat_template_kwargs, and serve /props.
	LlamaCpp bool
	// StartHint tells a user how to start this server, for the error shown
	// when nothing answers.
	StartHint string
}

var providers = []Provider{
	{
		Name: "dmr", BaseURL: "http://localhost:12434/engines/v1",
		Fallback: "http://host.docker.internal:12434/engines/v1", LlamaCpp: true,
		StartHint: "start Docker Model Runner with `docker desktop enable model-runner --tcp 12434` and pull the model with `docker model pull <model>`",
	},
	{
		Name: "llamacpp", BaseURL: "http://127.0.0.1:8080/v1", APIKeyEnv: "LLAMA_API_KEY", LlamaCpp: true,
		StartHint: "start llama.cpp with `llama-server -m model.gguf --jinja --port 8080`",
	},
	{
		Name: "llmman", BaseURL: "http://127.0.0.1:17434/v1",
		Fallback: "http://host.docker.internal:17434/v1", APIKeyEnv: "LLMMAN_API_KEY", LlamaCpp: true,
		StartHint: "start llmman (it serves on port 17434)",
	},
	{
		Name: "ollama", BaseURL: "http://localhost:11434/v1",
		Fallback: "http://host.docker.internal:11434/v1", APIKeyEnv: "OLLAMA_API_KEY",
		StartHint: "start Ollama with `ollama serve` and pull the model with `ollama pull <model>`",
	},
}

// LookupProvider returns the provider named name, or the reference's error
// for an unknown name.
func LookupProvider(name string) (Provider, error) {
	for _, p := range providers {
		if p.Name == name {
			return p, nil
		}
	}
	return Provider{}, engineErrorf("unknown provider %q (known: %s)", name, strings.Join(ProviderNames(), ", "))
}

// ProviderNames lists the known providers in the reference's order.
func ProviderNames() []string {
	names := make([]string, len(providers))
	for i, p := range providers {
		names[i] = p.Name
	}
	return names
}

func (p Provider) String() string { return fmt.Sprintf("%s (%s)", p.Name, p.BaseURL) }
