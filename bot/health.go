package bot

import (
	"strconv"
	"sync"
	"time"
)

// Health is the gateway's state, for /healthz.
type Health struct {
	// Connected: every shard of the process is connected and its heartbeats
	// are answered.
	Connected bool `json:"connected"`
	// LastHeartbeatAck is the oldest of the shards' last acknowledged
	// heartbeats.
	LastHeartbeatAck time.Time `json:"last_heartbeat_ack,omitzero"`
	// DownSince is when the longest outage of a shard began (zero while every
	// shard is connected, or is still waiting for its first login or for
	// Discord's logins to renew: a restart would not help those).
	DownSince time.Time `json:"down_since,omitzero"`
	// ShardCount is the bot's number of shards; Shards, those this process
	// runs.
	ShardCount int           `json:"shard_count,omitempty"`
	Shards     []ShardHealth `json:"shards,omitempty"`
	// CommandsRegistered: the registration of the commands (on the first
	// READY) succeeded.
	CommandsRegistered bool   `json:"commands_registered"`
	RegistrationError  string `json:"registration_error,omitempty"`
	// Deferred counts interactions answered late through a deferral.
	Deferred int64 `json:"deferred"`
	// RESTFailures counts the REST requests that failed in a row (reset by
	// any success); refusals such as a missing permission do not count.
	RESTFailures int64 `json:"rest_failures"`
	// DroppedInteractions counts the interactions dropped as too old to
	// answer; DroppedInARow, those since one was last answered.
	DroppedInteractions int64 `json:"dropped_interactions"`
	DroppedInARow       int64 `json:"dropped_in_a_row"`
	// ClockOffsetMillis is how far this machine's clock is ahead of
	// Discord's, as read from Discord's answers.
	ClockOffsetMillis int64 `json:"clock_offset_ms"`
	// RefusedChannels are the channels where Discord refuses the bot's
	// posts (a moderator took a permission away): their posts wait for a
	// player to act there. Not a problem of the bot's health.
	RefusedChannels []RefusedChannel `json:"refused_channels,omitempty"`
	// GlobalRequests counts the REST requests since the start that fall under
	// Discord's global rate limit; Moves, the moves people made; PerMove, the
	// one divided by the other (interaction endpoints are exempt).
	GlobalRequests int64   `json:"global_requests"`
	Moves          int64   `json:"moves"`
	PerMove        float64 `json:"global_requests_per_move,omitempty"`
	// InvalidRequests counts the answers 401, 403 and 429 of the last ten
	// minutes: Discord bans the address after 10,000.
	InvalidRequests int `json:"invalid_requests_10m"`
}

// ShardHealth is one shard's connection.
type ShardHealth struct {
	ID int `json:"id"`
	// State says what the shard is doing: connected, waiting for its turn
	// to log in, waiting for Discord's gateway logins to renew, connecting,
	// logging in, resuming, reconnecting, stopped.
	State            string    `json:"state"`
	Connected        bool      `json:"connected"`
	LastHeartbeatAck time.Time `json:"last_heartbeat_ack,omitzero"`
	DownSince        time.Time `json:"down_since,omitzero"`
	// Logins counts its IDENTIFYs, Resumes its RESUMEs Discord accepted,
	// Interactions the interactions it received.
	Logins       int64  `json:"logins"`
	Resumes      int64  `json:"resumes"`
	Interactions int64  `json:"interactions"`
	Error        string `json:"error,omitempty"`
}

// waiting: not connected, and no restart would help (its first login is
// still to come, or Discord's logins are used up).
func (s ShardHealth) waiting() bool {
	return !s.Connected && (s.State == stateLimit || s.State == stateStarting && s.DownSince.IsZero())
}

// RefusedChannel is a channel where Discord refuses the bot's posts.
type RefusedChannel struct {
	Channel string    `json:"channel"`
	Code    int       `json:"code"` // Discord's error code: 50001 Missing Access, 50013 Missing Permissions...
	Since   time.Time `json:"since"`
}

// Discord asks for a heartbeat every 41.25 s (the HELLO interval, the same
// for every bot); two missed acknowledgements mean a silent connection.
const (
	HeartbeatInterval = 41250 * time.Millisecond
	SilentAfter       = 2 * HeartbeatInterval
	// FailingAfter REST failures in a row mean Discord's API is failing us.
	FailingAfter = 5
	// DroppingAfter interactions dropped in a row mean the bot no longer
	// answers anyone (a RESUME's replay of a long outage drops a few).
	DroppingAfter = 10
)

