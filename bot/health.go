package bot

import (
	"strconv"
	"sync"
	"time"
)

// Health is the gateway's state, for /healthz.
type Health struct {
	// Connected: the gateway connection is up and heartbeats are answered.
	Connected bool `json:"connected"`
	// LastHeartbeatAck is when Discord last acknowledged a heartbeat.
	LastHeartbeatAck time.Time `json:"last_heartbeat_ack,omitzero"`
	// DownSince is when the connection was lost (zero while connected).
	DownSince time.Time `json:"down_since,omitzero"`
	// CommandsRegistered: the last READY's command registration succeeded.
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
	if !h.Connected {
		out = append(out, "gateway disconnected")
	} else if !h.LastHeartbeatAck.IsZero() && now.Sub(h.LastHeartbeatAck) > SilentAfter {
		out = append(out, "gateway silent: no heartbeat acknowledged for "+now.Sub(h.LastHeartbeatAck).Round(time.Second).String())
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

// health follows connection events. discordgo delivers events in separate
// goroutines, so their order is not reliable: Health trusts discordgo's own
// flag for "connected" and uses the events only to date an outage.
type health struct {
	mu        sync.Mutex
	downSince time.Time
	regErr    string
	regOK     bool
}

func (h *health) init() {
	h.mu.Lock()
	h.downSince = time.Now()
	h.mu.Unlock()
}

func (h *health) up() {
	h.mu.Lock()
	h.downSince = time.Time{}
	h.mu.Unlock()
}

func (h *health) down() {
	h.mu.Lock()
	if h.downSince.IsZero() {
		h.downSince = time.Now()
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

// Health reports the gateway's state.
func (b *Bot) Health() Health {
	// Both fields are written under the session's lock (LastHeartbeatSent
	// is not, so it is not read here).
	b.s.RLock()
	connected := b.s.DataReady
	ack := b.s.LastHeartbeatAck
	b.s.RUnlock()
	h := Health{Connected: connected, LastHeartbeatAck: ack, Deferred: b.deferrals.Load(), RESTFailures: b.restFailures.Load(),
		DroppedInteractions: b.dropped.Load(), DroppedInARow: b.droppedInARow.Load(), ClockOffsetMillis: b.clock.offset().Milliseconds(),
		RefusedChannels: b.refusedChannels()}
	h.GlobalRequests, h.Moves = b.GlobalRequests()
	if h.Moves > 0 {
		h.PerMove = float64(h.GlobalRequests) / float64(h.Moves)
	}
	h.InvalidRequests = b.InvalidRequests()
	b.health.mu.Lock()
	defer b.health.mu.Unlock()
	if connected {
		b.health.downSince = time.Time{}
	} else if b.health.downSince.IsZero() {
		b.health.downSince = time.Now()
	}
	h.DownSince = b.health.downSince
	h.CommandsRegistered, h.RegistrationError = b.health.regOK, b.health.regErr
	return h
}
