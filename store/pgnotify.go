package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgListener is a Store's one connection that LISTENs for the changes of
// every process (notify.go) and feeds them to the hub. When the connection
// is lost it connects again, backing off up to listenBackoff, and tells
// the subscribers that changes may have been missed meanwhile.
type pgListener struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// notifyChannelOf is the notification channel of the Conductor whose tables
// are in schema: two Conductors sharing a database in two schemas do not
// hear each other.
func notifyChannelOf(schema string) string {
	name := "conductor." + schema
	if len(name) > 63 { // NAMEDATALEN-1: longer names are refused
		sum := sha256.Sum256([]byte(schema))
		name = "conductor." + hex.EncodeToString(sum[:16])
	}
	return name
}

// listenBackoff is the longest wait between two attempts to listen again.
const listenBackoff = 5 * time.Second

// subscribe starts the listener, once; the first LISTEN is in place when
// it returns, so that no change committed afterwards is missed.
func (b *pgBackend) subscribe(h *hub) error {
	b.listenMu.Lock()
	defer b.listenMu.Unlock()
	if b.listener != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := b.listen(ctx)
	if err != nil {
		cancel()
		return err
	}
	l := &pgListener{cancel: cancel, done: make(chan struct{})}
	b.listener = l
	go func() {
		defer close(l.done)
		wait := 100 * time.Millisecond
		for {
			err := receive(ctx, conn, h)
			conn.Close(context.Background())
			if ctx.Err() != nil {
				return
			}
			_ = err // the connection was lost: listen again
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
				if conn, err = b.listen(ctx); err == nil {
					break
				}
				wait = min(2*wait, listenBackoff)
			}
			wait = 100 * time.Millisecond
			h.missed()
		}
	}()
	return nil
}

// listen opens a connection of its own and LISTENs on it.
func (b *pgBackend) listen(ctx context.Context) (*pgx.Conn, error) {
	cctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(cctx, b.connCfg)
	if err != nil {
		return nil, b.wrap(err)
	}
	if _, err := conn.Exec(cctx, "LISTEN "+pgx.Identifier{b.notifyTo}.Sanitize()); err != nil {
		conn.Close(context.Background())
		return nil, b.wrap(err)
	}
	return conn, nil
}

// receive delivers notifications until the connection fails or ctx ends.
func receive(ctx context.Context, conn *pgx.Conn, h *hub) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		h.publish(n.Payload)
	}
}

func (l *pgListener) stop() {
	l.cancel()
	<-l.done
}
