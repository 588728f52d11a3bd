package skills

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// writeTree creates files (path → content) under a new temporary directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadForms(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"flat.md":             "---\nname: flat\ndescription: Use when flat.\n---\n# Flat\nbody\n",
		"nested/SKILL.md":     "---\nname: nested\ndescription: Use when nested.\n---\nbody\n",
		"both.md":             "---\ndescription: the flat one\n---\n",
		"both/SKILL.md":       "---\ndescription: the directory one\n---\n",
		"helper/notes.txt":    "a directory without SKILL.md is not a skill\n",
		"notes.txt":           "not markdown\n",
		".hidden.md":          "---\ndescription: hidden\n---\n",
		".git/SKILL.md":       "---\ndescription: hidden dir\n---\n",
		"nested/other.md":     "only files directly in dir count\n",
		"deep/er/SKILL.md":    "---\ndescription: too deep\n---\n",
		"Upper.md":            "Capital names sort before lower case ones.\n",
		"nested/scripts/x.sh": "echo\n",
	})
	got, err := Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := []Skill{
		{Name: "Upper", Description: "Capital names sort before lower case ones.", Path: filepath.Join(dir, "Upper.md")},
		{Name: "both", Description: "the flat one", Path: filepath.Join(dir, "both.md")},
		{Name: "flat", Description: "Use when flat.", Path: filepath.Join(dir, "flat.md")},
		{Name: "nested", Description: "Use when nested.", Path: filepath.Join(dir, "nested", "SKILL.md")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load:\n got %+v\nwant %+v", got, want)
	}
}

func TestLoadFlatWinsWhateverTheOrder(t *testing.T) {
	// "a.md" sorts before "a", "a-b" sorts before "a-b.md" ('-' < '.'):
	// both orders of meeting the two forms must give the flat file.
	dir := writeTree(t, map[string]string{
		"a.md": "flat a\n", "a/SKILL.md": "dir a\n",
		"a-b.md": "flat a-b\n", "a-b/SKILL.md": "dir a-b\n",
	})
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Description != "flat a" || got[1].Description != "flat a-b" {
		t.Errorf("got %+v, want the two flat files", got)
	}
}

