package ops

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"conductor/bot"
	"conductor/store"
)

// Listening is an HTTP server serving in the background.
type Listening struct {
	srv  *http.Server
	addr string
	done chan struct{}
}

// Listen serves srv on addr in the background until Shutdown; an error
// that stops it before is logged as what.
func Listen(addr string, srv *http.Server, log *slog.Logger, what string) (*Listening, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &Listening{srv: srv, addr: ln.Addr().String(), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error(what, "err", err)
		}
	}()
	return l, nil
}

// Addr is the address listened on (the port chosen for ":0"); "" for a
// nil Listening.
func (l *Listening) Addr() string {
	if l == nil {
		return ""
	}
	return l.addr
}

// Shutdown stops taking connections, waits for those open until ctx ends,
// and returns once the server has stopped. A nil Listening does nothing.
func (l *Listening) Shutdown(ctx context.Context) {
	if l == nil {
		return
	}
	l.srv.Shutdown(ctx)
	<-l.done
}

// ListenHealth serves Handler on addr (CONDUCTOR_HTTP) and says where, and
// whether hot backups are served there; "" serves nothing (nil).
func ListenHealth(addr string, b *bot.Bot, st *store.Store, backupToken string, log *slog.Logger) (*Listening, error) {
	if addr == "" {
		return nil, nil
	}
	l, err := Listen(addr, &http.Server{Handler: Handler(b, st, backupToken), ReadHeaderTimeout: 5 * time.Second}, log, "health server")
	if err != nil {
		return nil, err
	}
	log.Info("health check listening", "url", "http://"+l.Addr()+"/healthz")
	if backupToken == "" {
		log.Info("hot backups over HTTP are off: set CONDUCTOR_BACKUP_TOKEN to turn them on (docs/configuration.md)")
	} else {
		log.Info("hot backups served to this machine with CONDUCTOR_BACKUP_TOKEN", "url", "http://"+l.Addr()+BackupPath)
	}
	return l, nil
}
