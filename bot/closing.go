package bot

import (
	"time"
)

// closeWait bounds Close's wait for the shards' connections to end.
const closeWait = 5 * time.Second

// Close closes the gateway: every shard writes its close frame (1000: the sessions end, as
// the process does) and stops reconnecting. Call Stop first. It returns once the shards have
// stopped, or after closeWait.
func (b *Bot) Close() error {
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
	}
	shards, cancel := b.shards, b.gwCancel
	b.mu.Unlock()
	b.health.closed()
	if cancel != nil {
		cancel() // first: no shard reconnects once its connection ends
	}
	for _, c := range shards {
		c.close()
	}
	deadline := time.After(closeWait)
	for _, c := range shards {
		select {
		case <-c.done:
		case <-deadline:
			b.log.Warn("a gateway shard did not stop in time", "shard", c.id)
			return nil
		}
	}
	return nil
}
