package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
)

func history() []*ai.Message {
	model := &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
		ai.NewReasoningPart("let me look", nil),
		ai.NewTextPart(""),
		ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Ref: "call_1", Input: json.RawMessage(`{"command": "ls  -la"}`)}),
	}}
	return []*ai.Message{
		ai.NewSystemTextMessage("system"),
		ai.NewUserTextMessage("list <files> & more"),
		model,
		ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Ref: "call_1", Output: "a\nb\n"})),
		{Role: ai.RoleModel, Content: []*ai.Part{ai.NewTextPart("two files")}},
	}
}

// The history comes back as the agent kept it, the arguments' bytes
// included, through the file.
func TestRoundTrip(t *testing.T) {
	h := history()
	st := &Store{Base: t.TempDir(), Dir: ".mm/sessions"}
	s := New(time.Now(), "m", "llamacpp", "/x")
	msgs, err := FromHistory(h)
	if err != nil {
		t.Fatal(err)
	}
	s.Messages = msgs
	s.Turns = 1
	s.AddError(WhereGeneration, "[error: boom]", time.Now())
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(s); err != nil { // the second write replaces
		t.Fatal(err)
	}
	got, err := st.Load(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.History(), h[1:]) {
		a, _ := json.Marshal(got.History())
		b, _ := json.Marshal(h[1:])
		t.Fatalf("history changed:\n%s\n%s", a, b)
	}
	if got.FirstQuestion() != "list <files> & more" || len(got.Errors) != 1 || got.Errors[0].Where != "generation" {
		t.Fatalf("%+v", got)
	}
	fi, err := os.Stat(filepath.Join(st.Path(), s.ID+".json"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	ents, _ := os.ReadDir(st.Path())
	if len(ents) != 1 {
		t.Fatalf("left behind: %v", ents)
	}
}

// A file signed with the user's key (one a newer or a broken mm of the
// same user wrote) is still refused whole when it does not load.
func TestRefused(t *testing.T) {
	st := &Store{Base: t.TempDir(), Dir: "s", Key: testKey(t)}
	s := New(time.Now(), "m", "llamacpp", "/x")
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(st.Path(), s.ID+".json")
	// unsigned is the file as it would be without its signature.
	data := mustRead(t, path)
	unsigned := data[:len(data)-sigLen] + bodyEnd
	for name, c := range map[string]struct{ data, want string }{
		"newer":   {strings.Replace(unsigned, `"version": 1`, `"version": 2`, 1), "written by a newer mm (format version 2; this mm reads up to 1)"},
		"broken":  {unsigned[:40] + bodyEnd, "is not a valid session file"},
		"orphan":  {strings.Replace(unsigned, `"messages": []`, `"messages": [{"role":"tool","parts":[{"type":"toolResponse","ref":"x","output":"o"}]}]`, 1), "a tool response to no call"},
		"badpart": {strings.Replace(unsigned, `"messages": []`, `"messages": [{"role":"user","parts":[{"type":"image"}]}]`, 1), `a part of type "image"`},
	} {
		if err := os.WriteFile(path, st.Key.Sign([]byte(c.data)), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Load(s.ID); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

func TestNoSymlink(t *testing.T) {
	base := t.TempDir()
	other := t.TempDir()
	if err := os.Symlink(other, filepath.Join(base, "s")); err != nil {
		t.Fatal(err)
	}
	st := &Store{Base: base, Dir: "s"}
	err := st.Save(New(time.Now(), "m", "p", "/"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("%v", err)
	}
	if ents, _ := os.ReadDir(other); len(ents) != 0 {
		t.Fatalf("wrote through the link: %v", ents)
	}
}

func mustRead(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
