package toolcall

import "testing"

// Round 6's red team: the cases of widened-adversarial-round6.jsonl, each
// negative must run nothing and get no correction; each call must run.
func TestRedTeam6(t *testing.T) {
	for _, c := range loadCorpusFile(t, "testdata/widened-adversarial-round6.jsonl") {
		if o := scoreCase(t, c); !o.ok {
			t.Errorf("%s: %s", c.ID, o.why)
		}
	}
}
