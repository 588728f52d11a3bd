package llmtest

import "testing"

// A misspelled key in a script is named in the script's words, not Go's.
func TestScriptUnknownKey(t *testing.T) {
	_, err := ParseScript([]byte("- text: hi\n  bogus: 1\n"))
	if err == nil || err.Error() != "line 2: unknown key bogus" {
		t.Fatalf("err = %v", err)
	}
}
