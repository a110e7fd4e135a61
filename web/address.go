package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Who a request comes from, for the limits per address. It is the
// connection's peer, unless the peer is a proxy the operator named
// (Options.TrustedProxies) and the operator named the header that proxy
// writes the client's address in (Options.ClientIPHeader, for example
// fly.io's Fly-Client-IP). A header is never believed from anyone else.
//
// Discord's proxy, through which an Activity's requests come, documents no
// header with the user's address: it exists to hide it ("Activities in
// Discord are sandboxed via a Discord proxy. This is done to hide the
// users' IP addresses", discord-api-docs, Activities → Networking). Behind
// it, the address is therefore the proxy's, shared by many users: the
// limits of an Activity's requests are by instance and by user as well.

// defaultTrustedProxies are the proxies believed when a header is named
// and no proxy is: loopback and private addresses, from which only a
// proxy of one's own platform connects (fly.io's among them).
var defaultTrustedProxies = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"),
	netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"),
	netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("::1/128"),
	netip.MustParsePrefix("fc00::/7"),
}

// ParseTrustedProxies reads a comma-separated list of addresses and
// prefixes (CONDUCTOR_TRUSTED_PROXIES).
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a prefix such as 10.0.0.0/8", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// clientAddr is the address a request's limits are counted by: an IPv4
// address, or an IPv6 address's /64 (what one subscriber holds).
func (s *Server) clientAddr(r *http.Request) string {
	peer := peerAddr(r.RemoteAddr)
	if s.opts.ClientIPHeader != "" && peer.IsValid() && s.trustedProxy(peer) {
		if h := r.Header.Values(s.opts.ClientIPHeader); len(h) == 1 {
			if a, err := netip.ParseAddr(strings.TrimSpace(h[0])); err == nil {
				peer = a.Unmap()
			}
		}
	}
	if !peer.IsValid() {
		return r.RemoteAddr
	}
	if peer.Is6() {
		p, _ := peer.Prefix(64)
		return p.String()
	}
	return peer.String()
}

func (s *Server) trustedProxy(a netip.Addr) bool {
	proxies := s.opts.TrustedProxies
	if len(proxies) == 0 {
		proxies = defaultTrustedProxies
	}
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of a connection's peer ("host:port").
func peerAddr(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}
