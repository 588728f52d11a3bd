package webmd

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
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

// isLinkLocal tells a link-local unicast address, IPv4-mapped ones too,
// and an IPv4 one behind the NAT64 prefix (64:ff9b::/96), which a NAT64
// gateway forwards to that IPv4 address.
func isLinkLocal(ip netip.Addr) bool {
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	return ip.Unmap().IsLinkLocalUnicast()
}

var nat64 = netip.MustParsePrefix("64:ff9b::/96")

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
// written out, in any form an HTTP proxy would take for one: the check
// is the only one when a proxy does the resolving.
func checkLinkLocalURL(u *url.URL) error {
	if ip, ok := hostAddr(u.Hostname()); ok && isLinkLocal(ip) {
		return linkLocalError(u.Hostname())
	}
	return nil
}

// hostAddr is the address a URL's host is, when it is one: as netip
// reads it, or in the forms inet_aton (so glibc's getaddrinfo, and the
// proxies that call it) also takes for an IPv4 address — 2852039166,
// 0251.0376.0251.0376, 0xa9fea9fe, 169.254.43518 — a trailing dot
// allowed.
func hostAddr(host string) (netip.Addr, bool) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true
	}
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		base := 10
		switch {
		case len(p) > 2 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		// Each part is a byte, the last one fills the bytes left.
		bits := uint(8)
		if i == len(parts)-1 {
			bits = uint(32 - 8*i)
		}
		if n >= 1<<bits {
			return netip.Addr{}, false
		}
		v = v<<bits | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
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
