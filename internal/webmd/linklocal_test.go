package webmd

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// The dialer's check, on the resolved addresses it is given.
func TestRefuseLinkLocal(t *testing.T) {
	for addr, refused := range map[string]bool{
		"169.254.169.254:80":          true,
		"169.254.0.1:443":             true,
		"[fe80::1]:80":                true,
		"[fe80::1%eth0]:80":           true,
		"[::ffff:169.254.169.254]:80": true,
		"127.0.0.1:8080":              false,
		"[::1]:80":                    false,
		"10.0.0.1:80":                 false,
		"192.168.1.1:80":              false,
		"172.16.0.1:80":               false,
		"93.184.216.34:443":           false,
		"[2001:db8::1]:80":            false,
	} {
		err := refuseLinkLocal("tcp", addr, nil)
		if (err != nil) != refused {
			t.Errorf("%s: %v, want refused %v", addr, err, refused)
		}
	}
}

// A link-local address written in a URL in any form a proxy's resolver
// takes for one is refused before anything is sent (through a proxy, that
// check is the only one); a name is not an address.
func TestCheckLinkLocalURLForms(t *testing.T) {
	for host, refused := range map[string]bool{
		"169.254.169.254":          true,
		"169.254.169.254.":         true,
		"2852039166":               true,
		"0251.0376.0251.0376":      true,
		"0xa9fea9fe":               true,
		"0XA9.0xFE.0xa9.0xfe":      true,
		"169.254.43518":            true,
		"169.16689662":             true,
		"::ffff:a9fe:a9fe":         true,
		"64:ff9b::a9fe:a9fe":       true,
		"fe80::1%eth0":             true,
		"127.0.0.1":                false,
		"2130706433":               false,
		"10.0.0.1":                 false,
		"169.255.0.1":              false,
		"4294967296":               false,
		"169.254.169.254.1":        false,
		"0x":                       false,
		"metadata.google.internal": false,
		"example.com":              false,
		"64:ff9b::a00:1":           false,
	} {
		err := checkLinkLocalURL(&url.URL{Scheme: "http", Host: host})
		if strings.Contains(host, ":") {
			err = checkLinkLocalURL(&url.URL{Scheme: "http", Host: "[" + host + "]"})
		}
		if (err != nil) != refused {
			t.Errorf("%s: %v, want refused %v", host, err, refused)
		}
	}
}

// The guarded transport's dialer refuses the connection before making
// it: nothing is sent to 169.254.169.254 (which this machine cannot
// even route).
func TestGuardedTransportDial(t *testing.T) {
	tr := guardedTransport()
	_, err := tr.DialContext(context.Background(), "tcp", "169.254.169.254:80")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Error(), "169.254.169.254 is a link-local address") {
		t.Fatalf("dial: %v", err)
	}
	// Loopback is fine.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := tr.DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("loopback: %v", err)
	}
	c.Close()
}

// A page on 127.0.0.1 is read; its redirect to the metadata address is
// refused, and so is that address asked directly; AllowLinkLocal lifts
// the URL check.
func TestFetchLinkLocal(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/meta":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>local</p>"))
		}
	}))
	defer srv.Close()
	f := &Fetcher{Robots: NewRobotsCache()}
	u, _ := url.Parse(srv.URL + "/page")
	if _, err := f.Fetch(context.Background(), u); err != nil {
		t.Fatalf("loopback page: %v", err)
	}
	for _, target := range []string{srv.URL + "/meta", "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/"} {
		u, _ := url.Parse(target)
		_, err := f.Fetch(context.Background(), u)
		if err == nil || !strings.Contains(err.Error(), "is a link-local address") {
			t.Errorf("%s: %v", target, err)
		}
	}
	if err := (&Fetcher{AllowLinkLocal: true}).checkURL(&url.URL{Host: "169.254.169.254"}); err != nil {
		t.Errorf("allowed: %v", err)
	}
}

// A name that resolves to a link-local address is refused too: the check
// is on the resolved address. The resolver asks a DNS server of the
// test's, on 127.0.0.1, that answers 169.254.169.254 for every name.
func TestLinkLocalAfterResolution(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
			b.StartQuestions()
			b.Question(q)
			b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}, dnsmessage.AResource{A: [4]byte{169, 254, 169, 254}})
			}
			msg, _ := b.Finish()
			pc.WriteTo(msg, from)
		}
	}()
	resolver = &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", pc.LocalAddr().String())
	}}
	defer func() { resolver = nil }()
	_, err = guardedTransport().DialContext(context.Background(), "tcp4", "metadata.test:80")
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Error(), "169.254.169.254 is a link-local address") {
		t.Fatalf("dial metadata.test: %v", err)
	}
}
