package toolcall

import "strings"

// Seed-OSS (ByteDance) reasons inside <seed:think>…</seed:think> (llama.cpp's
// Seed-OSS template caps: think_open_tag "<seed:think>"; vLLM's
// seed_oss_tool_parser tests). Rule "seed think is reasoning": a call written
// there ("The format is <seed:tool_call>…") is never run, like <think>.

var (
	seedThinkOpen  = lazyRegexp(`<seed:think>`)
	seedThinkClose = lazyRegexp(`</seed:think>`)
)

func seedThinkRegions(s string) []region {
	if !strings.Contains(s, "seed:think>") {
		return nil
	}
	return pairRegions(s, seedThinkOpen(), seedThinkClose())
}
