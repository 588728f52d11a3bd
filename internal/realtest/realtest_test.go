package realtest

import (
	"encoding/json"
	"net/http"
	"testing"
)

// The server starts, reports the window it was given in /props, and is
// gone after the cleanup.
func TestStart(t *testing.T) {
	Need(t)
	var root string
	t.Run("up", func(t *testing.T) {
		s := Start(t, Options{NCtx: 2048})
		root = s.Root
		r, err := http.Get(s.Root + "/props")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var props struct {
			Settings struct {
				NCtx int `json:"n_ctx"`
			} `json:"default_generation_settings"`
		}
		if err := json.NewDecoder(r.Body).Decode(&props); err != nil || props.Settings.NCtx != 2048 {
			t.Errorf("/props n_ctx = %d, %v", props.Settings.NCtx, err)
		}
	})
	if root == "" {
		return
	}
	if _, err := http.Get(root + "/health"); err == nil {
		t.Errorf("the server still answers after the cleanup")
	}
}
