package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"mm/internal/skills"
)

// skillTool loads the skills of a new directory made of files and returns
// the read_skill tool over them.
func skillTool(t *testing.T, files map[string]string, maxOutput int) (*Tool, string) {
	t.Helper()
	dir := fileDir(t, files).Dir
	list, err := skills.Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	tool := NewReadSkill(SkillOptions{Dir: dir, MaxOutput: maxOutput, Skills: list})
	if tool == nil {
		t.Fatal("NewReadSkill returned nil with skills")
	}
	return tool, dir
}

func runSkill(t *testing.T, tool *Tool, name any) string {
	t.Helper()
	return runFileTool(t, tool, map[string]any{"name": name})
}

func TestReadSkillDeclaration(t *testing.T) {
	tool, _ := skillTool(t, map[string]string{
		"zeta.md":            "---\ndescription: Use when last.\n---\nZ body\n",
		"alpha/SKILL.md":     "---\nname: alpha\ndescription: Use when first.\n---\nA body\n",
		"mid.md":             "# Mid\n\nNo front matter here.\n",
		"unrelated/run.sh":   "echo\n",
		"Capital.md":         "Upper case sorts first in byte order.\n",
		"multi/SKILL.md":     "---\ndescription: >\n  folded\n  text\n---\n",
		"not-a-skill.txt":    "x\n",
		"alpha/scripts/x.sh": "echo\n",
	}, 0)
	want := strings.TrimSpace(readSkillDescription) + "\n" +
		" Capital — Upper case sorts first in byte order.\n" +
		" alpha — Use when first.\n" +
		" mid — No front matter here.\n" +
		" multi — folded text\n" +
		" zeta — Use when last."
	if tool.Description != want {
		t.Errorf("description:\n got %q\nwant %q", tool.Description, want)
	}
	if tool.Name != "read_skill" || tool.Kind != KindRead {
		t.Errorf("name %q kind %q", tool.Name, tool.Kind)
	}
	if tool.NeedsPermission(json.RawMessage(`{"name":"alpha"}`)) {
		t.Error("read_skill must never ask for permission")
	}
	wantSchema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name": map[string]any{"type": "string", "description": "Skill name, exactly as listed."},
		},
		"required": []any{"name"},
	}
	if !reflect.DeepEqual(tool.Schema, wantSchema) {
		t.Errorf("schema = %v", tool.Schema)
	}
	if got := tool.SummaryOf(json.RawMessage(`{"name":" alpha "}`)); got != "alpha" {
		t.Errorf("summary = %q, want the name", got)
	}
	if got := tool.SummaryOf(json.RawMessage(`{}`)); got != `{}` {
		t.Errorf("summary without a name = %q, want the raw arguments", got)
	}
}

func TestReadSkillFixedSentence(t *testing.T) {
	// The sentence is one line: the catalogue lines are told apart by their
	// leading space, and a wrapped sentence would blur that.
	s := strings.TrimSpace(readSkillDescription)
	if s == "" || strings.Contains(s, "\n") || strings.HasPrefix(s, " ") {
		t.Errorf("fixed sentence %q must be one non-empty line", s)
	}
}

func TestReadSkillNoSkills(t *testing.T) {
	if tool := NewReadSkill(SkillOptions{Dir: t.TempDir()}); tool != nil {
		t.Error("read_skill declared without a skill")
	}
}

func TestReadSkillSortsAndFlattensWhatItIsGiven(t *testing.T) {
	// A caller may build the list by hand: the tool sorts it and keeps each
	// skill on one line.
	tool := NewReadSkill(SkillOptions{Dir: t.TempDir(), Skills: []skills.Skill{
		{Name: "b", Description: "two\nlines"},
		{Name: "a", Description: "  spaced   out "},
	}})
	lines := strings.Split(tool.Description, "\n")[1:]
	if want := []string{" a — spaced out", " b — two lines"}; !reflect.DeepEqual(lines, want) {
		t.Errorf("catalogue = %q, want %q", lines, want)
	}
}

