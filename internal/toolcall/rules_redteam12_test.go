package toolcall

import "testing"

// Round 12's red team: the cases of widened-adversarial-round12.jsonl; each
// negative must run nothing and get no correction, each call must run,
// each reject must be corrected (knownMisses aside).
func TestRedTeam12(t *testing.T) { checkCorpusFile(t, "testdata/widened-adversarial-round12.jsonl") }
