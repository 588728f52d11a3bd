package agent

import (
	"crypto/sha256"
	"fmt"
)

// The loop detector's thresholds (the reference fixes them in main.go): the
// same (tool, input, output) LoopWarnAt times in a row gets the warning
// appended; LoopStopAt times stops the turn.
const (
	LoopWarnAt = 3
	LoopStopAt = 6
)

// LoopWarning is appended to a tool's output from the third identical call
// in a row.
const LoopWarning = "[LOOP_DETECTED: You have attempted the same action multiple times with the same result. Please try a different approach or provide more information.]"

// loopDetector counts identical (tool, input, output) calls in a row. It
// keeps a hash, not the outputs: they can be large.
type loopDetector struct {
	last  [32]byte
	count int
}

// record counts one call and returns how many identical calls in a row
// this makes.
func (d *loopDetector) record(tool, input, output string) int {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s%d:%s%d:%s", len(tool), tool, len(input), input, len(output), output)
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	if d.count > 0 && sum == d.last {
		d.count++
	} else {
		d.last, d.count = sum, 1
	}
	return d.count
}

func (d *loopDetector) reset() { *d = loopDetector{} }

func loopStopMessage(tool string) string {
	return fmt.Sprintf("the model repeated the same %s call %d times in a row with the same failing result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting", tool, LoopStopAt)
}
