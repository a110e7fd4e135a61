package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"golang.org/x/sync/errgroup"

	"conductor/bot"
	"conductor/commands"
	"conductor/imaging"
	"conductor/store"
	"conductor/web"
)

// The live page (web/): the board inside Discord as an Activity, and the
// public replay pages. It is on when DISCORD_CLIENT_SECRET is set.

// defaultWebAddr is where the page listens when DISCORD_CLIENT_SECRET is
// set and CONDUCTOR_WEB is not.
const defaultWebAddr = ":8081"

// checkWebConfig completes and checks the page's settings.
func checkWebConfig(cfg *runConfig) error {
	if cfg.ClientSecret == "" {
		return nil
	}
	if cfg.ShardCount > 1 {
		return badInput("DISCORD_CLIENT_SECRET with CONDUCTOR_SHARD_COUNT=%d: the live board works with one shard only "+
			"(Discord maps the Activity to one address, and each shard holds its own servers' games); "+
			"unset DISCORD_CLIENT_SECRET on every shard, or run one shard", cfg.ShardCount)
	}
	if cfg.WebAddr == "" {
		cfg.WebAddr = defaultWebAddr
	}
	return nil
}

// webPage is the page as `conductor run` runs it; its methods do nothing
// when the page is off.
type webPage struct {
	cfg  runConfig
	log  *slog.Logger
	srv  *web.Server
	http *http.Server
	addr string
}

// newWebPage makes the page, or says once why it is off.
func newWebPage(cfg runConfig, b *bot.Bot, st *store.Store, r *imaging.Renderer, log *slog.Logger) (*webPage, error) {
	p := &webPage{cfg: cfg, log: log}
	if cfg.ClientSecret == "" {
		log.Info("the live board (Discord Activity) and replay pages are off: set DISCORD_CLIENT_SECRET to turn them on (docs/activity.md)")
		return p, nil
	}
	srv, err := web.New(web.Options{AppID: b.AppID, ClientSecret: cfg.ClientSecret, APIBase: cfg.APIBase, PublicURL: cfg.PublicURL,
		Discord: b, Store: st, Renderer: r, Logger: log})
	if err != nil {
		return nil, badInput("%v", err)
	}
	p.srv = srv
	if cfg.PublicURL == "" {
		log.Warn("CONDUCTOR_PUBLIC_URL is not set: final score sheets will have no replay link (docs/configuration.md)")
	}
	return p, nil
}

// activity is the page as the commands see it; nil when off.
func (p *webPage) activity() commands.Activity {
	if p.srv == nil {
		return nil
	}
	return p.srv
}

func (p *webPage) attach(svc *commands.Service) {
	if p.srv != nil {
		p.srv.Attach(svc)
	}
}

// start listens on CONDUCTOR_WEB, once the bot knows its application id.
func (p *webPage) start(servers *errgroup.Group) error {
	if p.srv == nil {
		return nil
	}
	ln, err := net.Listen("tcp", p.cfg.WebAddr)
	if err != nil {
		return fmt.Errorf("CONDUCTOR_WEB: %w", err)
	}
	p.addr = ln.Addr().String()
	p.http = &http.Server{Handler: p.srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	servers.Go(func() error {
		if err := p.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			p.log.Error("live board server", "err", err)
		}
		return nil
	})
	p.log.Info("live board listening", "address", p.addr, "public_url", p.cfg.PublicURL)
	return nil
}

// stop closes the pages' connections and the listener.
func (p *webPage) stop(ctx context.Context) {
	if p.srv == nil {
		return
	}
	p.srv.Close()
	if p.http != nil {
		p.http.Shutdown(ctx)
	}
}
