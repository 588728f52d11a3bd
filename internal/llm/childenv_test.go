package llm

import (
	"slices"
	"strings"
	"testing"
)

// The commands mm runs never see the API key's variable, any provider's
// key variable, or AGENT_BASE_URL; the rest of the environment stays.
func TestChildEnvDropsSecrets(t *testing.T) {
	t.Setenv("LLAMA_API_KEY", "k1")
	t.Setenv("OLLAMA_API_KEY", "k2")
	t.Setenv("LLMMAN_API_KEY", "k3")
	t.Setenv("MY_KEY", "k4")
	t.Setenv("AGENT_BASE_URL", "http://user:pw@host/v1")
	t.Setenv("AGENT_MODEL", "m")
	t.Setenv("MM_CHILDENV_TEST", "kept")
	env := ChildEnv("MY_KEY")
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains([]string{"LLAMA_API_KEY", "OLLAMA_API_KEY", "LLMMAN_API_KEY", "MY_KEY", "AGENT_BASE_URL"}, name) {
			t.Errorf("%s inherited", kv)
		}
	}
	for _, want := range []string{"MM_CHILDENV_TEST=kept", "AGENT_MODEL=m"} {
		if !slices.Contains(env, want) {
			t.Errorf("%s dropped", want)
		}
	}
	if !slices.Contains(ChildEnv(), "MY_KEY=k4") {
		t.Error("MY_KEY dropped without being the configured apiKeyEnv")
	}
}
