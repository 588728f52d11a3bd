package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"mm/internal/skills"
)

//go:embed read_skill.md
var readSkillDescription string

const readSkillSchema = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"Skill name, exactly as listed."}},` +
	`"required":["name"]}`

// SkillOptions configures read_skill.
type SkillOptions struct {
	Dir       string         // the skills directory, absolute (skills.Resolve)
	MaxOutput int            // maxOutput: a skill is truncated to it with Truncate (<= 0: no limit)
	Skills    []skills.Skill // what skills.Load found in Dir: the catalogue
}

// NewReadSkill returns the read_skill tool, or nil when there is no skill:
// the tool is declared only when skillsDir holds at least one. Its
// description is a fixed sentence and the catalogue, one line
// ` <name> — <description>` per skill, sorted by name. It is built once,
// so it stays byte-identical for the server's prompt cache. Reading never
// needs permission.
func NewReadSkill(o SkillOptions) *Tool {
	if len(o.Skills) == 0 {
		return nil
	}
	list := append([]skills.Skill(nil), o.Skills...)
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	o.Skills = list

	var desc strings.Builder
	desc.WriteString(strings.TrimSpace(readSkillDescription))
	for _, s := range list {
		// One line each whatever the caller built: a line break in a
		// description would read as another skill.
		desc.WriteString("\n " + skillOneLine(s.Name) + " — " + skillOneLine(s.Description))
	}
	return &Tool{
		Name:        "read_skill",
		Description: desc.String(),
		Schema:      MustSchema(readSkillSchema),
		SchemaText:  readSkillSchema,
		Kind:        KindRead,
		Summary: func(args json.RawMessage) string {
			var a struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(args, &a); err != nil || strings.TrimSpace(a.Name) == "" {
				return string(args)
			}
			return strings.TrimSpace(a.Name)
		},
		Run: func(_ context.Context, args json.RawMessage) string {
			return ReadSkill(o, args)
		},
	}
}

// ReadSkill runs one read_skill call: the whole markdown of the skill,
// truncated to o.MaxOutput. o.Skills must be sorted by name.
//
// The name is only ever a name: its base name is taken, so `../x` or an
// absolute path cannot reach a file outside the skills directory. Small
// models are forgiven the usual slips when the skill they mean is clear:
// surrounding quotes or spaces, a `.md` suffix, a `<name>/SKILL.md` path,
// another case, `_` or a space for `-`.
func ReadSkill(o SkillOptions, args json.RawMessage) string {
	var a struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return fileArgError("read_skill", err)
	}
	asked := strings.TrimSpace(strings.Trim(strings.TrimSpace(a.Name), "\"'`"))
	if asked == "" {
		return "[error: read_skill needs a name]"
	}
	name, ok := findSkill(o.Skills, baseSkillName(asked))
	if !ok {
		// A skill added since the start is not in the catalogue, but the
		// user may name it: read it when that exact name is on disk.
		name = baseSkillName(asked)
		if _, found := skills.Locate(o.Dir, name); !found {
			return unknownSkill(asked, o.Skills)
		}
	}
	// Located again at call time, so an edit made during the session (or a
	// flat file added over a directory skill) is what the model reads.
	file, found := skills.Locate(o.Dir, name)
	if !found {
		return fmt.Sprintf("[error: skill %s is no longer in %s]", name, o.Dir)
	}
	info, err := os.Stat(file)
	if err != nil {
		return fmt.Sprintf("[error: skill %s cannot be read: %v]", name, pathErr(err))
	}
	if info.Size() > MaxFileSize {
		return fmt.Sprintf("[error: skill %s is too large (%d bytes)]", name, info.Size())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Sprintf("[error: skill %s cannot be read: %v]", name, pathErr(err))
	}
	text := strings.ToValidUTF8(strings.TrimPrefix(string(data), "\uFEFF"), "\uFFFD")
	if strings.TrimSpace(text) == "" {
		return fmt.Sprintf("skill %s is empty", name)
	}
	return Truncate(text, o.MaxOutput)
}

// baseSkillName reduces what the model wrote to a bare skill name: the last
// path element (the directory for `<name>/SKILL.md`), without `.md`. Both
// separators count: a model may write a Windows path.
func baseSkillName(s string) string {
	s = strings.ReplaceAll(s, "\\", "/")
	base := path.Base(s)
	if strings.EqualFold(base, skills.DirFile) {
		base = path.Base(path.Dir(s))
	}
	if len(base) > len(skills.Ext) && strings.EqualFold(base[len(base)-len(skills.Ext):], skills.Ext) {
		base = base[:len(base)-len(skills.Ext)]
	}
	return base
}

// findSkill finds the skill name means: the exact name, else the only one
// equal to it ignoring case, else the only one equal to it ignoring case and
// the difference between `-`, `_` and spaces. An ambiguous name matches
// nothing: reading the wrong skill is worse than being told the list. (A
// name ambiguous ignoring case stays ambiguous in the looser pass, which
// only ever matches more.)
func findSkill(list []skills.Skill, name string) (string, bool) {
	for _, s := range list {
		if s.Name == name {
			return s.Name, true
		}
	}
	for _, same := range []func(a, b string) bool{
		strings.EqualFold,
		func(a, b string) bool { return looseName(a) == looseName(b) },
	} {
		found, n := "", 0
		for _, s := range list {
			if same(s.Name, name) {
				found, n = s.Name, n+1
			}
		}
		if n == 1 {
			return found, true
		}
	}
	return "", false
}

func looseName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == ' ' {
			return '-'
		}
		return r
	}, strings.ToLower(s))
}

// unknownSkill is the reference's text for a name that is not a skill.
func unknownSkill(name string, list []skills.Skill) string {
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.Name
	}
	return fmt.Sprintf("No skill named %q. Available skills: %s", name, strings.Join(names, ", "))
}

// skillOneLine collapses runs of white space, line breaks included, to a space.
func skillOneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
