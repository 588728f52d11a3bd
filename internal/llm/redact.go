package llm

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// A base URL may carry a password (http://user:pw@host/v1, for a proxy in
// front of the model server). It must never reach the screen, an error
// message or a trace file. RedactURL and Redact mask it the way Go's
// net/http does in its own errors: user:***@.

// RedactURL returns rawURL with the password of its user information
// replaced by ***, and the value of each query parameter too (…?token=***):
// a proxy in front of the server may take its key there. A URL with
// neither is returned as is.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err == nil && u.Scheme != "" && u.Host != "" && u.RawQuery != "" {
		// A URL: all of its query is masked, whatever its values hold (a
		// quote or a space, where Redact, reading free text, would take
		// the URL to end and print the rest of the value).
		base, query, _ := strings.Cut(rawURL, "?")
		query, frag, hasFrag := strings.Cut(query, "#")
		if hasFrag {
			frag = "#" + frag
		}
		return RedactURL(base) + "?" + maskParams(query) + frag
	}
	if err != nil || u.User == nil {
		return Redact(rawURL)
	}
	if _, ok := u.User.Password(); !ok {
		return Redact(rawURL)
	}
	return Redact(strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1))
}

// maskParams replaces the value of each parameter of a URL's raw query
// with *** (a parameter without '=' is a value).
func maskParams(query string) string {
	params := strings.Split(query, "&")
	for i, p := range params {
		if k, v, ok := strings.Cut(p, "="); ok {
			if v != "" {
				params[i] = k + "=***"
			}
		} else if p != "" {
			params[i] = "***"
		}
	}
	return strings.Join(params, "&")
}

// userinfo matches the user:password@ part of a URL in free text: a
// scheme, "//", a user without '/', '@' or blanks, ':', then the password
// up to the last '@' before the host.
var userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/?#@\s:]*):[^/?#\s]*@`)

// urlQuery matches the query of a URL in free text, from its '?' to a
// blank, a quote or a fragment.
var urlQuery = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s?#"'<>]*\?[^\s#"'<>]*`)

// Redact masks every password and query value found in URLs of free text
// (an error message that quotes a URL).
func Redact(s string) string {
	if strings.Contains(s, "?") {
		s = urlQuery.ReplaceAllStringFunc(s, func(m string) string {
			base, query, _ := strings.Cut(m, "?")
			return base + "?" + maskQuery(query)
		})
	}
	if !strings.Contains(s, "@") {
		return s
	}
	return userinfo.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasSuffix(m, ":***@") {
			return m
		}
		sub := userinfo.FindStringSubmatch(m)
		return sub[1] + ":***@"
	})
}

// maskQuery replaces the value of each parameter of a raw query with ***
// (a parameter without '=' is a value). Punctuation that ends the
// sentence around the URL ("…?token=x: connection refused") stays.
func maskQuery(query string) string {
	params := strings.Split(query, "&")
	for i, p := range params {
		end := strings.TrimRight(p, ":,.;)]")
		rest := p[len(end):]
		if k, v, ok := strings.Cut(end, "="); ok {
			if v != "" {
				params[i] = k + "=***" + rest
			}
		} else if end != "" && end != "***" {
			params[i] = "***" + rest
		}
	}
	return strings.Join(params, "&")
}

// redactErr masks the URL of a *url.Error (net/http already strips the
// password from the ones it makes, but not every error comes from there)
// and returns the text of err with any password masked.
func redactErr(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = RedactURL(ue.URL)
	}
	return Redact(err.Error())
}
