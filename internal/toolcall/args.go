package toolcall

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"
)

// This file turns the arguments a model wrote into an object valid against
// the declared schema: argument names mapped to the declared ones, unknown
// arguments dropped, values converted to the declared types. Whatever cannot
// be made valid without guessing becomes a rejection reason.

// propSchema is the part of a JSON schema the repairs need.
type propSchema struct {
	typ      string
	items    *objSchema // for arrays of objects
	itemType string
}

type objSchema struct {
	props    map[string]propSchema
	names    []string // sorted property names
	required []string
}

// parseSchema reads the properties, required list and types of a schema.
func parseSchema(m map[string]any) *objSchema {
	o := &objSchema{props: map[string]propSchema{}}
	if m == nil {
		return o
	}
	if props, ok := m["properties"].(map[string]any); ok {
		for name, raw := range props {
			pm, _ := raw.(map[string]any)
			o.props[name] = parseProp(pm)
			o.names = append(o.names, name)
		}
	}
	sort.Strings(o.names)
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				o.required = append(o.required, s)
			}
		}
	}
	return o
}

func parseProp(pm map[string]any) propSchema {
	p := propSchema{typ: schemaType(pm)}
	if p.typ == "array" {
		if it, ok := pm["items"].(map[string]any); ok {
			p.itemType = schemaType(it)
			if p.itemType == "object" {
				p.items = parseSchema(it)
			}
		}
	}
	return p
}

