package webmd

import (
	"strings"
	"testing"
)

func TestRobotsMatching(t *testing.T) {
	cases := []struct {
		name, robots, agent, path string
		want                      bool
	}{
		{"no file", "", "mm", "/x", true},
		{"disallow all", "User-agent: *\nDisallow: /", "mm", "/x", false},
		{"robots.txt itself", "User-agent: *\nDisallow: /", "mm", "/robots.txt", true},
		{"empty disallow allows", "User-agent: *\nDisallow:", "mm", "/x", true},
		{"prefix", "User-agent: *\nDisallow: /private", "mm", "/private/a", false},
		{"prefix only at start", "User-agent: *\nDisallow: /private", "mm", "/a/private", true},
		{"longest match allow", "User-agent: *\nDisallow: /\nAllow: /docs/", "mm", "/docs/a", true},
		{"longest match disallow", "User-agent: *\nAllow: /docs/\nDisallow: /docs/secret", "mm", "/docs/secret/x", false},
		{"allow wins a tie", "User-agent: *\nDisallow: /page\nAllow: /page", "mm", "/page", true},
		{"star", "User-agent: *\nDisallow: /*.php", "mm", "/a/b/index.php?x=1", false},
		{"star no match", "User-agent: *\nDisallow: /*.php", "mm", "/a/index.html", true},
		{"dollar anchors", "User-agent: *\nDisallow: /*.php$", "mm", "/index.php", false},
		{"dollar anchors, query after", "User-agent: *\nDisallow: /*.php$", "mm", "/index.php?x", true},
		{"star in the middle backtracks", "User-agent: *\nDisallow: /a*b*c$", "mm", "/axxbyybzzc", false},
		{"query matched", "User-agent: *\nDisallow: /search?q=", "mm", "/search?q=go", false},
		{"mm group wins over star", "User-agent: *\nDisallow: /\n\nUser-agent: mm\nAllow: /", "mm", "/x", true},
		{"mm group forbids", "User-agent: *\nAllow: /\n\nUser-agent: mm\nDisallow: /x", "mm", "/x", false},
		{"mm group does not fall back to star rules", "User-agent: *\nDisallow: /a\n\nUser-agent: mm\nDisallow: /b", "mm", "/a", true},
		{"other agent ignored", "User-agent: googlebot\nDisallow: /", "mm", "/x", true},
		{"agent case and version", "User-agent: MM/2.0\nDisallow: /", "mm", "/x", false},
		{"agent is a token, not a prefix", "User-agent: mmbot\nDisallow: /", "mm", "/x", true},
		{"several agents one group", "User-agent: a\nUser-agent: mm\nDisallow: /x", "mm", "/x", false},
		{"groups for one agent merged", "User-agent: mm\nDisallow: /a\n\nUser-agent: mm\nDisallow: /b", "mm", "/b", false},
		{"rules before any agent ignored", "Disallow: /\nUser-agent: *\nAllow: /", "mm", "/x", true},
		{"comments and spaces", "  User-Agent : *   # all\n  DISALLOW :  /x  # no x\n", "mm", "/x", false},
		{"CR line ends", "User-agent: *\r\nDisallow: /x\r\n", "mm", "/x", false},
		{"unreserved percent-encoding decoded", "User-agent: *\nDisallow: /%7Euser", "mm", "/~user/a", false},
		{"path percent-encoding decoded", "User-agent: *\nDisallow: /~user", "mm", "/%7euser/a", false},
		{"reserved escape kept, hex case ignored", "User-agent: *\nDisallow: /a%2fb", "mm", "/a%2Fb", false},
		{"reserved escape is not the character", "User-agent: *\nDisallow: /a%2Fb", "mm", "/a/b", true},
		{"non-ASCII pattern encoded", "User-agent: *\nDisallow: /caf\u00e9", "mm", "/caf%C3%A9", false},
		{"sitemap and crawl-delay ignored", "User-agent: *\nCrawl-delay: 10\nSitemap: https://x/s.xml\nDisallow: /x", "mm", "/x", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ParseRobots([]byte(tc.robots))
			if got := r.Allowed(tc.agent, tc.path); got != tc.want {
				t.Errorf("Allowed(%q, %q) = %v, want %v; robots.txt:\n%s", tc.agent, tc.path, got, tc.want, tc.robots)
			}
		})
	}
}

func TestRobotsSizeLimit(t *testing.T) {
	// Rules past 500 KiB are not read.
	body := "User-agent: *\n" + strings.Repeat("# padding padding padding\n", maxRobotsBytes/26+1) + "Disallow: /x\n"
	if !ParseRobots([]byte(body)).Allowed("mm", "/x") {
		t.Error("a rule past 500 KiB was applied")
	}
}

func TestMatchRobotsPathological(t *testing.T) {
	// Many stars against a long path: must finish (the matcher backtracks
	// only over the last star).
	p := strings.Repeat("*a", 200) + "$"
	s := "/" + strings.Repeat("a", 5000) + "b"
	if matchRobots(p, s) {
		t.Error("matched")
	}
}