func TestReadSkillOutput(t *testing.T) {
	flat := "---\ndescription: flat\n---\n# Flat\n\nSteps.\n"
	tool, _ := skillTool(t, map[string]string{
		"flat.md":         flat,
		"both.md":         "---\ndescription: flat wins\n---\nFLAT\n",
		"both/SKILL.md":   "---\ndescription: dir loses\n---\nDIR\n",
		"nested/SKILL.md": "nested body\n",
		"bom.md":          "\uFEFFbom body\n",
	}, 0)
	for _, tc := range []struct{ name, want string }{
		{"flat", flat},
		{"both", "---\ndescription: flat wins\n---\nFLAT\n"},
		{"nested", "nested body\n"},
		{"bom", "bom body\n"},
	} {
		if got := runSkill(t, tool, tc.name); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestReadSkillUnknownAndPaths(t *testing.T) {
	tool, dir := skillTool(t, map[string]string{
		"a.md": "A\n", "b.md": "B\n", "c/SKILL.md": "C\n",
	}, 0)
	// Files outside the skills dir that a traversal would reach.
	parent := filepath.Dir(dir)
	for name, content := range map[string]string{"passwd.md": "SECRET\n", "x/SKILL.md": "SECRET\n"} {
		p := filepath.Join(parent, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name any
		want string
	}{
		{"x", `No skill named "x". Available skills: a, b, c`},
		{"../../etc/passwd", `No skill named "../../etc/passwd". Available skills: a, b, c`},
		{"../passwd", `No skill named "../passwd". Available skills: a, b, c`},
		{"../x", `No skill named "../x". Available skills: a, b, c`},
		{filepath.Join(parent, "passwd.md"), `No skill named "` + filepath.Join(parent, "passwd.md") + `". Available skills: a, b, c`},
		{"/etc/passwd", `No skill named "/etc/passwd". Available skills: a, b, c`},
		{"..", `No skill named "..". Available skills: a, b, c`},
		{".", `No skill named ".". Available skills: a, b, c`},
		{"/", `No skill named "/". Available skills: a, b, c`},
		{"c/SKILL", `No skill named "c/SKILL". Available skills: a, b, c`},
		// Only the base name counts: these name skills that exist.
		{"a/b", "B\n"},
		{"../../a", "A\n"},
		{"/etc/b.md", "B\n"},
		{`..\..\a`, "A\n"},
		{"c/SKILL.md", "C\n"},
		{"skills/c/SKILL.md", "C\n"},
		{"", "[error: read_skill needs a name]"},
		{"  ", "[error: read_skill needs a name]"},
	} {
		if got := runSkill(t, tool, tc.name); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := runSkill(t, tool, 3); !strings.HasPrefix(got, "[error: read_skill: bad arguments: ") {
		t.Errorf("a number: got %q", got)
	}
}

func TestReadSkillForgivingNames(t *testing.T) {
	tool, _ := skillTool(t, map[string]string{
		"go-test.md":     "GO TEST\n",
		"Deploy.md":      "DEPLOY\n",
		"review_diff.md": "REVIEW\n",
		"dup.md":         "lower\n",
		"DUP.md":         "upper\n",
		"x-y.md":         "dash\n",
		"x_y.md":         "underscore\n",
	}, 0)
	for _, tc := range []struct{ name, want string }{
		{"go-test", "GO TEST\n"},
		{"go-test.md", "GO TEST\n"},
		{"go-test.MD", "GO TEST\n"},
		{"Go-Test", "GO TEST\n"},
		{`"go-test"`, "GO TEST\n"},
		{"'go-test'", "GO TEST\n"},
		{"`go-test`", "GO TEST\n"},
		{"  go-test \n", "GO TEST\n"},
		{` "go-test.md" `, "GO TEST\n"},
		{"go_test", "GO TEST\n"},
		{"go test", "GO TEST\n"},
		{"deploy", "DEPLOY\n"},
		{"review-diff", "REVIEW\n"},
		// Exact names win over looser matches.
		{"dup", "lower\n"},
		{"DUP", "upper\n"},
		{"x_y", "underscore\n"},
		// Ambiguous: two skills match ignoring case, or ignoring - and _.
		{"Dup", `No skill named "Dup". Available skills: DUP, Deploy, dup, go-test, review_diff, x-y, x_y`},
		{"x y", `No skill named "x y". Available skills: DUP, Deploy, dup, go-test, review_diff, x-y, x_y`},
		{`"nope"`, `No skill named "nope". Available skills: DUP, Deploy, dup, go-test, review_diff, x-y, x_y`},
	} {
		if got := runSkill(t, tool, tc.name); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestReadSkillTruncates(t *testing.T) {
	body := strings.Repeat("line of a long skill\n", 200)
	tool, _ := skillTool(t, map[string]string{"long.md": body}, 500)
	got := runSkill(t, tool, "long")
	if got != Truncate(body, 500) || got == body {
		t.Errorf("not truncated to maxOutput: %d characters", len(got))
	}
	if !strings.Contains(got, "characters cut ...]") {
		t.Errorf("no cut marker in %q", got)
	}
}

func TestReadSkillReadsTheFileNow(t *testing.T) {
	tool, dir := skillTool(t, map[string]string{"a/SKILL.md": "old\n", "b.md": "B\n"}, 0)
	// Edited during the session: the model reads the new text.
	if err := os.WriteFile(filepath.Join(dir, "a", "SKILL.md"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := runSkill(t, tool, "a"); got != "new\n" {
		t.Errorf("edited: got %q", got)
	}
	// A flat file added over the directory form wins from then on.
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("flat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := runSkill(t, tool, "a"); got != "flat\n" {
		t.Errorf("flat added: got %q", got)
	}
	// A skill added since the start is read by its exact name.
	if err := os.WriteFile(filepath.Join(dir, "late.md"), []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := runSkill(t, tool, "late"); got != "late\n" {
		t.Errorf("added skill: got %q", got)
	}
	// A skill removed since the start.
	if err := os.Remove(filepath.Join(dir, "b.md")); err != nil {
		t.Fatal(err)
	}
	if got, want := runSkill(t, tool, "b"), "[error: skill b is no longer in "+dir+"]"; got != want {
		t.Errorf("removed: got %q, want %q", got, want)
	}
}

func TestReadSkillFollowsLinksInTheDir(t *testing.T) {
	outside := fileDir(t, map[string]string{"kept.md": "---\ndescription: elsewhere\n---\nKEPT\n"}).Dir
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "kept.md"), filepath.Join(dir, "kept.md")); err != nil {
		t.Fatal(err)
	}
	list, err := skills.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tool := NewReadSkill(SkillOptions{Dir: dir, Skills: list})
	if got := runSkill(t, tool, "kept"); got != "---\ndescription: elsewhere\n---\nKEPT\n" {
		t.Errorf("got %q", got)
	}
}

// shippedSkillsDir is the repository's skills/ directory.
const shippedSkillsDir = "../../skills"

func TestShippedSkills(t *testing.T) {
	list, err := skills.Load(shippedSkillsDir)
	if err != nil {
		t.Fatalf("a shipped skill does not load: %v", err)
	}
	if len(list) < 4 {
		t.Fatalf("%d shipped skills, want at least 4", len(list))
	}
	entries, err := os.ReadDir(shippedSkillsDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(list) {
		t.Errorf("%d entries in skills/ but %d skills: every file there must be a skill", len(entries), len(list))
	}
	tool := NewReadSkill(SkillOptions{Dir: shippedSkillsDir, MaxOutput: 16000, Skills: list})
	lines := strings.Split(tool.Description, "\n")
	if len(lines) != len(list)+1 {
		t.Fatalf("description has %d lines for %d skills", len(lines), len(list))
	}
	for i, s := range list {
		data, err := os.ReadFile(s.Path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) >= 2048 {
			t.Errorf("%s: %d bytes; keep a shipped skill well under 2 KB", s.Name, len(data))
		}
		// The front matter's name matches the file, as Anthropic's format
		// wants, and the description says when to use the skill.
		var fm struct{ Name, Description string }
		parts := strings.SplitN(string(data), "---\n", 3)
		if len(parts) != 3 || parts[0] != "" {
			t.Fatalf("%s: no front matter", s.Name)
		}
		if err := yaml.Unmarshal([]byte(parts[1]), &fm); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if fm.Name != s.Name {
			t.Errorf("%s: front matter name %q", s.Name, fm.Name)
		}
		if fm.Description != s.Description || !strings.HasPrefix(s.Description, "Use when ") || len(s.Description) > 100 {
			t.Errorf("%s: description %q: want one line starting `Use when`, at most 100 bytes", s.Name, s.Description)
		}
		if want := " " + s.Name + " — " + s.Description; lines[i+1] != want {
			t.Errorf("catalogue line %q, want %q", lines[i+1], want)
		}
		if got := runSkill(t, tool, s.Name); got != string(data) {
			t.Errorf("%s: read_skill does not return the file", s.Name)
		}
		if !strings.Contains(parts[2], "`") {
			t.Errorf("%s: no command or code in the body: a skill must be concrete", s.Name)
		}
	}
	// What every request carries: the tool's description and schema.
	size := len(tool.Description)
	t.Logf("read_skill description with the %d shipped skills: %d bytes", len(list), size)
	if size > 800 {
		t.Errorf("read_skill description is %d bytes with the shipped skills: keep it under 800", size)
	}
}
