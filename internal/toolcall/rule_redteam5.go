package toolcall

import "strings"

// Narrowings made for the red-team cases of round 5
// (testdata/widened-adversarial-round5.jsonl): replies that explain, quote
// or document a format and that rounds 2–4's rules read as calls or as
// call attempts. Each is written from the format's template or markup, not
// from one reply.

// glmKeyHasValue is rule "glm pairs without their opener", narrowed to
// GLM's template (each <arg_key>K</arg_key> is followed by its
// <arg_value>): with the <tool_call> opener lost, NAME<arg_key>K</arg_key>
// is a call only when a value follows the key; a key alone after a word
// ("where bash<arg_key>command</arg_key> belongs") is markup named in
// prose. j is the '<' of <arg_key>.
func glmKeyHasValue(s string, j int) bool {
	e := strings.Index(s[j:], "</arg_key>")
	if e < 0 {
		return false
	}
	q := skipSpace(s, j+e+len("</arg_key>"))
	for strings.HasPrefix(s[q:], "</arg_key>") { // GLM-4.7's repeated closer
		q = skipSpace(s, q+len("</arg_key>"))
	}
	return strings.HasPrefix(s[q:], "<arg_value>")
}

// tagThenValue is rule "cline_xml_open", narrowed to the format (Cline's
// prompt: the tool name enclosed in its tag, then its parameters): what
// follows a partial tool's opener is space, a parameter tag or the end of
// the text. An opener glued to punctuation ("<read_file>, <write_file> and
// <bash>") is a tag named in a sentence.
func tagThenValue(rest string) bool {
	return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\r' || rest[0] == '\n' || rest[0] == '<'
}

// closerAfterLastValue is rules "qwen3_coder_opener_lost" and
// "minimax_opener_lost", narrowed to the templates (Qwen3-Coder's and
// MiniMax-M2's: the call's closer follows the last value's closer, with
// only a line break between): t is the text before the call's closer,
// which must end with valueCloser. Prose between them ("… and then
// closes the call with") is an explanation of the format.
func closerAfterLastValue(t, valueCloser string) bool {
	return strings.HasSuffix(strings.TrimRight(t, " \t\r\n"), valueCloser)
}

// quoteMarkers is rule "markdown quotes are text" extended to nested
// block quotes (CommonMark 0.31.2, "Block quotes": a block quote may
// contain a block quote, "> > text"): head is one or more '>' markers,
// each followed by a space or a tab, and nothing else. ">>" stays
// Functionary's recipient.
func quoteMarkers(head string) bool {
	t := head
	for t != "" {
		if t[0] != '>' {
			return false
		}
		if len(t) > 1 && t[1] != ' ' && t[1] != '\t' {
			return false
		}
		t = strings.TrimLeft(t[1:], " \t")
	}
	return head != ""
}

// gfmDelimRe is a GFM table's delimiter row: cells of dashes, each with
// an optional colon on either side, separated by pipes (GitHub Flavored
// Markdown spec, "Tables (extension)": the leading and trailing pipes are
// optional).
var gfmDelimRe = lazyRegexp(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$`)

// pipelessTableRow is rule "markdown tables are text" for tables written
// without leading pipes (GFM: "The pipes on either end of the table are
// optional"): the call follows a cell separator on its line, and a
// delimiter row stands above it in the same block.
func pipelessTableRow(s string, ls int, head string) bool {
	if !strings.Contains(head, "|") {
		return false
	}
	for k := ls - 1; k > 0; {
		ps := strings.LastIndexByte(s[:k], '\n') + 1
		line := s[ps:k]
		if strings.TrimSpace(line) == "" {
			return false
		}
		if gfmDelimRe().MatchString(line) {
			return true
		}
		k = ps - 1
	}
	return false
}

// sessionPromptRe is the prompt of a shell session as Pygments' session
// lexers read it (ShellSessionBaseLexer's _ps1rgx: an optional
// [user@host dir] or user@host:path, then $, # or %; and the Python
// console's ">>> "): a fence whose first line opens with one is a terminal
// session pasted back (rule "a console session is code").
var sessionPromptRe = lazyRegexp(`^(\[[^\]\n]+\]\s?|[\w.-]+@[\w.-]+(:[^\s$#%]*)?\s?)?[$#%] \S|^>>> \S`)

func sessionPrompt(first string) bool {
	return sessionPromptRe().MatchString(first)
}
