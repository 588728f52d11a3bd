package llm

import (
	"fmt"
	"net/url"
	"strings"

	"mm/internal/config"
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
	// StartHint is the one command most likely to bring this server up,
	// for the error shown when nothing answers.
	StartHint string
}

var providers = []Provider{
	{
		Name: "dmr", BaseURL: "http://localhost:12434/engines/v1",
		Fallback: "http://host.docker.internal:12434/engines/v1", LlamaCpp: true,
		StartHint: "turn on Docker Model Runner's port: `docker desktop enable model-runner --tcp 12434` (Docker Engine: `docker model run <model>`)",
	},
	{
		Name: "llamacpp", BaseURL: "http://127.0.0.1:8080/v1", APIKeyEnv: "LLAMA_API_KEY", LlamaCpp: true,
		StartHint: "start one: `llama-server -m model.gguf --jinja --port 8080`",
	},
	{
		Name: "llmman", BaseURL: "http://127.0.0.1:17434/v1",
		Fallback: "http://host.docker.internal:17434/v1", APIKeyEnv: "LLMMAN_API_KEY", LlamaCpp: true,
		StartHint: "start llmman (it listens on port 17434)",
	},
	{
		Name: "ollama", BaseURL: "http://localhost:11434/v1",
		Fallback: "http://host.docker.internal:11434/v1", APIKeyEnv: "OLLAMA_API_KEY",
		StartHint: "start Ollama: `ollama serve`",
	},
}

// The trust of a project's configuration needs to know what its provider
// would send (config.ProviderDefaults): this table is the one place that
// says.
func init() {
	config.ProviderDefaults = func(name string) (string, string, string, bool) {
		p, err := LookupProvider(name)
		return p.BaseURL, p.Fallback, p.APIKeyEnv, err == nil
	}
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

// pullHint is the command that gets a model onto a server that serves
// several ("" when the provider has none).
func (p Provider) pullHint(model string) string {
	switch p.Name {
	case "ollama":
		return "`ollama pull " + model + "`"
	case "dmr":
		return "`docker model pull " + model + "`"
	}
	return ""
}

// contextHint says how to give the model a context of n tokens.
func (p Provider) contextHint(n int, model string) string {
	switch p.Name {
	case "ollama":
		return fmt.Sprintf("restart Ollama with OLLAMA_CONTEXT_LENGTH=%d", n)
	case "dmr":
		return fmt.Sprintf("docker model configure --context-size %d %s", n, model)
	}
	return fmt.Sprintf("restart llama-server with -c %d", n)
}

// startHint is StartHint for the server expected at base: its port in
// place of the provider's default one (`--port 8080` for a baseUrl on
// port 9000 would start a server mm does not look at).
func (p Provider) startHint(base string) string {
	want, def := urlPort(base), urlPort(p.BaseURL)
	if want == "" || def == "" || want == def {
		return p.StartHint
	}
	return strings.ReplaceAll(p.StartHint, def, want)
}

// urlPort is the port of a URL, the scheme's when it names none.
func urlPort(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	if port := u.Port(); port != "" {
		return port
	}
	switch u.Scheme {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}
