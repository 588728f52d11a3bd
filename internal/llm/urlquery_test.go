package llm

import "testing"

func TestRedactURLMasksQueryValues(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/v1?token=abc":                       "http://h/v1?token=***",
		"http://h/v1?a=1&b=&c":                        "http://h/v1?a=***&b=&***",
		"http://u:pw@h/v1?token=abc":                  "http://u:***@h/v1?token=***",
		"http://h/v1":                                 "http://h/v1",
		"http://h/v1?token=a'b c\"d<e":                "http://h/v1?token=***",
		"http://u:pw@h/v1?token=a b&k=x\"y#f":         "http://u:***@h/v1?token=***&k=***#f",
		"GET http://h/v1/models?token=abc: refused":   "GET http://h/v1/models?token=***: refused",
		`Post "http://h/v1/chat?key=k1&x=2": timeout`: `Post "http://h/v1/chat?key=***&x=***": timeout`,
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitQuery(t *testing.T) {
	for in, want := range map[string][2]string{
		"http://h/v1?token=x":  {"http://h/v1", "token=x"},
		"http://h/v1/?token=x": {"http://h/v1", "token=x"},
		"http://h/v1/":         {"http://h/v1", ""},
		"http://h/v1#frag":     {"http://h/v1", ""},
	} {
		if b, q := splitQuery(in); b != want[0] || q != want[1] {
			t.Errorf("splitQuery(%q) = %q, %q", in, b, q)
		}
	}
}
