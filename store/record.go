package store

import "time"

// Game statuses kept in GameRecord.Status.
const (
	StatusLobby     = "lobby"
	StatusPlaying   = "playing"
	StatusFinished  = "finished"
	StatusAbandoned = "abandoned"
)

// GameRecord is everything needed to rebuild one game: the engine replays Log
// from a game created with Map, Variant, Options, Seats and Seed.
type GameRecord struct {
	Channel string `json:"channel"` // Discord channel id, or "local:NAME" for terminal games
	Guild   string `json:"guild"`   // Discord guild id
	ID      string `json:"id"`      // unique game id; Put assigns one when empty
	Map     string `json:"map"`
	Variant string `json:"variant,omitempty"`
	// Options holds table settings such as bonus_tickets, turn_timer, confirm.
	Options map[string]string `json:"options,omitempty"`
	Seats   []Seat            `json:"seats,omitempty"`
	Host    string            `json:"host,omitempty"`
	Seed    uint64            `json:"seed"`
	// Rules is the engine's rules revision the game started under, so that
	// its log replays as it was played; 0 for games started before
	// revisions existed (engine.Revision1).
	Rules    int               `json:"rules,omitempty"`
	Log      []LogEntry        `json:"log,omitempty"`
	Created  time.Time         `json:"created"`
	Updated  time.Time         `json:"updated"`
	Status   string            `json:"status"`
	Messages map[string]string `json:"messages,omitempty"` // e.g. the last board message id
	// Due is when the game next needs attention without anyone acting (a
	// turn timer, a bot's move): the store keeps its games ordered by it
	// (deadlines.go). nil: nothing is due.
	Due *Deadline `json:"due,omitempty"`
}

// Deadline is a moment a game needs attention. The store orders games by
// At and knows nothing else of it: the rest says what falls due, in the
// service's terms.
type Deadline struct {
	At time.Time `json:"at"`
	// Kind says what falls due (a turn timer, a bot's move, a lobby's
	// expiry, or "check": look at the game and say).
	Kind string `json:"kind"`
	// Stage counts the steps of the deadline already taken (reminders sent).
	Stage int `json:"stage,omitempty"`
	// Moves is the length of the log the deadline was set for.
	Moves int `json:"moves,omitempty"`
}

// Seat is one place at the table, held by a member or a bot. A seat a
// member left in a running game (or was removed from) is played by a bot
// from then on: it keeps the member's UserID and Name, Bot holds the
// bot's level and LeftAt the number of moves played when the bot took
// over (TakenOver reports such a seat).
type Seat struct {
	UserID string `json:"user_id,omitempty"`
	Name   string `json:"name"`
	Bot    string `json:"bot,omitempty"` // bot level, "" for a human
	Color  string `json:"color,omitempty"`
	LeftAt int    `json:"left_at,omitempty"`
}

// TakenOver reports whether a bot plays the seat a member left.
func (s Seat) TakenOver() bool { return s.Bot != "" && s.UserID != "" }

// LogEntry is one applied action.
type LogEntry struct {
	Seat   int       `json:"seat"`
	Action string    `json:"action"` // the engine's text notation
	At     time.Time `json:"at"`
	// Interaction is the Discord interaction id that caused the action; a
	// second entry with the same id is refused so a retried interaction is
	// applied once (appending checks the last 32 moves at least: see
	// logTail.repeats).
	Interaction string `json:"interaction,omitempty"`
}
