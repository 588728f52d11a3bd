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
// replaced by ***. A URL without a password is returned as is.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return Redact(rawURL)
	}
	if _, ok := u.User.Password(); !ok {
		return rawURL
	}
	return strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1)
}

// userinfo matches the user:password@ part of a URL in free text: a
// scheme, "//", a user without '/', '@' or blanks, ':', then the password
// up to the last '@' before the host.
var userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://[^/?#@\s:]*):[^/?#\s]*@`)

// Redact masks every password found in URLs of free text (an error
// message that quotes a URL).
func Redact(s string) string {
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
