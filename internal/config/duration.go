package config

import (
	"strings"
	"time"
)

// FormatDuration writes d the way the configuration does: "30s", "2m",
// "1m30s", "500ms", "1h" — Go's String without the zero units it appends
// ("2m0s", "1h0m0s"). Messages that quote a duration from the file
// (`[error: 30s timeout exceeded]`) use it.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
