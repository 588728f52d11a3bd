package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestUnknownKeyWarnings(t *testing.T) {
	cfg := mustLoad(t, `provider: dmr
Yolo: false
yollo: false
context:
  treshold: 50
  enabled: true
trace:
  enabeld: true
acp:
  nmae: x
lsp:
  server: []
mmConfigs:
  helper:
    path: h.yaml
    descripton: reviews
sampling:
  anything_goes: 1
x-defaults: &d {a: 1}
triggers: [a, b]
`+strings.Repeat("k", 100)+`: 1
`, nil)
	want := []string{
		`[warning: agent.yaml: line 2: unknown key "Yolo" (did you mean "yolo"?) — ignored]`,
		`[warning: agent.yaml: line 3: unknown key "yollo" (did you mean "yolo"?) — ignored]`,
		`[warning: agent.yaml: line 5: unknown key "context.treshold" (did you mean "context.threshold"?) — ignored]`,
		`[warning: agent.yaml: line 8: unknown key "trace.enabeld" (did you mean "trace.enabled"?) — ignored]`,
		`[warning: agent.yaml: line 10: unknown key "acp.nmae" (did you mean "acp.name"?) — ignored]`,
		`[warning: agent.yaml: line 12: unknown key "lsp.server" (did you mean "lsp.servers"?) — ignored]`,
		`[warning: agent.yaml: line 16: unknown key "mmConfigs.helper.descripton" (did you mean "mmConfigs.helper.description"?) — ignored]`,
		`[warning: agent.yaml: line 20: unknown key "triggers" — ignored]`,
		`[warning: agent.yaml: line 21: unknown key "` + strings.Repeat("k", 40) + `…" — ignored]`,
	}
	var got []string
	for _, w := range cfg.Warnings {
		if strings.Contains(w, "unknown key") {
			got = append(got, w)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Ignored means ignored: the misspelt keys changed nothing.
	if !cfg.Yolo || cfg.Context.Threshold != 75 || cfg.Trace.Enabled || !cfg.Context.Enabled {
		t.Errorf("an unknown key acted: %+v", cfg)
	}
	// The key comes from the file: it is quoted, control characters escaped.
	if cfg := mustLoad(t, "\"ev\\e[31mil\": 1\n", nil); len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], `unknown key "ev\x1b[31mil"`) {
		t.Errorf("escape: %q", cfg.Warnings)
	}
	// A null value is still a misspelt key.
	if cfg := mustLoad(t, "yollo:\n", nil); len(cfg.Warnings) != 1 {
		t.Errorf("null value: %v", cfg.Warnings)
	}
	// A key merged in from an anchor is checked where it lands.
	cfg = mustLoad(t, "x-base: &b\n  maxTurn: 3\n<<: *b\n", nil)
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0], `line 2: unknown key "maxTurn" (did you mean "maxTurns"?)`) {
		t.Errorf("merged key: %v", cfg.Warnings)
	}
}

// Every key a list names is one the decoder reads: given a value of the
// wrong type, each is refused (a key missing from the decoder would be
// skipped in silence).
func TestKnownKeysAreRead(t *testing.T) {
	sections := map[string][]string{"": topKeys, "context": contextKeys, "sessions": sessionsKeys, "trace": traceKeys, "acp": acpKeys, "lsp": lspKeys, "mcp": mcpKeys}
	for where, keys := range sections {
		for _, k := range keys {
			text := k + ": [[1]]\n"
			if where != "" {
				text = where + ":\n  " + text
			}
			if _, err := loadText(t, text, nil); err == nil {
				t.Errorf("%s: a list of lists was accepted: the decoder does not read it", join(where, k))
			}
		}
	}
	for _, k := range lspServerKeys {
		if _, err := loadText(t, "lsp:\n  servers:\n    - "+k+": {a: 1}\n", nil); err == nil || !strings.Contains(err.Error(), "lsp.servers[0]."+k+" must be") {
			t.Errorf("lsp.servers[0].%s not read: %v", k, err)
		}
	}
	for _, k := range mcpServerKeys {
		if _, err := loadText(t, "mcp:\n  servers:\n    - "+k+": [[1]]\n", nil); err == nil || !strings.Contains(err.Error(), "mcp.servers[0]."+k) {
			t.Errorf("mcp.servers[0].%s not read: %v", k, err)
		}
	}
	for _, k := range mmConfigKeys {
		if _, err := loadText(t, "mmConfigs:\n  a:\n    path: a.yaml\n    "+k+": [1]\n", nil); k != "path" && (err == nil || !strings.Contains(err.Error(), "mmConfigs.a."+k+" must be")) {
			t.Errorf("mmConfigs.a.%s not read: %v", k, err)
		}
	}
}

