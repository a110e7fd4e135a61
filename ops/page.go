package ops

import (
	"context"
	"log/slog"

	"conductor/bot"
	"conductor/commands"
	"conductor/imaging"
	"conductor/store"
	"conductor/web"
)

// Page is the live page (web/) as `conductor run` runs it: on when
// DISCORD_CLIENT_SECRET is set; its methods do nothing when it is off.
type Page struct {
	cfg  Config
	log  *slog.Logger
	srv  *web.Server
	http *Listening
}

// NewPage makes the page, or says once why it is off.
func NewPage(cfg Config, b *bot.Bot, st *store.Store, r *imaging.Renderer, log *slog.Logger) (*Page, error) {
	p := &Page{cfg: cfg, log: log}
	if cfg.ClientSecret == "" {
		log.Info("the live board (Discord Activity) and replay pages are off: set DISCORD_CLIENT_SECRET to turn them on (docs/activity.md)")
		return p, nil
	}
	srv, err := web.New(web.Options{AppID: b.AppID, ClientSecret: cfg.ClientSecret, APIBase: cfg.APIBase, PublicURL: cfg.PublicURL,
		Discord: b, Store: st, Renderer: r, Logger: log, ClientIPHeader: cfg.ClientIPHeader, TrustedProxies: cfg.TrustedProxies})
	if err != nil {
		return nil, ConfigError{err}
	}
	p.srv = srv
	if cfg.PublicURL == "" {
		log.Warn("CONDUCTOR_PUBLIC_URL is not set: final score sheets will have no replay link (docs/configuration.md)")
	}
	return p, nil
}

// Activity is the page as the commands see it; nil when off.
func (p *Page) Activity() commands.Activity {
	if p.srv == nil {
		return nil
	}
	return p.srv
}

// Attach gives the page the service its players play through.
func (p *Page) Attach(svc *commands.Service) {
	if p.srv != nil {
		p.srv.Attach(svc)
	}
}

// Listen serves the page on CONDUCTOR_WEB, once the bot knows its
// application id.
func (p *Page) Listen() error {
	if p.srv == nil {
		return nil
	}
	l, err := Listen(p.cfg.WebAddr, p.srv.HTTPServer(), p.log, "live board server")
	if err != nil {
		return err
	}
	p.http = l
	p.log.Info("live board listening", "address", l.Addr(), "public_url", p.cfg.PublicURL)
	return nil
}

// Stop closes the pages' connections and the listener.
func (p *Page) Stop(ctx context.Context) {
	if p.srv == nil {
		return
	}
	p.srv.Close()
	p.http.Shutdown(ctx)
}
