package bot

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// DefaultAPIBase is Discord's own address.
const DefaultAPIBase = "https://discord.com/"

// APIVersion is the REST version Conductor speaks: the one Discord's OpenAPI
// description documents (discordgo addresses v9).
const APIVersion = "10"

// apiTransport sends discordgo's REST requests, which discordgo addresses to
// https://discord.com/api/v9/..., to base (DISCORD_API_URL; tests use a fake)
// under APIVersion. Other requests (the CDN, ...) pass unchanged. Production
// and tests thus use discordgo untouched: no package variable is rewritten.
type apiTransport struct {
	base *url.URL
	next http.RoundTripper
}

// newAPITransport makes the transport for base ("" is Discord).
func newAPITransport(base string, next http.RoundTripper) (*apiTransport, error) {
	if base == "" {
		base = DefaultAPIBase
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("DISCORD_API_URL %q: want an http(s) address like https://discord.com/", base)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	if next == nil {
		next = http.DefaultTransport
	}
	return &apiTransport{base: u, next: next}, nil
}

func (t *apiTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	version, rest, ok := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/api/v"), "/")
	if r.URL.Host != "discord.com" || !ok || !strings.HasPrefix(r.URL.Path, "/api/v") || version == "" {
		return t.next.RoundTrip(r)
	}
	u := *r.URL
	u.Scheme, u.Host = t.base.Scheme, t.base.Host
	u.RawPath = t.base.EscapedPath() + "/api/v" + APIVersion + "/" + rest
	var err error
	if u.Path, err = url.PathUnescape(u.RawPath); err != nil {
		return nil, err
	}
	out := r.Clone(r.Context()) // a RoundTripper must not change the caller's request
	out.URL, out.Host = &u, ""
	return t.next.RoundTrip(out)
}
