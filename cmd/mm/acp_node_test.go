package main_test

// mm inside a real ACP client: the official TypeScript SDK
// (@agentclientprotocol/sdk, installed by .ci/run into .ci/node) drives the
// built `mm -acp` through cmd/mm/testdata/acp/client.mjs, which asserts
// what it receives; every line both ways is recorded, and each is then
// checked against the protocol's JSON schema (acp_schema_helpers_test.go).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
	"mm/internal/testdeps"
)

// acpNodeDir is the directory whose node_modules holds the SDK
// (testdeps.ACPNodeDir); under CI=true a missing node or SDK fails the
// test, elsewhere it is skipped.
func acpNodeDir(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testdeps.Missing(t, "node is not on the PATH: install Node.js 20 or later, then `make test-deps`")
	}
	dir = testdeps.ACPNodeDir()
	if _, err := testdeps.ACPNodeSchema("schema.json"); err != nil {
		testdeps.Missing(t, err.Error())
	}
	return node, dir
}

// The texts of the scenario, shared by the scripted model and the client's
// expectations.
var acpNodeExpect = map[string]string{
	"agentName":      "mm-conformance",
	"agentTitle":     "mm under the official ACP client",
	"prompt1":        "Create hello.txt, then remove it.",
	"thought1":       "The user wants a file first.",
	"text1a":         "Writing hello.txt.",
	"file":           "hello.txt",
	"fileContent":    "hello from the model\n",
	"text1b":         "Now removing it.",
	"refusedCommand": "rm hello.txt",
	"refusedText":    "[command rejected by the user]",
	"text1c":         "The file stays.",
	"prompt2":        "Now wait a while.",
	"text2":          "Sleeping.",
	"sleepCommand":   "sleep 30",
	"prompt3":        "Where were we?",
	"text3":          "We wrote hello.txt and kept it.",
}

// The scenario runs twice: the client announcing fs.readTextFile and
// fs.writeTextFile (the file tools go through it, as in Zed), and not.
func TestACPNodeClient(t *testing.T) {
	node, nodeDir := acpNodeDir(t)
	t.Run("editor-fs", func(t *testing.T) { acpNodeScenario(t, node, nodeDir, true) })
	t.Run("disk", func(t *testing.T) { acpNodeScenario(t, node, nodeDir, false) })
}

func acpNodeScenario(t *testing.T, node, nodeDir string, clientFS bool) {
	x := acpNodeExpect
	launch, project, work := t.TempDir(), t.TempDir(), t.TempDir()
	cfg := writeConfig(t, launch, "yolo: false\nsessions:\n  enabled: true\nacp:\n  name: "+x["agentName"]+"\n  title: "+x["agentTitle"]+"\n")
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: x["thought1"], Text: x["text1a"], ToolCalls: []llmtest.ToolCall{{Name: "write_file", Arguments: jsonArgs(t, map[string]any{"path": x["file"], "content": x["fileContent"]})}}},
		llmtest.Turn{Text: x["text1b"], ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: jsonArgs(t, map[string]any{"command": x["refusedCommand"]})}}},
		llmtest.Turn{Text: x["text1c"]},
		llmtest.Turn{Text: x["text2"], ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: jsonArgs(t, map[string]any{"command": x["sleepCommand"]})}}},
		llmtest.Turn{Text: x["text3"]},
	)
	record := filepath.Join(work, "traffic.jsonl")
	scenario, _ := json.Marshal(map[string]any{
		"mm": mmBin, "args": []string{"-acp", "-c", cfg}, "launchDir": launch, "project": project,
		"nodeDir": nodeDir, "clientFS": clientFS, "record": record, "stderrBase": filepath.Join(work, "mm-stderr"), "expect": x,
	})
	spec := filepath.Join(work, "scenario.json")
	if err := os.WriteFile(spec, scenario, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "acp", "client.mjs"))

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, spec)
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	out, err := cmd.CombinedOutput()
	mmStderr := ""
	for _, n := range []string{"1", "2"} {
		b, _ := os.ReadFile(filepath.Join(work, "mm-stderr."+n))
		mmStderr += "--- mm -acp #" + n + " stderr:\n" + string(b)
		if bytes.Contains(b, []byte("panic:")) || bytes.Contains(b, []byte("goroutine ")) {
			t.Errorf("mm -acp #%s panicked", n)
		}
	}
	if keep := os.Getenv("MM_ACP_RECORD"); keep != "" {
		// MM_ACP_RECORD=/tmp/acp keeps the recording as /tmp/acp.<subtest>.jsonl.
		if b, err := os.ReadFile(record); err == nil {
			os.WriteFile(keep+"."+filepath.Base(t.Name())+".jsonl", b, 0o644)
		}
	}
	// The recording is checked whatever the client concluded: a message
	// the schema rejects often explains what the client did not get.
	t.Run("schema", func(t *testing.T) {
		conns := readACPRecording(t, record)
		if len(conns) == 0 {
			t.Fatal("nothing recorded")
		}
		for n := 1; n <= len(conns); n++ {
			t.Logf("connection %d: %d messages", n, len(conns[n]))
			validateACPTraffic(t, conns[n])
		}
	})
	if err != nil {
		t.Fatalf("the Node client failed (%v):\n%s\n%s", err, out, mmStderr)
	}
	t.Logf("node client:\n%s", out)
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("model server: %v", f)
	}

	// The loaded conversation went on: the model's last request carries
	// the whole history, the refusal's text and the cancelled turn included.
	reqs := srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests, want 5", len(reqs))
	}
	last := string(reqs[4].Body)
	for _, want := range []string{x["prompt1"], x["text1a"], x["refusedText"], x["prompt2"], x["sleepCommand"], x["prompt3"]} {
		w, _ := json.Marshal(want)
		if !strings.Contains(last, strings.Trim(string(w), `"`)) {
			t.Errorf("the request after session/load lacks %q:\n%s", want, last)
		}
	}
}

// readACPRecording reads the client's JSONL recording into one message
// list per connection, in wire order.
func readACPRecording(t *testing.T, path string) map[int][]acpMessage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	conns := map[int][]acpMessage{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			Conn int
			From string
			Raw  string
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("recording %s: %v", path, err)
		}
		conns[line.Conn] = append(conns[line.Conn], acpMessage{FromAgent: line.From == "agent", Raw: []byte(line.Raw)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return conns
}
