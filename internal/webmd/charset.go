package webmd

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// metaScanBytes is how far into the page a <meta> charset is looked for.
const metaScanBytes = 4096

// Decode returns the page in UTF-8 and the name of the encoding it was
// read in, choosing it in the reference's order: a byte-order mark, the
// charset of the Content-Type header, a <meta charset> or <meta
// http-equiv="Content-Type"> in the first 4 KiB, UTF-8 if the bytes are
// valid UTF-8, else windows-1252. An unknown name is ignored.
//
// One exception, for pages that lie: a label naming a legacy encoding is
// not believed when the bytes are UTF-8 (see mostlyUTF8), and "valid
// UTF-8" tolerates a few broken sequences. Real text in a legacy encoding
// practically never reads as UTF-8; a UTF-8 page with a stale label (a
// template copied from an older site) or a few bytes mangled by a
// generator is common, and decoding it as windows-1252 turns every accent
// into mojibake. The broken sequences become U+FFFD.
func Decode(body []byte, contentType string) ([]byte, string, error) {
	switch {
	case bytes.HasPrefix(body, []byte("\xEF\xBB\xBF")):
		return decodeUTF8(body[3:]), "utf-8", nil
	case bytes.HasPrefix(body, []byte("\xFF\xFE")):
		return decodeWith(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le", body[2:])
	case bytes.HasPrefix(body, []byte("\xFE\xFF")):
		return decodeWith(unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", body[2:])
	}
	label := headerCharset(contentType)
	enc, name := lookup(label)
	if enc == nil {
		enc, name = lookup(metaCharset(body))
		// A <meta> cannot declare UTF-16: the bytes it was read from are
		// ASCII-compatible (WHATWG).
		if name == "utf-16le" || name == "utf-16be" {
			enc, name = unicode.UTF8, "utf-8"
		}
	}
	if enc == nil || name == "utf-8" {
		if name == "utf-8" || utf8.Valid(body) || mostlyUTF8(body) {
			return decodeUTF8(body), "utf-8", nil
		}
		enc, name = lookup("windows-1252")
	} else if !strings.HasPrefix(name, "utf-16") && enc != encoding.Replacement && mostlyUTF8(body) {
		return decodeUTF8(body), "utf-8", nil
	}
	if enc == encoding.Replacement {
		return nil, "", errorf(ErrConversion, "cannot decode the page: its encoding %q is not supported", label)
	}
	return decodeWith(enc, name, body)
}

// lookup finds an encoding by its WHATWG label; nil for an unknown one.
func lookup(label string) (encoding.Encoding, string) {
	label = strings.TrimSpace(label)
	if label == "" {
		return nil, ""
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, ""
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		return nil, ""
	}
	if name == "x-user-defined" {
		return lookup("windows-1252")
	}
	return enc, name
}

func decodeUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	return bytes.ToValidUTF8(b, []byte("\uFFFD"))
}

func decodeWith(enc encoding.Encoding, name string, b []byte) ([]byte, string, error) {
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return nil, "", errorf(ErrConversion, "cannot decode the page as %s: %v", name, err)
	}
	return decodeUTF8(out), name, nil
}

// mostlyUTF8 reports bytes that are UTF-8: non-ASCII sequences, at least
// three valid ones for each invalid byte. Text in a legacy encoding fails
// by far: a Latin-1 accent is followed by ASCII, so nearly every
// non-ASCII byte of it is invalid UTF-8, and CJK double-byte encodings
// form a valid sequence by chance for a few characters in ten at most.
func mostlyUTF8(b []byte) bool {
	valid, invalid := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			invalid++
			i++
			continue
		}
		valid++
		i += size
	}
	return valid > 0 && (invalid == 0 || valid >= 16 && valid >= 3*invalid)
}

// headerCharset returns the charset parameter of a Content-Type value.
func headerCharset(ct string) string {
	if ct == "" {
		return ""
	}
	if _, params, err := mime.ParseMediaType(ct); err == nil {
		return params["charset"]
	}
	// A malformed header may still carry a readable charset. The search
	// is on the bytes: lower-casing could change the length (invalid
	// UTF-8 becomes U+FFFD) and the index would not match ct.
	const key = "charset="
	for i := 0; i+len(key) <= len(ct); i++ {
		if !strings.EqualFold(ct[i:i+len(key)], key) {
			continue
		}
		v := ct[i+len(key):]
		if j := strings.IndexAny(v, "; "); j >= 0 {
			v = v[:j]
		}
		return strings.Trim(v, `"'`)
	}
	return ""
}

// metaCharset looks for <meta charset> or <meta http-equiv="Content-Type"
// content="…; charset=…"> in the first 4 KiB of the page.
func metaCharset(body []byte) string {
	if len(body) > metaScanBytes {
		body = body[:metaScanBytes]
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			var charset, content string
			httpEquiv := false
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				switch string(k) {
				case "charset":
					charset = string(v)
				case "http-equiv":
					httpEquiv = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
				case "content":
					content = string(v)
				}
			}
			if charset != "" {
				if _, n := lookup(charset); n != "" {
					return charset
				}
			}
			if httpEquiv && content != "" {
				if cs := headerCharset(content); cs != "" {
					if _, n := lookup(cs); n != "" {
						return cs
					}
				}
			}
		}
	}
}
