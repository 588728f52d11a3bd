package webmd

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Link-local addresses (169.254.0.0/16, fe80::/10) are where cloud
// metadata services hand out credentials (169.254.169.254): a page, or a
// model steered by one, must not make mm read them. Loopback and private
// addresses stay allowed: a local dev server is a normal thing to read.
// The check is made on the address each connection dials, after DNS
// resolution (a name that resolves there is refused as well), and on the
// host of every URL, redirects included (a literal address is refused
// before anything is sent, also through a proxy, which does the
// resolving itself).

// LinkLocalAllowedBy names what allows it, for the message.
const LinkLocalAllowedBy = "for fetch_content, fetchAllowLinkLocal: true in your own configuration"

// isLinkLocal tells a link-local unicast address, IPv4-mapped ones too.
func isLinkLocal(ip netip.Addr) bool {
	return ip.Unmap().IsLinkLocalUnicast()
}

func linkLocalError(host string) *Error {
	return errorf(ErrInput, "%s is a link-local address (where cloud metadata services hand out credentials): not fetched — %s allows it", host, LinkLocalAllowedBy)
}

// refuseLinkLocal is the dialer's Control: it runs on the resolved
// address, before the connection is made.
func refuseLinkLocal(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	if ip, err := netip.ParseAddr(host); err == nil && isLinkLocal(ip) {
		return linkLocalError(host)
	}
	return nil
}

// checkLinkLocalURL refuses a URL whose host is a link-local address
// written out.
func checkLinkLocalURL(u *url.URL) error {
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && isLinkLocal(ip) {
		return linkLocalError(u.Hostname())
	}
	return nil
}

// resolver is the dialer's (nil: the system's); tests give one that
// answers from a DNS server of their own.
var resolver *net.Resolver

// guardedTransport is http.DefaultTransport's settings (the proxy from
// the environment included) with a dialer that refuses link-local
// addresses.
func guardedTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseLinkLocal, Resolver: resolver}
	t.DialContext = d.DialContext
	return t
}