func TestLoadSymlinks(t *testing.T) {
	outside := writeTree(t, map[string]string{
		"shared.md":      "A skill kept elsewhere.\n",
		"pack/SKILL.md":  "A directory skill kept elsewhere.\n",
		"gone-target.md": "x\n",
	})
	dir := t.TempDir()
	for link, target := range map[string]string{
		"shared.md": filepath.Join(outside, "shared.md"),
		"pack":      filepath.Join(outside, "pack"),
		"broken.md": filepath.Join(outside, "missing.md"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Load(dir)
	names := []string{}
	for _, s := range got {
		names = append(names, s.Name)
	}
	if !reflect.DeepEqual(names, []string{"pack", "shared"}) {
		t.Errorf("names = %v, want [pack shared]: links in the user's own dir are followed", names)
	}
	w := Warnings(err)
	if len(w) != 1 || !strings.Contains(w[0], "broken.md skipped: broken symbolic link") {
		t.Errorf("warnings = %q, want one about broken.md", w)
	}
}

func TestLoadMissingDir(t *testing.T) {
	for _, dir := range []string{filepath.Join(t.TempDir(), "nope"), ""} {
		got, err := Load(dir)
		if err != nil || len(got) != 0 {
			t.Errorf("Load(%q) = %v, %v; want nothing and no error", dir, got, err)
		}
	}
}

func TestLoadDirIsAFile(t *testing.T) {
	dir := writeTree(t, map[string]string{"skills": "a file\n"})
	got, err := Load(filepath.Join(dir, "skills"))
	if len(got) != 0 || err == nil {
		t.Fatalf("Load(file) = %v, %v; want nothing and an error", got, err)
	}
	w := Warnings(err)
	if len(w) != 1 || !strings.HasPrefix(w[0], "[warning: skills directory ") || !strings.HasSuffix(w[0], "cannot be read: not a directory]") {
		t.Errorf("warnings = %q", w)
	}
}

func TestLoadSkipsBadFilesAndKeepsTheRest(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"good.md":     "---\ndescription: fine\n---\n",
		"badyaml.md":  "---\nname: x\ndescription: [unclosed\n---\nbody\n",
		"notmap.md":   "---\n- a list\n---\nbody\n",
		"desclist.md": "---\ndescription:\n  - a\n  - b\n---\nbody\n",
		"open.md":     "---\ndescription: never closed\n\nbody\n",
		"empty.md":    "",
		"binary.md":   "\x00\x01\x02",
		"titled.md":   "# Only a title\n\n```\ncode\n```\n",
	})
	got, err := Load(dir)
	names := []string{}
	for _, s := range got {
		names = append(names, s.Name+"="+s.Description)
	}
	if want := []string{"good=fine", "titled=Only a title"}; !reflect.DeepEqual(names, want) {
		t.Errorf("skills = %q, want %q", names, want)
	}
	w := strings.Join(Warnings(err), "\n")
	for _, want := range []string{
		"[warning: skill " + filepath.Join(dir, "badyaml.md") + " skipped: front matter: yaml: line 2: did not find expected ',' or ']']",
		"notmap.md skipped: front matter: line 2: expected `key: value` lines]",
		"desclist.md skipped: front matter: line 3: description must be one line of text]",
		"open.md skipped: front matter is not closed (no line `---` after it)]",
		"empty.md skipped: no description: add a front matter description or a line of text]",
		"binary.md skipped: binary file (it contains NUL bytes)]",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	if n := len(Warnings(err)); n != 6 {
		t.Errorf("%d warnings, want 6:\n%s", n, w)
	}
}

func TestLoadUnusableFiles(t *testing.T) {
	// Files that exist as skills but cannot be used are skipped with a
	// warning; these cases hold even for root, whom permissions do not stop.
	dir := writeTree(t, map[string]string{"ok.md": "fine\n", "isdir/SKILL.md/x": "x\n"})
	if err := os.Symlink("loop.md", filepath.Join(dir, "loop.md")); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if len(got) != 1 || got[0].Name != "ok" {
		t.Errorf("got %+v, want only ok", got)
	}
	w := strings.Join(Warnings(err), "\n")
	for _, want := range []string{
		"isdir/SKILL.md skipped: not a regular file]",
		"loop.md skipped: too many levels of symbolic links]",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
}

func TestLoadPermissionDenied(t *testing.T) {
	dir := writeTree(t, map[string]string{"ok.md": "fine\n", "secret.md": "x\n"})
	if err := os.Chmod(filepath.Join(dir, "secret.md"), 0); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if os.Geteuid() == 0 {
		// Root reads a mode-0 file: both load, nothing is lost.
		if len(got) != 2 || err != nil {
			t.Errorf("as root: got %+v, %v; want both skills", got, err)
		}
		return
	}
	if len(got) != 1 || got[0].Name != "ok" {
		t.Errorf("got %+v, want only ok", got)
	}
	if w := Warnings(err); len(w) != 1 || !strings.Contains(w[0], "secret.md skipped: permission denied]") {
		t.Errorf("warnings = %q", w)
	}
}

func TestDescription(t *testing.T) {
	long := strings.Repeat("word ", 60)
	for _, tc := range []struct {
		name, file, want string
	}{
		{"front matter", "---\nname: x\ndescription: Use when testing.\n---\n# T\nbody\n", "Use when testing."},
		{"front matter with CRLF and BOM", "\uFEFF---\r\ndescription: Use when CRLF.\r\n---\r\nbody\r\n", "Use when CRLF."},
		{"closing with ...", "---\ndescription: dots\n...\nbody\n", "dots"},
		{"folded description on one line", "---\ndescription: >\n  two\n  lines\n---\n", "two lines"},
		{"literal description collapsed", "---\ndescription: |\n  one\n\n  two\n---\n", "one two"},
		{"quoted description", "---\ndescription: \"Use: when quoted\"\n---\n", "Use: when quoted"},
		{"front matter without description uses the body", "---\nname: x\n---\n\n# Title\n\nFirst line of text.\nSecond.\n", "First line of text."},
		{"empty front matter", "---\n---\nText.\n", "Text."},
		{"null description uses the body", "---\ndescription:\n---\nText.\n", "Text."},
		{"a number is text", "---\ndescription: 42\n---\n", "42"},
		{"no front matter", "# Title\n\n  Some text here.  \n", "Some text here."},
		{"list marker dropped", "# T\n- Run the tests first.\n", "Run the tests first."},
		{"rules and comments skipped", "<!-- note -->\n***\nReal text.\n", "Real text."},
		{"code is not a description", "# T\n```sh\ngo test\n```\nAfter the code.\n", "After the code."},
		{"a thematic break later is fine", "Text first.\n\n---\n", "Text first."},
		{"heading when there is nothing else", "## Just a heading ##\n", "Just a heading"},
		{"long body line cut to 100", "# T\n" + long + "\n", strings.TrimSpace(strings.Repeat("word ", 19)) + "…"},
		{"long front matter cut to 300", "---\ndescription: " + long + long + "\n---\n", strings.TrimSpace(strings.Repeat("word ", 59)) + "…"},
	} {
		got, err := describeHead([]byte(tc.file), false)
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestCutText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"one two three four", 10, "one two…"},
		{"averyveryverylongword", 10, "averyvery…"},
		{"éééééééééééé", 5, "éééé…"},
		{"one two, three", 10, "one two…"},
	} {
		got := cutText(tc.in, tc.max)
		if got != tc.want {
			t.Errorf("cutText(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > tc.max {
			t.Errorf("cutText(%q, %d) has %d characters", tc.in, tc.max, n)
		}
	}
}

func TestHeadOnly(t *testing.T) {
	// The description is found without reading past the head, and a file
	// longer than the head is not mistaken for a malformed one.
	big := "---\ndescription: big one\n---\n" + strings.Repeat("x", 3*HeadSize) + "\n"
	// A front matter that closes only past the head is reported as such.
	unclosed := "---\ndescription: d\n" + strings.Repeat("# filler\n", HeadSize/9+10) + "---\n"
	dir := writeTree(t, map[string]string{"big.md": big, "unclosed.md": unclosed})
	got, err := Load(dir)
	if len(got) != 1 || got[0].Description != "big one" {
		t.Errorf("got %+v", got)
	}
	if w := Warnings(err); len(w) != 1 || !strings.Contains(w[0], "unclosed.md skipped: front matter is not closed within the first 8 KiB") {
		t.Errorf("warnings = %q", w)
	}
	// A cut exactly on a closing line that might go on is not trusted.
	if _, err := describeHead([]byte("---\ndescription: d\n---"), true); err == nil {
		t.Error("a head ending on `---` was taken as a closed front matter")
	}
	if d, err := describeHead([]byte("---\ndescription: d\n---"), false); err != nil || d != "d" {
		t.Errorf("whole file ending on `---`: %q, %v", d, err)
	}
}

func TestResolve(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, base, want string
	}{
		{"skills", "/home/u/project", "/home/u/project/skills"},
		{"./my/skills/", "/home/u/project", "/home/u/project/my/skills"},
		{"../shared", "/etc/mm", "/etc/shared"},
		{"/opt/skills/", "/home/u/project", "/opt/skills"},
		{"/opt/../srv/skills", "/home/u", "/srv/skills"},
		{"skills", "", filepath.Join(wd, "skills")},
		{"skills", "rel", filepath.Join(wd, "rel", "skills")},
		{"", "/home/u/project", ""},
	} {
		if got := Resolve(tc.dir, tc.base); got != tc.want {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tc.dir, tc.base, got, tc.want)
		}
	}
}

func TestWarning(t *testing.T) {
	if got, want := Warning("/abs/skills", 0), "[warning: no skills found in /abs/skills — read_skill is not declared]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	wd, _ := os.Getwd()
	if got, want := Warning("rel", 0), "[warning: no skills found in "+filepath.Join(wd, "rel")+" — read_skill is not declared]"; got != want {
		t.Errorf("relative: got %q, want %q", got, want)
	}
	if got := Warning("/abs/skills", 2); got != "" {
		t.Errorf("with skills: %q", got)
	}
	if got := Warning("", 0); got != "" {
		t.Errorf("skills off: %q", got)
	}
}

func TestLocate(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.md": "a\n", "b/SKILL.md": "b\n", "c.md/SKILL.md": "odd\n"})
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want string
	}{
		{"a", filepath.Join(dir, "a.md")},
		{"b", filepath.Join(dir, "b", "SKILL.md")},
		{"nope", ""},
		{"../outside", ""},
		{"b/SKILL", ""},
		{"/etc/passwd", ""},
		{"..", ""},
		{".", ""},
		{"", ""},
		{".a", ""},
		{"c", ""}, // c.md is a directory, and there is no c/SKILL.md
	} {
		got, ok := Locate(dir, tc.name)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Locate(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}
