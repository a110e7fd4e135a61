package fakediscord

import (
	"net/http"
	"time"
)

// The fake keeps Discord's time apart from the machine's: the ids it hands out
// (snowflakes carry their creation time), the Date header of every REST answer,
// the age of interaction tokens and of nonces all follow Now, which a test may
// set ahead of or behind the clock the bot reads (Options.ClockOffset,
// AdvanceClock), as a host whose clock drifted would see Discord.

// Now is Discord's time as the fake keeps it: the machine's clock moved by
// Options.ClockOffset and every AdvanceClock since.
func (s *Server) Now() time.Time {
	return time.Now().Add(time.Duration(s.clockOffset.Load()))
}

// AdvanceClock moves the fake's clock by d (negative: back), for example past
// the 15 minutes an interaction token lives.
func (s *Server) AdvanceClock(d time.Duration) {
	s.clockOffset.Add(int64(d))
	s.mu.Lock()
	s.changedLocked()
	s.mu.Unlock()
}

// dateHeader stamps an answer with the fake's time, as Discord's Date header
// (whole seconds, RFC 7231): net/http would otherwise write the machine's.
func (s *Server) dateHeader(w http.ResponseWriter) {
	w.Header().Set("Date", s.Now().UTC().Format(http.TimeFormat))
}

// tokenLifetime is how long an interaction token takes follow-ups and edits.
const tokenLifetime = 15 * time.Minute
