package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Pacing spaces out what the processes of a fleet do under one of
// Discord's limits, which are the bot's and not a process's: the REST
// requests under the global limit, the gateway logins of each identify
// bucket. A pace is a key and the time its next slot is free, by the
// database's clock: Reserve takes the next slot and moves it on by the
// spacing, so that slots handed out to every process are at least that far
// apart. On a file (one process) the pace is kept in memory.

// Reserve takes the next slot of the pace key, spaced at least spacing
// after the previous one, and returns how long to wait until it (0: now).
// A slot not used (the caller gave up) is lost, never given twice.
func (s *Store) Reserve(ctx context.Context, key string, spacing time.Duration) (time.Duration, error) {
	if spacing <= 0 {
		return 0, fmt.Errorf("store: a pace of %v", spacing)
	}
	if err := s.ready(); err != nil {
		return 0, err
	}
	if pb, ok := s.be.(*pgBackend); ok {
		return pb.reserve(ctx, key, spacing)
	}
	return s.pace.reserve(key, spacing, time.Now()), nil
}

// memoryPace keeps the paces of a file's one process.
type memoryPace struct {
	mu   sync.Mutex
	next map[string]time.Time
}

func (m *memoryPace) reserve(key string, spacing time.Duration, now time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.next == nil {
		m.next = map[string]time.Time{}
	}
	slot := m.next[key]
	if slot.Before(now) {
		slot = now
	}
	m.next[key] = slot.Add(spacing)
	return slot.Sub(now)
}

// reserve is one statement: the row is claimed by the upsert, so that two
// processes reserving at once get consecutive slots.
func (b *pgBackend) reserve(ctx context.Context, key string, spacing time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	var waitMicros int64
	err := b.pool.QueryRow(ctx, `INSERT INTO pacing AS p (key, next) VALUES ($1, clock_timestamp() + $2 * interval '1 microsecond')
		ON CONFLICT (key) DO UPDATE SET next = greatest(p.next, clock_timestamp()) + $2 * interval '1 microsecond'
		RETURNING (extract(epoch FROM (p.next - $2 * interval '1 microsecond' - clock_timestamp())) * 1000000)::bigint`,
		key, micros(spacing)).Scan(&waitMicros)
	if err != nil {
		if err == pgx.ErrNoRows {
			err = fmt.Errorf("store: no slot of %s", key)
		}
		return 0, b.wrap(err)
	}
	return max(0, time.Duration(waitMicros)*time.Microsecond), nil
}
