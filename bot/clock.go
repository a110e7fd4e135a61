package bot

import (
	"net/http"
	"sync"
	"time"
)

// An interaction is judged too old to answer by the time in its id, which
// is Discord's clock. This machine's clock may be off (a host a few seconds
// fast would judge every interaction old and answer none), so Discord's time
// is estimated from the Date header of its answers to the bot's requests.

// discordClock follows the offset between this machine's clock and
// Discord's.
type discordClock struct {
	mu      sync.Mutex
	samples [clockSamples]offsetBounds
	n, next int
}

// clockSamples recent answers bound the offset.
const clockSamples = 32

// offsetBounds: the offset (this machine's clock minus Discord's) lies in
// [lo, hi].
type offsetBounds struct{ lo, hi time.Duration }

// observe reads the Date header of an answer to a request sent and
// answered at those times of this machine's clock. Discord stamped the
// answer at an instant between the two, in whole seconds (it may have been
// up to a second later than the stamp): the offset lies between sent minus
// the stamp minus a second and received minus the stamp.
func (c *discordClock) observe(sent, received time.Time, date string) {
	d, err := http.ParseTime(date)
	if err != nil {
		return
	}
	b := offsetBounds{lo: sent.Sub(d) - time.Second, hi: received.Sub(d)}
	c.mu.Lock()
	c.samples[c.next] = b
	c.next = (c.next + 1) % clockSamples
	c.n = min(c.n+1, clockSamples)
	c.mu.Unlock()
}

// offset is the estimate of this machine's clock minus Discord's: the middle
// of the bounds the recent answers agree on, or of the newest answer's when
// they disagree (a clock was set meanwhile); zero before any answer.
func (c *discordClock) offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		return 0
	}
	newest := c.samples[(c.next+clockSamples-1)%clockSamples]
	agreed := newest
	for i := range c.n {
		s := c.samples[i]
		agreed.lo, agreed.hi = max(agreed.lo, s.lo), min(agreed.hi, s.hi)
	}
	if agreed.lo > agreed.hi {
		agreed = newest
	}
	return (agreed.lo + agreed.hi) / 2
}

// now is Discord's time, as best known.
func (c *discordClock) now() time.Time {
	return time.Now().Add(-c.offset())
}

// clockedTransport passes the Date header of every answer to a clock.
type clockedTransport struct {
	next  http.RoundTripper
	clock *discordClock
}

func (t *clockedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	sent := time.Now()
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		if date := resp.Header.Get("Date"); date != "" {
			t.clock.observe(sent, time.Now(), date)
		}
	}
	return resp, err
}
