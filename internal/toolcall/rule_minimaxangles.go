package toolcall

import "strings"

// minimaxAnglesLost is rule "minimax markup with its angle brackets lost":
// exo-explore/exo#1882 quotes MiniMax-M2 replies whose every '<' and '</'
// its detokenizer dropped (invoke name="get_weather">\nparameter
// name="location">Parisparameter>\ninvoke>), and repairs them by putting the
// brackets back. The grammar is MiniMax's <invoke name=…><parameter
// name=…>…</parameter></invoke> (its tool-calling guide). It applies only to
// a reply that opens with invoke name="NAME"> for a declared tool and holds
// no '<' at all: any other text is left as it is.
func minimaxAnglesLost(s string, ts *toolset) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(t, `invoke name="`) || strings.IndexByte(s, '<') >= 0 {
		return s
	}
	rest := t[len(`invoke name="`):]
	q := strings.IndexByte(rest, '"')
	if q <= 0 || !strings.HasPrefix(rest[q:], `">`) || ts.resolve(rest[:q]) == "" {
		return s
	}
	if !strings.Contains(t, `parameter name="`) {
		return s
	}
	r := strings.NewReplacer(
		`invoke name="`, `<invoke name="`,
		`parameter name="`, `<parameter name="`,
		`parameter>`, `</parameter>`,
		`invoke>`, `</invoke>`,
	)
	return r.Replace(t)
}
