package webmd

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	latin1 := "<p>caf\xe9 \x80</p>" // é in ISO-8859-1, € in windows-1252
	pad := strings.Repeat(" ", metaScanBytes)
	cases := []struct {
		name, body, contentType, want, charset string
	}{
		{"utf-8 BOM", "\xef\xbb\xbf<p>caf\xc3\xa9</p>", "", "<p>café</p>", "utf-8"},
		{"utf-16le BOM", "\xff\xfe<\x00p\x00>\x00\xe9\x00", "", "<p>é", "utf-16le"},
		{"utf-16be BOM", "\xfe\xff\x00<\x00p\x00>\x00\xe9", "", "<p>é", "utf-16be"},
		{"BOM beats the header", "\xef\xbb\xbf<p>caf\xc3\xa9</p>", "text/html; charset=iso-8859-1", "<p>café</p>", "utf-8"},
		{"header charset", latin1, "text/html; charset=ISO-8859-1", "<p>café €</p>", "windows-1252"},
		{"header charset quoted", latin1, `text/html; charset="latin1"`, "<p>café €</p>", "windows-1252"},
		{"header beats meta", `<meta charset="utf-8">` + latin1, "text/html; charset=windows-1252", `<meta charset="utf-8"><p>café €</p>`, "windows-1252"},
		{"meta charset", `<meta charset="iso-8859-1">` + latin1, "text/html", `<meta charset="iso-8859-1"><p>café €</p>`, "windows-1252"},
		{"meta http-equiv", `<meta http-equiv="Content-Type" content="text/html; charset=windows-1250">` + "<p>\x9a</p>", "", `<meta http-equiv="Content-Type" content="text/html; charset=windows-1250"><p>š</p>`, "windows-1250"},
		{"meta euc-kr", `<meta charset="euc-kr">` + "<p>\xc7\xd1</p>", "", `<meta charset="euc-kr"><p>한</p>`, "euc-kr"},
		{"unknown header name ignored", `<meta charset="iso-8859-2">` + "<p>\xb1</p>", "text/html; charset=no-such-thing", `<meta charset="iso-8859-2"><p>ą</p>`, "iso-8859-2"},
		{"unknown meta name ignored", `<meta charset="bogus"><p>caf` + "\xc3\xa9</p>", "", `<meta charset="bogus"><p>café</p>`, "utf-8"},
		{"meta past 4 KiB ignored", pad + `<meta charset="windows-1251">` + "<p>\xcf</p>", "", pad + `<meta charset="windows-1251">` + "<p>Ï</p>", "windows-1252"},
		{"meta within 4 KiB read", pad[:metaScanBytes-40] + `<meta charset="windows-1251">` + "<p>\xcf</p>", "", pad[:metaScanBytes-40] + `<meta charset="windows-1251">` + "<p>П</p>", "windows-1251"},
		{"valid utf-8 without label", "<p>caf\xc3\xa9</p>", "", "<p>café</p>", "utf-8"},
		{"invalid utf-8 without label is windows-1252", latin1, "", "<p>café €</p>", "windows-1252"},
		{"meta utf-16 means utf-8", `<meta charset="utf-16"><p>caf` + "\xc3\xa9</p>", "", `<meta charset="utf-16"><p>café</p>`, "utf-8"},
		{"utf-8 label on invalid bytes", latin1, "text/html; charset=utf-8", "<p>caf\uFFFD \uFFFD</p>", "utf-8"},
		// The label lies: UTF-8 bytes declared ISO-8859-1 (a stale
		// template). Believing it would turn é into Ã©.
		{"lying legacy label", `<meta charset="iso-8859-1"><p>caf` + "\xc3\xa9</p>", "", `<meta charset="iso-8859-1"><p>café</p>`, "utf-8"},
		{"lying header", "<p>caf\xc3\xa9 \xe4\xb8\xad</p>", "text/html; charset=gb2312", "<p>café 中</p>", "utf-8"},
		{"mostly utf-8 with a broken byte, legacy label", "<p>" + strings.Repeat("\xc3\xa9", 16) + "\xe1x</p>", "text/html; charset=iso-8859-1", "<p>" + strings.Repeat("é", 16) + "\uFFFDx</p>", "utf-8"},
		{"mostly utf-8 with a broken byte, no label", "<p>" + strings.Repeat("\xc3\xa9", 16) + "\xe1x</p>", "", "<p>" + strings.Repeat("é", 16) + "\uFFFDx</p>", "utf-8"},
		{"latin-1 that happens to hold one utf-8 pair", "<p>\xe9t\xe9 \xc3\xa9 \xe0 \xe8</p>", "", "<p>été Ã© à è</p>", "windows-1252"},
		{"ASCII page with a legacy label", "<p>plain</p>", "text/html; charset=iso-8859-1", "<p>plain</p>", "windows-1252"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, cs, err := Decode([]byte(tc.body), tc.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want || cs != tc.charset {
				t.Errorf("Decode = %q (%s), want %q (%s)", got, cs, tc.want, tc.charset)
			}
			if !utf8.Valid(got) {
				t.Error("invalid UTF-8")
			}
		})
	}
}

// TestFetchCharsets serves one page declared in each of the reference's
// places and checks the Markdown.
func TestFetchCharsets(t *testing.T) {
	s := newSite(t, "")
	s.page("/header", "text/html; charset=iso-8859-1", "<p>Gr\xfc\xdfe</p>")
	s.page("/meta", "text/html", "<html><head><meta charset=\"windows-1251\"></head><body><p>\xcf\xf0\xe8\xe2\xe5\xf2</p></body></html>")
	s.page("/equiv", "text/html", "<html><head><meta http-equiv=\"content-type\" content=\"text/html;charset=shift_jis\"></head><body><p>\x93\xfa\x96\x7b</p></body></html>")
	s.page("/bom", "text/html; charset=iso-8859-1", "\xef\xbb\xbf<p>\xe2\x9c\x93 ok</p>")
	s.page("/none-utf8", "text/html", "<p>\xe2\x9c\x93 ok</p>")
	s.page("/none-1252", "text/html", "<p>\x93quoted\x94</p>")
	s.page("/liar", "text/html; charset=iso-8859-1", "<p>na\xc3\xafve</p>")
	want := map[string]string{
		"/header":    "Grüße\n",
		"/meta":      "Привет\n",
		"/equiv":     "日本\n",
		"/bom":       "✓ ok\n",
		"/none-utf8": "✓ ok\n",
		"/none-1252": "“quoted”\n",
		"/liar":      "naïve\n",
	}
	f := newFetcher()
	for path, w := range want {
		res, err := f.Get(context.Background(), Request{URL: s.URL + path})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if res.Markdown != w {
			t.Errorf("%s: got %q, want %q (read as %s)", path, res.Markdown, w, res.Charset)
		}
	}
}
