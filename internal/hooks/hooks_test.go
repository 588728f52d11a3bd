package hooks

import (
	"context"
	"testing"

	"mm/internal/config"
)

// No hook configured: no runner, and asking it costs nothing.
func TestNoHooksNoCost(t *testing.T) {
	r := New(config.HooksConfig{}, "/", "bob", nil)
	if r != nil {
		t.Fatal("a runner without hooks")
	}
	if n := testing.AllocsPerRun(100, func() {
		if r.Has(PreTool, "bash") || r.Has(Stop, "") {
			t.Fatal("a nil runner has hooks")
		}
	}); n != 0 {
		t.Errorf("%v allocations per check", n)
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"", "bash", true}, {"*", "fs/read", true}, {"bash", "bash", true}, {"bash", "bash2", false},
		{"fs/*", "fs/read_file", true}, {"fs/*", "fsx/read", false}, {"read_*", "read_file", true},
		{"*", "", true}, {"rev?ewer", "reviewer", true},
	} {
		if got := matches(c.pattern, c.name); got != c.want {
			t.Errorf("matches(%q, %q) = %v", c.pattern, c.name, got)
		}
	}
}

// One hook call: the process start of sh and the JSON in and out.
func BenchmarkHookCall(b *testing.B) {
	r := New(config.HooksConfig{PreTool: []config.Hook{{Command: `echo '{"context":"x"}'`}}}, b.TempDir(), "bob", nil)
	in := Input{Event: PreTool, Tool: "bash", Arguments: []byte(`{"command":"ls"}`)}
	b.ReportAllocs()
	for b.Loop() {
		if res := r.Run(context.Background(), "bash", in, nil); res.Context != "x" {
			b.Fatalf("result %+v", res)
		}
	}
}
