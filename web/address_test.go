package web

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestClientAddr: a header names the client only when the operator named
// it and the connection comes from a proxy the operator trusts; an IPv6
// client is its /64.
func TestClientAddr(t *testing.T) {
	fly := &Server{opts: Options{ClientIPHeader: "Fly-Client-IP"}}
	named := &Server{opts: Options{ClientIPHeader: "Fly-Client-IP", TrustedProxies: []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}}}
	none := &Server{}
	for _, c := range []struct {
		s            *Server
		peer, header string
		want         string
	}{
		{none, "203.0.113.5:1000", "198.51.100.1", "203.0.113.5"},             // no header named: the peer
		{fly, "172.19.0.3:1000", "198.51.100.1", "198.51.100.1"},              // fly's proxy, private: believed
		{fly, "203.0.113.5:1000", "198.51.100.1", "203.0.113.5"},              // a public peer sending the header: not
		{fly, "172.19.0.3:1000", "not an address", "172.19.0.3"},              // a header that is no address: the peer
		{named, "172.19.0.3:1000", "198.51.100.1", "172.19.0.3"},              // not the proxy named
		{named, "192.0.2.7:1000", "198.51.100.1", "198.51.100.1"},             // the proxy named
		{fly, "172.19.0.3:1000", "2001:db8:a:b:1:2:3:4", "2001:db8:a:b::/64"}, // IPv6: its /64
		{none, "[2001:db8:a:b::9]:1000", "", "2001:db8:a:b::/64"},
		{none, "[::ffff:203.0.113.5]:1000", "", "203.0.113.5"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.peer
		if c.header != "" {
			r.Header.Set("Fly-Client-IP", c.header)
		}
		if got := c.s.clientAddr(r); got != c.want {
			t.Errorf("peer %s, header %q: %s, want %s", c.peer, c.header, got, c.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, 192.0.2.1, fd00::/8"); err != nil {
		t.Error(err)
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, fly"); err == nil {
		t.Error("a proxy list with a name in it was read")
	}
}
