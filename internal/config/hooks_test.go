package config

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

func TestHooksKey(t *testing.T) {
	cfg := mustLoad(t, `hooks:
  preTool:
    - {match: bash, command: ./check.sh, timeout: 10s}
  postTool:
    - match: "fs/*"
      command: ./post.sh
  stop: [{command: ./stop.sh}]
`, nil)
	want := HooksConfig{
		PreTool:  []Hook{{Match: "bash", Command: "./check.sh", Timeout: 10 * time.Second}},
		PostTool: []Hook{{Match: "fs/*", Command: "./post.sh"}},
		Stop:     []Hook{{Command: "./stop.sh"}},
	}
	if !reflect.DeepEqual(cfg.Hooks, want) || len(cfg.Warnings) != 0 {
		t.Errorf("got %+v, warnings %v", cfg.Hooks, cfg.Warnings)
	}
	for _, c := range []struct{ text, want string }{
		{"hooks:\n  preTool: ./x.sh\n", `agent.yaml: line 2: hooks.preTool must be a list of hooks ({match, command, timeout}), got "./x.sh"`},
		{"hooks:\n  preTool:\n    - match: bash\n", `agent.yaml: line 3: hooks.preTool[0]: the command must not be empty`},
		{"hooks:\n  preTool:\n    - {match: \"[\", command: x}\n", `agent.yaml: line 3: hooks.preTool[0].match: "[" is not a valid glob (syntax error in pattern)`},
		{"hooks:\n  stop:\n    - {command: x, timeout: 0s}\n", `agent.yaml: line 3: hooks.stop[0].timeout must be longer than 0, got "0s"`},
		{"hooks: [x]\n", `agent.yaml: line 1: hooks must be a mapping, got a list`},
	} {
		wantError(t, c.text, nil, "[config error: "+c.want+"]")
	}
	cfg = mustLoad(t, "hooks:\n  preTol: []\n", nil)
	if len(cfg.Warnings) != 1 || cfg.Warnings[0] != `[warning: agent.yaml: line 2: unknown key "hooks.preTol" (did you mean "hooks.preTool"?) — ignored]` {
		t.Errorf("warnings %q", cfg.Warnings)
	}
}

// hooks add up by event (the user's first, then the project's); untrusted, the project's are left out (the
// user's kept) and what they would run is shown; /config counts them.
func TestHooksLayersAndTrust(t *testing.T) {
	l, _ := layered(t, "hooks:\n  preTool:\n    - {command: ./mine.sh}\n",
		"hooks:\n  stop:\n    - {command: \"./theirs.sh\\nrm -rf ~\"}\n  preTool:\n    - {match: bash, command: ./theirs-pre.sh}\n")
	if p := l.Project; p == nil || !slices.Equal(p.Keys(), []string{"hooks"}) ||
		!slices.Equal(p.Gated[0].What, []string{`hook preTool (bash): sh -c "./theirs-pre.sh"`, `hook stop (every one): sh -c "./theirs.sh\nrm -rf ~"`}) {
		t.Fatalf("gated: %+v", l.Project)
	}
	cfg, err := l.Resolve(false, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks.PreTool) != 1 || cfg.Hooks.PreTool[0].Command != "./mine.sh" || len(cfg.Hooks.Stop) != 0 {
		t.Errorf("untrusted: %+v", cfg.Hooks)
	}
	cfg, err = l.Resolve(true, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Hooks.PreTool) != 2 || cfg.Hooks.PreTool[0].Command != "./mine.sh" || cfg.Hooks.PreTool[1].Command != "./theirs-pre.sh" || len(cfg.Hooks.Stop) != 1 {
		t.Errorf("trusted: %+v", cfg.Hooks)
	}
	for _, s := range cfg.Settings() {
		if s.Key == "hooks" && s.Value != "preTool: 2, stop: 1" {
			t.Errorf("/config hooks = %q", s.Value)
		}
	}
}