// Problems says what is wrong with the connection at now, in words.
func (h Health) Problems(now time.Time) []string {
	var out []string
	if len(h.Shards) == 0 {
		if !h.Connected {
			out = append(out, "gateway disconnected")
		} else if !h.LastHeartbeatAck.IsZero() && now.Sub(h.LastHeartbeatAck) > SilentAfter {
			out = append(out, "gateway silent: no heartbeat acknowledged for "+now.Sub(h.LastHeartbeatAck).Round(time.Second).String())
		}
	}
	starting, shown := 0, 0
	const showShards = 10
	for _, s := range h.Shards {
		var p string
		switch {
		case s.waiting() && s.State == stateStarting:
			starting++
		case !s.Connected:
			p = "gateway shard " + strconv.Itoa(s.ID) + " " + s.State
			if s.Error != "" {
				p += ": " + s.Error
			}
		case !s.LastHeartbeatAck.IsZero() && now.Sub(s.LastHeartbeatAck) > SilentAfter:
			p = "gateway shard " + strconv.Itoa(s.ID) + " silent: no heartbeat acknowledged for " + now.Sub(s.LastHeartbeatAck).Round(time.Second).String()
		}
		if p != "" {
			if shown++; shown <= showShards {
				out = append(out, p)
			}
		}
	}
	if shown > showShards {
		out = append(out, strconv.Itoa(shown-showShards)+" more gateway shards with problems")
	}
	if starting > 0 {
		out = append(out, strconv.Itoa(starting)+" of "+strconv.Itoa(len(h.Shards))+" gateway shards still waiting for their turn to log in (Discord lets max_concurrency shards log in every 5 s)")
	}
	if !h.CommandsRegistered {
		out = append(out, "slash commands not registered")
	}
	if h.InvalidRequests >= InvalidRequestsAlarm {
		out = append(out, strconv.Itoa(h.InvalidRequests)+" requests refused (401, 403, 429) in 10 minutes: Discord bans the address at "+strconv.Itoa(InvalidRequestsBan))
	}
	if h.RESTFailures >= FailingAfter {
		out = append(out, "Discord's API failing: "+strconv.FormatInt(h.RESTFailures, 10)+" requests in a row")
	}
	if h.DroppedInARow >= DroppingAfter {
		out = append(out, "interactions dropped as too old to answer: "+strconv.FormatInt(h.DroppedInARow, 10)+
			" in a row (this machine's clock is "+(time.Duration(h.ClockOffsetMillis)*time.Millisecond).String()+" ahead of Discord's)")
	}
	return out
}

// health keeps what the shards do not: the registration's outcome, and
// since when the gateway is down when no shard runs (before Start, after
// Close).
type health struct {
	mu       sync.Mutex
	since    time.Time
	isClosed bool
	regErr   string
	regOK    bool
}

func (h *health) init() {
	h.mu.Lock()
	h.since = time.Now()
	h.mu.Unlock()
}

func (h *health) closed() {
	h.mu.Lock()
	if !h.isClosed {
		h.isClosed, h.since = true, time.Now()
	}
	h.mu.Unlock()
}

func (h *health) registered(err error) {
	h.mu.Lock()
	h.regOK = err == nil
	h.regErr = ""
	if err != nil {
		h.regErr = err.Error()
	}
	h.mu.Unlock()
}

// health is the shard's state.
func (c *shardConn) health() ShardHealth {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := ShardHealth{ID: c.id, State: c.state, Connected: c.connected, DownSince: c.downSince,
		Logins: c.logins.Load(), Resumes: c.resumes.Load(), Interactions: c.interactions.Load()}
	if c.connected {
		s.LastHeartbeatAck = c.lastAck
	}
	if c.err != nil {
		s.Error = c.err.Error()
	}
	if s.State == stateStarting {
		if g, ok := c.b.identify.(interface{ Exhausted() (bool, time.Time) }); ok {
			if used, _ := g.Exhausted(); used {
				s.State = stateLimit
			}
		}
	}
	return s
}

// Health reports the gateway's state.
func (b *Bot) Health() Health {
	h := Health{Deferred: b.deferrals.Load(), RESTFailures: b.restFailures.Load(),
		DroppedInteractions: b.dropped.Load(), DroppedInARow: b.droppedInARow.Load(), ClockOffsetMillis: b.clock.offset().Milliseconds(),
		RefusedChannels: b.refusedChannels()}
	h.GlobalRequests, h.Moves = b.GlobalRequests()
	if h.Moves > 0 {
		h.PerMove = float64(h.GlobalRequests) / float64(h.Moves)
	}
	h.InvalidRequests = b.InvalidRequests()
	b.mu.Lock()
	shards, count := b.shards, b.shardCount
	b.mu.Unlock()
	b.health.mu.Lock()
	h.CommandsRegistered, h.RegistrationError = b.health.regOK, b.health.regErr
	closed, since := b.health.isClosed, b.health.since
	b.health.mu.Unlock()
	if closed || len(shards) == 0 {
		h.DownSince = since
		return h
	}
	h.ShardCount, h.Connected = count, true
	for _, c := range shards {
		s := c.health()
		h.Shards = append(h.Shards, s)
		if !s.Connected {
			h.Connected = false
		} else if h.LastHeartbeatAck.IsZero() || s.LastHeartbeatAck.Before(h.LastHeartbeatAck) {
			h.LastHeartbeatAck = s.LastHeartbeatAck
		}
		if !s.waiting() && !s.DownSince.IsZero() && (h.DownSince.IsZero() || s.DownSince.Before(h.DownSince)) {
			h.DownSince = s.DownSince
		}
	}
	return h
}
