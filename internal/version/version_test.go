package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	vcs := func(rev, date, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: date}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "cabae40e8da0de34b578602b8ca965b668cb25c9"
	for _, c := range []struct {
		module   string
		settings []debug.BuildSetting
		want     string
	}{
		{"(devel)", nil, "dev"},
		{"", nil, "dev"},
		{"v0.1.0", nil, "v0.1.0"},
		{"v0.0.0-20261201103037-cabae40e8da0", vcs(rev, "2026-12-01T10:30:37Z", "false"), "v0.0.0-20261201103037-cabae40e8da0 (rev cabae40, 2026-12-01)"},
		{"v0.0.0-20261201103037-cabae40e8da0+dirty", vcs(rev, "2026-12-01T10:30:37Z", "true"), "v0.0.0-20261201103037-cabae40e8da0+dirty (rev cabae40, 2026-12-01, modified)"},
		{"(devel)", vcs(rev, "2026-12-01T10:30:37Z", "true"), "devel (rev cabae40, 2026-12-01, modified)"},
		{"(devel)", vcs(rev, "", "false"), "devel (rev cabae40)"},
	} {
		if got := fromBuildInfo(c.module, c.settings); got != c.want {
			t.Errorf("%q %v: got %q, want %q", c.module, c.settings, got, c.want)
		}
	}
}

func TestVersionWins(t *testing.T) {
	old := Version
	defer func() { Version = old }()
	Version = "v9.8.7"
	if String() != "v9.8.7" || Module() != "v9.8.7" {
		t.Errorf("String %q Module %q", String(), Module())
	}
	Version = "v1 (x)"
	if Module() != "v1" {
		t.Errorf("Module %q", Module())
	}
}