func TestNearest(t *testing.T) {
	cases := map[string]string{
		"yollo": "yolo", "YOLO": "yolo", "maxturns": "maxTurns", "skillDir": "skillsDir",
		"sytem": "system", "tiu": "tui", "baseURL": "baseUrl", "fallbak": "fallback",
		"foo": "", "lsp2": "lsp", "mpc": "mcp", "xyz": "", "model_name": "", "": "",
	}
	for in, want := range cases {
		if got := nearest(in, topKeys); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
	if got := nearest("dri", sessionsKeys); got != "dir" {
		t.Errorf("nearest(dri) = %q", got)
	}
	if d := editDistance("threshold", "thresohld"); d != 1 {
		t.Errorf("a swap counts %d", d)
	}
}

// Range errors carry the line and the value; from the environment, the
// variable instead of a line.
func TestRangeErrorOrigin(t *testing.T) {
	wantError(t, "provider: dmr\nmaxTurns: -3\n", nil, "[config error: agent.yaml: line 2: maxTurns must be > 0 (got -3)]")
	wantError(t, "model: m\n", map[string]string{"AGENT_MODEL": "  "}, `[config error: agent.yaml: model must not be empty (got "  " from AGENT_MODEL)]`)
	wantError(t, "provider: dmr\n", map[string]string{"AGENT_PROVIDER": " "}, `[config error: agent.yaml: provider must not be empty (got " " from AGENT_PROVIDER)]`)
	wantError(t, "baseUrl: http://a.invalid/v1\n", map[string]string{"AGENT_BASE_URL": "a.invalid:80"}, `[config error: agent.yaml: baseUrl must be an absolute http(s) URL, like http://127.0.0.1:8080/v1 (got "a.invalid:80" from AGENT_BASE_URL)]`)
	// Without a file.
	t.Chdir(t.TempDir())
	if _, err := Load("", env(map[string]string{"AGENT_BASE_URL": "localhost"})); err == nil || err.Error() != `[config error: (built-in defaults): baseUrl must be an absolute http(s) URL, like http://127.0.0.1:8080/v1 (got "localhost" from AGENT_BASE_URL)]` {
		t.Errorf("err = %v", err)
	}
}

func TestBaseURLs(t *testing.T) {
	for _, ok := range []string{`baseUrl: http://127.0.0.1:8080/v1`, `baseUrl: https://example.invalid`, `baseUrl: HTTP://h.invalid:1/x`, `baseUrl: ""`, `fallback: ""`, `fallback: http://h.invalid/v1`, `fallback:`, `baseUrl: http://user:pw@h.invalid/v1`} {
		if _, err := loadText(t, ok+"\n", nil); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	const must = " must be an absolute http(s) URL, like http://127.0.0.1:8080/v1"
	cases := map[string]string{
		"baseUrl: localhost:8080":           `line 1: baseUrl` + must + ` (got "localhost:8080")`,
		"baseUrl: /v1":                      `line 1: baseUrl` + must + ` (got "/v1")`,
		"baseUrl: ftp://h.invalid/":         `line 1: baseUrl` + must + ` (got "ftp://h.invalid/")`,
		"baseUrl: http://":                  `line 1: baseUrl` + must + ` (got "http:")`,
		"baseUrl: \" http://h.invalid\"":    `line 1: baseUrl` + must + ` (got " http://h.invalid")`,
		"fallback: 127.0.0.1:1":             `line 1: fallback` + must + ` (got "127.0.0.1:1")`,
		"fallback: ws://u:secret@h.invalid": `line 1: fallback` + must + ` (got "ws://u:xxxxx@h.invalid")`,
	}
	for text, want := range cases {
		wantError(t, text+"\n", nil, "[config error: agent.yaml: "+want+"]")
	}
}

func TestUserLevelFile(t *testing.T) {
	home := t.TempDir()
	work := t.TempDir()
	t.Chdir(work)
	xdg := filepath.Join(home, "xdg")
	vars := map[string]string{"HOME": home, "XDG_CONFIG_HOME": xdg}
	if got := UserPath(env(vars)); got != filepath.Join(xdg, "mm", "agent.yaml") {
		t.Errorf("UserPath = %q", got)
	}
	if got := UserPath(env(map[string]string{"HOME": home, "XDG_CONFIG_HOME": "rel"})); got != filepath.Join(home, ".config", "mm", "agent.yaml") {
		t.Errorf("a relative XDG_CONFIG_HOME was used: %q", got)
	}
	if got := UserPath(env(nil)); got != "" {
		t.Errorf("UserPath without HOME = %q", got)
	}

	// No file anywhere: the defaults.
	if cfg, err := Load("", env(vars)); err != nil || cfg.Path != "" {
		t.Fatalf("%+v %v", cfg, err)
	}
	user := filepath.Join(xdg, "mm", "agent.yaml")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(filepath.Join(xdg, "mm", "reviewer.yaml"), nil, 0o644)
	os.WriteFile(user, []byte("maxTurns: 7\nmmConfigs:\n  reviewer: reviewer.yaml\n"), 0o644)
	cfg, err := Load("", env(vars))
	if err != nil {
		t.Fatal(err)
	}
	// mmConfigs paths are relative to the file that declares it.
	if cfg.Path != user || cfg.Dir != filepath.Dir(user) || cfg.MaxTurns != 7 || cfg.MMConfigs["reviewer"].Path != filepath.Join(xdg, "mm", "reviewer.yaml") || len(cfg.Warnings) != 0 {
		t.Errorf("user-level file: %+v", cfg)
	}
	os.WriteFile(user, []byte("maxTurns: x\n"), 0o644)
	if _, err := Load("", env(vars)); err == nil || err.Error() != "[config error: "+user+`: line 1: maxTurns must be an integer, got "x"]` {
		t.Errorf("err = %v", err)
	}
	os.Remove(user)
	os.Mkdir(user, 0o755)
	if _, err := Load("", env(vars)); err == nil || !strings.HasPrefix(err.Error(), "[config error: "+user+": cannot read the file: ") {
		t.Errorf("err = %v", err)
	}
	// ./agent.yaml wins over the user's file, which is read all the same
	// (the layers: a key the project leaves out keeps the user's value).
	os.Remove(user)
	os.WriteFile(user, []byte("maxTurns: 7\nmaxOutput: 1234\n"), 0o644)
	os.WriteFile("agent.yaml", []byte("maxTurns: 9\n"), 0o644)
	if cfg, err := Load("", env(vars)); err != nil || cfg.MaxTurns != 9 || cfg.MaxOutput != 1234 || cfg.Path != "agent.yaml" {
		t.Errorf("%+v %v", cfg, err)
	}
}