// schemaType returns the declared type; a list such as ["integer","null"]
// gives its first non-null member.
func schemaType(pm map[string]any) string {
	switch t := pm["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	return ""
}

func (o *objSchema) has(name string) bool { _, ok := o.props[name]; return ok }

// article gives "a string", "an integer", … for corrections.
func article(typ string) string {
	switch typ {
	case "":
		return "a value"
	case "integer", "array", "object":
		return "an " + typ
	}
	return "a " + typ
}

// normKey folds a key for comparison: lower case without _ and -.
func normKey(k string) string {
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '_' || c == '-' || c == ' ' {
			continue
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// argAliases are the other names models give mm's arguments (folded with
// normKey): Claude Code's file_path, Codex's cmd, and their spellings.
var argAliases = map[string][]string{
	"path":    {"filepath", "filename", "file", "pathname"},
	"command": {"cmd", "comand", "commandline", "shellcommand"},
}

// verbatimArgs are free-text arguments whose spaces and line breaks are
// content; every other string taken from XML-style markup is trimmed.
var verbatimArgs = map[string]bool{"content": true, "old": true, "new": true, "prompt": true, "text": true, "body": true}

// normalizer carries the repairs made on one call.
type normalizer struct {
	tool    string
	repairs []string
	reject  string
}

func (n *normalizer) note(s string) {
	for _, x := range n.repairs {
		if x == s {
			return
		}
	}
	n.repairs = append(n.repairs, s)
}

func (n *normalizer) fail(s string) {
	if n.reject == "" {
		n.reject = s
	}
}

// matchKey finds the declared property an unknown key stands for.
func matchKey(o *objSchema, k string) string {
	nk := normKey(k)
	for _, name := range o.names {
		if normKey(name) == nk {
			return name
		}
	}
	for target, al := range argAliases {
		if !o.has(target) {
			continue
		}
		for _, a := range al {
			if a == nk {
				return target
			}
		}
	}
	// A misspelling one edit away from exactly one declared name (but not
	// the singular of a list: one question is not questions).
	if len(nk) >= 4 {
		found := ""
		for _, name := range o.names {
			if nk+"s" == normKey(name) {
				continue
			}
			if editDistance1(nk, normKey(name)) {
				if found != "" {
					return ""
				}
				found = name
			}
		}
		if found != "" {
			return found
		}
	}
	// old_string, newText: the name with a type word glued to it.
	for _, suf := range []string{"string", "str", "text"} {
		if base := strings.TrimSuffix(nk, suf); base != nk && base != "" {
			for _, name := range o.names {
				if normKey(name) == base {
					return name
				}
			}
		}
	}
	return ""
}

// editDistance1 reports whether a and b differ by one insertion, deletion,
// substitution or transposition of adjacent letters.
func editDistance1(a, b string) bool {
	if a == b {
		return false
	}
	la, lb := len(a), len(b)
	if la-lb > 1 || lb-la > 1 {
		return false
	}
	i := 0
	for i < la && i < lb && a[i] == b[i] {
		i++
	}
	switch {
	case la == lb:
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case la > lb:
		return a[i+1:] == b[i:]
	default:
		return a[i:] == b[i+1:]
	}
}

// normalizeArgs makes args valid against the tool's schema. xml says the
// values are raw text from XML-style markup (trimmed unless free text).
func normalizeArgs(toolName string, o *objSchema, args map[string]any, xml bool) (map[string]any, []string, string) {
	n := &normalizer{tool: toolName}
	out := n.object(o, args, xml, true)
	return out, n.repairs, n.reject
}

func (n *normalizer) object(o *objSchema, args map[string]any, xml, top bool) map[string]any {
	if inner, ok := propertiesWrapped(o, args); ok && top { // rule_round21.go
		args = inner
		n.note("arguments unwrapped from properties")
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	out := map[string]any{}
	var unknown []string
	// Declared names first, so that an alias never overwrites them.
	for _, k := range keys {
		if o.has(k) {
			if args[k] == nil {
				n.note("dropped null " + k)
				continue
			}
			out[k] = args[k]
		} else {
			unknown = append(unknown, k)
		}
	}
	var leftovers []string
	for _, k := range unknown {
		if args[k] == nil {
			continue
		}
		if t := matchKey(o, k); t != "" {
			if _, dup := out[t]; dup {
				n.note("dropped argument " + echoName(k) + " (duplicate of " + t + ")")
				continue
			}
			out[t] = args[k]
			n.note("argument " + echoName(k) + " → " + t)
			continue
		}
		leftovers = append(leftovers, k)
	}
	if top {
		leftovers = n.offsetLimit(o, args, out, leftovers)
		leftovers = n.flattenedItems(o, args, out, leftovers)
	}
	for _, k := range leftovers {
		n.note("dropped argument " + echoName(k))
	}

	for _, name := range o.names {
		v, ok := out[name]
		if !ok {
			continue
		}
		if str, isStr := v.(string); isStr && o.props[name].typ != "string" && o.props[name].typ != "" {
			switch strings.TrimSpace(str) {
			case "None", "null", "nil", "undefined":
				// A Python or JSON null written as text: no value.
				delete(out, name)
				n.note("dropped null " + name)
				continue
			}
		}
		cv, ok := n.coerce(o.props[name], name, v, xml)
		if !ok {
			if top {
				n.alsoMissing(o, out) // rule_round21.go
			}
			return out
		}
		out[name] = cv
	}
	for _, r := range o.required {
		if v, ok := out[r]; !ok || top && emptyNamingArg(r, v) { // emptyNamingArg: rule_round9v.go
			if top {
				n.fail(fmt.Sprintf("%s needs the argument %s (%s); it was not run", n.tool, r, article(o.props[r].typ)))
			} else {
				n.fail(fmt.Sprintf("%s: every item needs %s", n.tool, r))
			}
			return out
		}
	}
	return out
}

// offsetLimit maps Claude's offset/limit onto start/end: start = offset,
// end = offset + limit - 1.
func (n *normalizer) offsetLimit(o *objSchema, args, out map[string]any, left []string) []string {
	if !o.has("start") || !o.has("end") || o.has("offset") || o.has("limit") {
		return left
	}
	var offK, limK string
	var rest []string
	for _, k := range left {
		switch normKey(k) {
		case "offset":
			offK = k
		case "limit":
			limK = k
		default:
			rest = append(rest, k)
		}
	}
	if offK == "" && limK == "" {
		return left
	}
	start := 1
	if offK != "" {
		v, ok := toInt(args[offK])
		if !ok {
			return left
		}
		start = v
		if _, dup := out["start"]; !dup {
			out["start"] = json.Number(strconv.Itoa(v))
			n.note("argument " + offK + " → start")
		}
	} else if s, ok := toInt(out["start"]); ok {
		start = s
	}
	if limK != "" {
		v, ok := toInt(args[limK])
		if !ok {
			return left
		}
		if _, dup := out["end"]; !dup && v > 0 {
			out["end"] = json.Number(strconv.Itoa(start + v - 1))
			n.note("argument " + limK + " → end")
		}
	}
	return rest
}

// flattenedItems wraps top-level keys that belong to the items of a missing
// array argument into one item: old/new (or old_string/new_string) become
// edits: [{old, new}].
func (n *normalizer) flattenedItems(o *objSchema, args, out map[string]any, left []string) []string {
	if len(left) == 0 {
		return left
	}
	for _, name := range o.names {
		p := o.props[name]
		if p.typ != "array" || (p.itemType != "object" && p.itemType != "") {
			continue
		}
		if _, present := out[name]; present {
			continue
		}
		if p.items == nil || len(p.items.props) == 0 {
			// Items described in words only: one item sent without its
			// list (question/options for questions) is wrapped whole when
			// one of its keys is the list's singular.
			single := false
			for _, k := range left {
				if normKey(k)+"s" == normKey(name) {
					single = true
				}
			}
			if single {
				item := map[string]any{}
				for _, k := range left {
					item[k] = args[k]
				}
				out[name] = []any{item}
				n.note(echoText(strings.Join(left, "/")) + " wrapped into " + name)
				return nil
			}
			continue
		}
		item := map[string]any{}
		var rest, moved []string
		for _, k := range left {
			if t := matchKey(p.items, k); t != "" {
				if _, dup := item[t]; !dup {
					item[t] = args[k]
					moved = append(moved, k)
					continue
				}
			}
			rest = append(rest, k)
		}
		if len(item) == 0 {
			continue
		}
		out[name] = []any{item}
		n.note(echoText(strings.Join(moved, "/")) + " → " + name + ": [{" + strings.Join(p.items.required, ", ") + "}]")
		left = rest
	}
	return left
}

func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1e15 {
			return 0, false
		}
		return int(f), true
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1e15 {
			return 0, false
		}
		return int(x), true
	case string:
		return toInt(json.Number(strings.TrimSpace(x)))
	}
	return 0, false
}

// decodeText reads a string that holds JSON (or a Python literal).
func decodeText(s string) (any, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	if v, ok := decodeStrict(s); ok {
		return v, true
	}
	if s[0] != '[' && s[0] != '{' {
		return nil, false
	}
	r := readValue(s, 0, false)
	if r.fail != failNone || strings.TrimSpace(s[r.end:]) != "" {
		return nil, false
	}
	return r.v, true
}

// argv joins a command given as an argument vector: ["bash","-lc",S] is S,
// anything else is joined with spaces, quoting what the shell would split.
func argv(list []any) (string, bool) {
	parts := make([]string, 0, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			return "", false
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "", false
	}
	if len(parts) == 3 {
		switch path.Base(parts[0]) {
		case "bash", "sh", "zsh", "dash":
			if strings.HasPrefix(parts[1], "-") && strings.HasSuffix(parts[1], "c") {
				return parts[2], true
			}
		}
	}
	for i, s := range parts {
		if s == "" || strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}!#~") {
			parts[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return strings.Join(parts, " "), true
}

// coerce converts one value to its declared type.
func (n *normalizer) coerce(p propSchema, name string, v any, xml bool) (any, bool) {
	switch p.typ {
	case "string":
		switch x := v.(type) {
		case string:
			if xml && !verbatimArgs[name] {
				x = strings.TrimSpace(x)
				if s, ok := xmlJSONString(x); ok { // rule_round8g.go
					n.note(name + " JSON string literal decoded")
					x = s
				}
			}
			// A command written as an argv list encoded in a string is
			// not a shell command; it is the list.
			if name == "command" {
				if t := strings.TrimSpace(x); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
					if lv, ok := decodeText(t); ok {
						if l, ok := lv.([]any); ok {
							if s, ok := argv(l); ok {
								n.note("command argv list joined")
								return s, true
							}
						}
					}
				}
			}
			return x, true
		case json.Number:
			n.note(name + " number → string")
			return string(x), true
		case bool:
			n.note(name + " boolean → string")
			return strconv.FormatBool(x), true
		case []any:
			if name == "command" {
				if s, ok := argv(x); ok {
					n.note("command argv list joined")
					return s, true
				}
			}
			n.fail(fmt.Sprintf("%s: %s must be a string, not a list", n.tool, name))
			return nil, false
		case map[string]any:
			n.fail(fmt.Sprintf("%s: %s must be a string, not an object", n.tool, name))
			return nil, false
		}
	case "integer", "number":
		switch x := v.(type) {
		case json.Number:
			if p.typ == "integer" {
				if i, ok := toInt(x); ok {
					return json.Number(strconv.Itoa(i)), true
				}
				n.fail(fmt.Sprintf("%s: %s must be an integer", n.tool, name))
				return nil, false
			}
			return x, true
		case string:
			t := strings.Trim(strings.TrimSpace(x), `"'`)
			if p.typ == "integer" {
				if i, ok := toInt(t); ok {
					n.note(name + " string → integer")
					return json.Number(strconv.Itoa(i)), true
				}
			} else if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				n.note(name + " string → number")
				return json.Number(strconv.FormatFloat(f, 'f', -1, 64)), true
			}
		}
		n.fail(fmt.Sprintf("%s: %s must be %s", n.tool, name, article(p.typ)))
		return nil, false
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			switch strings.ToLower(strings.Trim(strings.TrimSpace(x), `"'`)) {
			case "true", "yes", "1":
				n.note(name + " string → boolean")
				return true, true
			case "false", "no", "0":
				n.note(name + " string → boolean")
				return false, true
			}
		case json.Number:
			switch x {
			case "1":
				n.note(name + " number → boolean")
				return true, true
			case "0":
				n.note(name + " number → boolean")
				return false, true
			}
		}
		n.fail(fmt.Sprintf("%s: %s must be true or false", n.tool, name))
		return nil, false
	case "array":
		if s, ok := v.(string); ok {
			if dv, ok := decodeText(s); ok {
				n.note(name + " decoded from a JSON string")
				v = dv
			} else if dv, ok := m3NestedValue(s, xml); ok { // rule_round21.go
				n.note(name + " read from its child elements")
				v = dv
			}
		}
		if m, ok := v.(map[string]any); ok && (p.items != nil || p.itemType == "object") {
			n.note(name + ": one item wrapped in a list")
			v = []any{m}
		}
		list, ok := v.([]any)
		if !ok {
			n.fail(n.arrayReason(p, name))
			return nil, false
		}
		if p.items != nil && len(p.items.props) > 0 {
			out := make([]any, 0, len(list))
			for _, it := range list {
				if s, ok := it.(string); ok {
					if dv, ok := decodeText(s); ok {
						it = dv
					}
				}
				m, ok := it.(map[string]any)
				if !ok {
					n.fail(n.arrayReason(p, name))
					return nil, false
				}
				before := n.reject
				cm := n.object(p.items, m, xml, false)
				if n.reject != before {
					n.reject = n.arrayReason(p, name)
					return nil, false
				}
				out = append(out, cm)
			}
			return out, true
		}
		return list, true
	case "object":
		if s, ok := v.(string); ok {
			if dv, ok := decodeText(s); ok {
				n.note(name + " decoded from a JSON string")
				v = dv
			} else if dv, ok := m3NestedValue(s, xml); ok { // rule_round21.go
				n.note(name + " read from its child elements")
				v = dv
			}
		}
		if _, ok := v.(map[string]any); !ok {
			n.fail(fmt.Sprintf("%s: %s must be an object", n.tool, name))
			return nil, false
		}
	}
	return v, true
}

func (n *normalizer) arrayReason(p propSchema, name string) string {
	if p.items != nil && len(p.items.names) > 0 {
		fields := p.items.required
		if len(fields) == 0 {
			fields = p.items.names
		}
		return fmt.Sprintf("%s: %s must be an array of {%s}", n.tool, name, strings.Join(fields, ", "))
	}
	return fmt.Sprintf("%s: %s must be an array", n.tool, name)
}
