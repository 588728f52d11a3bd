package config

import (
	"testing"
	"time"
)

func TestFormatDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Second, "30s"},
		{2 * time.Minute, "2m"},
		{20 * time.Minute, "20m"},
		{90 * time.Second, "1m30s"},
		{500 * time.Millisecond, "500ms"},
		{1500 * time.Millisecond, "1.5s"},
		{time.Hour, "1h"},
		{time.Hour + 10*time.Minute, "1h10m"},
		{time.Hour + 30*time.Second, "1h0m30s"},
		{10 * time.Second, "10s"},
		{0, "0s"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
