package fakediscord

import (
	"encoding/json"
	"fmt"
	"time"
)

// Gateway logins as Discord rations them (Gateway → Identifying, Rate Limiting, Sharding →
// Max Concurrency, Session Start Limit Object):
//
//   - Identify pacing: shards fall in max_concurrency buckets (rate_limit_key = shard_id %
//     max_concurrency); each bucket takes one IDENTIFY per 5 seconds. "If you hit this limit,
//     the Gateway will respond with an Invalid Session (opcode 9)": the fake answers a
//     too-early IDENTIFY with op 9 (d: false), starts no session and records a GatewayFault.
//     (Close code 4008 is another limit, 120 payloads a minute on one connection.)
//   - Session starts: 1,000 IDENTIFYs a day (session_start_limit.total). "Upon hitting this
//     limit, all active sessions for the app will be terminated, the bot token will be reset":
//     an IDENTIFY with none left closes every connection with 4004, and from then on the token
//     is refused, on the gateway and over REST (401); recorded as a GatewayFault.
//   - 4011 Sharding required: a session whose shard would hold more guilds than
//     Options.MaxGuildsPerShard (2,500 on Discord).
//   - READY's resume_gateway_url (ResumeGatewayURL) differs from the URL GET /gateway gives:
//     "If your app doesn't use the resume_gateway_url when reconnecting, it will experience
//     disconnects at a higher rate than normal." The fake accepts a RESUME on the first URL
//     and records it as a GatewayFault.

// GatewayFault is something a client did on the gateway that Discord punishes: an IDENTIFY
// sooner than its bucket allows, one past the session start limit, a RESUME on the wrong URL.
type GatewayFault struct {
	Time  time.Time
	Conn  int
	Shard int
	What  string
}

func (f GatewayFault) String() string {
	return fmt.Sprintf("connection %d, shard %d: %s", f.Conn, f.Shard, f.What)
}

// sessionStartsPerDay is Discord's session_start_limit.total for a bot below 150,000 guilds.
const sessionStartsPerDay = 1000

// gatewayFaultLocked records a fault. The caller holds s.mu.
func (s *Server) gatewayFaultLocked(conn *gatewayConn, shard int, format string, args ...any) {
	s.gatewayFaults = append(s.gatewayFaults, GatewayFault{Time: time.Now(), Conn: conn.id, Shard: shard, What: fmt.Sprintf(format, args...)})
	s.changedLocked()
}

// GatewayFaults lists what clients did on the gateway that Discord punishes, oldest first.
// CheckClean fails a test on any.
func (s *Server) GatewayFaults() []GatewayFault {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]GatewayFault(nil), s.gatewayFaults...)
}

// bucketOf is a shard's identify rate-limit key.
func (s *Server) bucketOf(shard int) int { return shard % s.opts.MaxConcurrency }

// sessionStartsLocked renews the day's session starts once their reset time has passed, and
// returns those left and the time until they are renewed. The caller holds s.mu.
func (s *Server) sessionStartsLocked(now time.Time) (left int, resetAfter time.Duration) {
	if !now.Before(s.startsReset) {
		s.startsLeft = s.opts.SessionStarts
		s.startsReset = now.Add(24 * time.Hour)
	}
	return s.startsLeft, s.startsReset.Sub(now)
}

// SetSessionStartLimit sets the session starts left and when the day's count renews (GET
// /gateway/bot's session_start_limit.remaining and reset_after).
func (s *Server) SetSessionStartLimit(remaining int, resetAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.startsLeft = remaining
	s.startsReset = s.Now().Add(resetAfter)
	s.changedLocked()
}

// SessionStartsLeft is session_start_limit.remaining.
func (s *Server) SessionStartsLeft() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	left, _ := s.sessionStartsLocked(s.Now())
	return left
}

// SetRecommendedShards changes GET /gateway/bot's "shards" (the bot joined many servers).
func (s *Server) SetRecommendedShards(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.RecommendedShards = n
}

// TokenReset reports whether the fake reset the bot's token (an IDENTIFY past the session
// start limit): every request and login with it is refused since.
func (s *Server) TokenReset() bool { return s.tokenReset.Load() }

// admitIdentify applies the login limits to a valid IDENTIFY of shard, in order: sharding
// required, the bucket's pacing, the session starts left. It answers a refusal itself and
// returns false (keep is whether the connection stays open: op 9 leaves it to the client).
func (s *Server) admitIdentify(conn *gatewayConn, shard [2]int) (ok, keep bool) {
	s.mu.Lock()
	guilds := 0
	for _, gid := range s.guildOrder {
		if ShardFor(gid, shard[1]) == shard[0] {
			guilds++
		}
	}
	if guilds > s.opts.MaxGuildsPerShard {
		s.mu.Unlock()
		conn.closeWith(4011, "Sharding required.")
		return false, false
	}
	now := s.Now()
	bucket := s.bucketOf(shard[0])
	if last, seen := s.identifyAt[bucket]; seen && s.opts.IdentifyInterval > 0 && now.Sub(last) < s.opts.IdentifyInterval {
		s.gatewayFaultLocked(conn, shard[0], "IDENTIFY %v after the previous one of bucket %d (max_concurrency %d): Discord takes one per %v; answered op 9",
			now.Sub(last).Round(time.Millisecond), bucket, s.opts.MaxConcurrency, s.opts.IdentifyInterval)
		s.mu.Unlock()
		invalid, _ := json.Marshal(map[string]any{"op": opInvalidSession, "d": false, "s": nil, "t": nil})
		s.logFrame(conn, shard[0], false, invalid)
		return false, conn.write(invalid) == nil
	}
	if left, _ := s.sessionStartsLocked(now); left <= 0 {
		s.gatewayFaultLocked(conn, shard[0], "IDENTIFY with no session start left (%d a day): Discord ends every session and resets the token", s.opts.SessionStarts)
		s.tokenReset.Store(true)
		conns := make([]*gatewayConn, 0, len(s.conns))
		for c := range s.conns {
			conns = append(conns, c)
		}
		s.mu.Unlock()
		for _, c := range conns {
			c.closeWith(4004, "Authentication failed.")
		}
		return false, false
	}
	s.startsLeft--
	s.identifyAt[bucket] = now
	s.mu.Unlock()
	return true, true
}
