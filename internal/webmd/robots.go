package webmd

import (
	"strings"
	"sync"
	"time"
)

// Robots is a parsed robots.txt (RFC 9309).
type Robots struct {
	groups []robotsGroup
}

type robotsGroup struct {
	agents []string // product tokens, lower case; "*" for any
	rules  []robotsRule
}

type robotsRule struct {
	allow   bool
	pattern string // normalized; may hold `*` and a final `$`
}

// maxRobotsBytes is how much of a robots.txt is read: RFC 9309 asks
// crawlers to parse at least 500 KiB.
const maxRobotsBytes = 500 << 10

// AllowAll is the robots.txt of a site that has none (a 4xx answer).
var AllowAll = &Robots{}

// ParseRobots reads a robots.txt: groups of user-agent lines followed by
// allow and disallow rules; comments, unknown keys and rules before any
// user-agent line are ignored, and so is anything past 500 KiB.
func ParseRobots(body []byte) *Robots {
	if len(body) > maxRobotsBytes {
		body = body[:maxRobotsBytes]
	}
	r := &Robots{}
	var cur *robotsGroup
	agentLine := false // the previous record was a user-agent line
	for len(body) > 0 {
		var line []byte
		if i := indexLineEnd(body); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		s := string(line)
		if i := strings.IndexByte(s, '#'); i >= 0 {
			s = s[:i]
		}
		colon := strings.IndexByte(s, ':')
		if colon < 0 {
			continue
		}
		key := strings.ToLower(strings.TrimSpace(s[:colon]))
		val := strings.TrimSpace(s[colon+1:])
		switch key {
		case "user-agent", "useragent", "user agent":
			if cur == nil || !agentLine {
				r.groups = append(r.groups, robotsGroup{})
				cur = &r.groups[len(r.groups)-1]
			}
			cur.agents = append(cur.agents, productToken(val))
			agentLine = true
		case "allow", "disallow", "dissallow", "disalow", "disallaw":
			agentLine = false
			// An empty rule matches nothing (RFC 9309 §2.2.2).
			if cur != nil && val != "" {
				cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: normalizeRobotsPath(val)})
			}
		}
	}
	return r
}

func indexLineEnd(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// productToken keeps the leading [A-Za-z_-] characters of a user-agent
// value, lower case: "mm/1.2" and "MM" both name mm.
func productToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	i := 0
	for i < len(v) {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			break
		}
		i++
	}
	return strings.ToLower(v[:i])
}

// Allowed reports whether agent may fetch path (its escaped path and
// query). The groups naming agent apply (merged), else those for "*",
// else nothing is forbidden. The longest matching rule wins; between an
// allow and a disallow of the same length, allow wins.
func (r *Robots) Allowed(agent, path string) bool {
	if r == nil {
		return true
	}
	agent = strings.ToLower(agent)
	if path == "" {
		path = "/"
	}
	if path == "/robots.txt" {
		return true
	}
	path = normalizeRobotsPath(path)
	rules := r.rulesFor(agent)
	if rules == nil {
		rules = r.rulesFor("*")
	}
	best, allow := -1, true
	for _, g := range rules {
		for _, rule := range g.rules {
			n := len(rule.pattern)
			if n < best || (n == best && allow) {
				continue
			}
			if matchRobots(rule.pattern, path) {
				if n > best || rule.allow {
					best, allow = n, rule.allow
				}
			}
		}
	}
	return allow
}

func (r *Robots) rulesFor(agent string) []*robotsGroup {
	var out []*robotsGroup
	for i := range r.groups {
		for _, a := range r.groups[i].agents {
			if a == agent {
				out = append(out, &r.groups[i])
				break
			}
		}
	}
	return out
}

// matchRobots reports whether pattern matches the start of path; `*`
// matches any run of characters, and a final `$` anchors the pattern at
// the end of path.
func matchRobots(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	p, s := 0, 0
	starP, starS := -1, 0
	for {
		if p == len(pattern) {
			if !anchored || s == len(path) {
				return true
			}
		} else if pattern[p] == '*' {
			starP, starS = p, s
			p++
			continue
		} else if s < len(path) && pattern[p] == path[s] {
			p++
			s++
			continue
		}
		// Mismatch: let the last star swallow one more character.
		if starP < 0 || starS >= len(path) {
			return false
		}
		starS++
		p, s = starP+1, starS
	}
}

// normalizeRobotsPath brings a path or a pattern to one spelling before
// comparison (RFC 9309 §2.2.2): percent-encoded unreserved characters are
// decoded, other escapes get upper-case hex, and bytes outside printable
// ASCII are percent-encoded. `*` and `$` are printable ASCII and stay as
// they are.
func normalizeRobotsPath(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b = append(b, v)
			} else {
				b = append(b, '%', hex[v>>4], hex[v&15])
			}
			i += 2
		case c <= ' ' || c >= 0x7f:
			b = append(b, '%', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// isUnreserved reports RFC 3986's unreserved characters.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// RobotsTTL is how long a robots.txt is kept per origin.
const RobotsTTL = 24 * time.Hour

// RobotsCache keeps the robots.txt of each origin (scheme, host, port) for
// RobotsTTL. Only answers are kept (a file, or a 4xx that allows all): a
// failure (5xx, unreachable) forbids the site for this call but is tried
// again on the next, so a passing outage does not block a site for a day.
type RobotsCache struct {
	mu      sync.Mutex
	entries map[string]robotsEntry
	// Now is the clock (tests move it); nil is time.Now.
	Now func() time.Time
}

type robotsEntry struct {
	robots  *Robots
	expires time.Time
}

// NewRobotsCache returns an empty cache.
func NewRobotsCache() *RobotsCache {
	return &RobotsCache{entries: map[string]robotsEntry{}}
}

func (c *RobotsCache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// get returns the cached robots.txt of origin, if fresh.
func (c *RobotsCache) get(origin string) *Robots {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[origin]
	if !ok || !c.now().Before(e.expires) {
		return nil
	}
	return e.robots
}

func (c *RobotsCache) put(origin string, r *Robots) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]robotsEntry{}
	}
	c.entries[origin] = robotsEntry{robots: r, expires: c.now().Add(RobotsTTL)}
}
