package bot

import (
	"net/http"
	"testing"
	"time"
)

// Discord's Date headers, whole seconds at various instants, pin this
// machine's clock offset down well below a second; a clock set meanwhile
// is followed at once.
func TestClockOffsetFromDateHeaders(t *testing.T) {
	t.Parallel()
	var c discordClock
	if c.offset() != 0 {
		t.Fatal("an offset before any answer")
	}
	discord := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	answer := func(ahead time.Duration, at time.Duration) {
		// Discord stamps its answer at discord+at, in whole seconds; the
		// request took 40 ms on this machine's clock, which is ahead.
		stamp := discord.Add(at).Truncate(time.Second).Format(http.TimeFormat)
		sent := discord.Add(at).Add(ahead - 20*time.Millisecond)
		c.observe(sent, sent.Add(40*time.Millisecond), stamp)
	}
	for i := range 20 {
		answer(5*time.Second, time.Duration(i)*370*time.Millisecond)
	}
	if off := c.offset(); off < 4800*time.Millisecond || off > 5200*time.Millisecond {
		t.Errorf("offset %v, want 5s ± 200ms", off)
	}
	// The machine's clock is set right: the next answer disagrees with
	// the ones before, and wins.
	answer(0, 30*time.Second)
	if off := c.offset(); off < -time.Second || off > time.Second {
		t.Errorf("offset %v after the clock was set, want about 0", off)
	}
	c.observe(time.Now(), time.Now(), "not a date")
	if off := c.offset(); off < -time.Second || off > time.Second {
		t.Errorf("an unreadable Date changed the offset to %v", off)
	}
}
