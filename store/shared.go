package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Shared records: what the live page (web/) must find whichever process a
// request reaches when several serve one database — the activity
// instances the bot launched, the pages' sessions (by a hash of their
// token, never the token) and the moves a page sent to the process that
// owns the game's table. Each is a row of a kind, a key, an owner and a
// group (what the row is listed by: a user and a server for a session, a
// channel and a server for a move), an opaque value and an expiry; rows
// past their expiry read as absent and ExpireShared removes them.
//
// A bbolt file has one process: the live page keeps these in memory there
// (as before), and the bucket exists so that the contract is the same on
// both backends.

// sharedRow is one shared record.
type sharedRow struct {
	Kind, Key    string
	Owner, Group string
	Value        []byte
	Expires      int64 // Unix nanoseconds
}

// Shared record kinds.
const (
	sharedLaunch  = "launch"
	sharedSession = "session"
	sharedMove    = "move"
	sharedSocket  = "socket"
	sharedCount   = "count"
)

// SharedRecord is a shared record as the store gives it.
type SharedRecord struct {
	Key, Owner, Group string
	Value             []byte
	Expires           time.Time
}

func (r *sharedRow) record() SharedRecord {
	return SharedRecord{Key: r.Key, Owner: r.Owner, Group: r.Group, Value: r.Value, Expires: time.Unix(0, r.Expires)}
}

func live(r *sharedRow, now time.Time) bool { return r != nil && r.Expires > now.UnixNano() }

// PutLaunch records which game an activity instance shows, for every
// process, until expires.
func (s *Store) PutLaunch(instance, guild string, value []byte, expires time.Time) error {
	return s.update(func(t txn) error {
		return t.sharedPut(sharedRow{Kind: sharedLaunch, Key: instance, Owner: guild, Group: guild, Value: value, Expires: expires.UnixNano()})
	})
}

// Launch is a launch PutLaunch recorded, or an error wrapping ErrNotFound.
func (s *Store) Launch(instance string, now time.Time) (SharedRecord, error) {
	return s.sharedGet(sharedLaunch, instance, now)
}

func (s *Store) sharedGet(kind, key string, now time.Time) (SharedRecord, error) {
	var r *sharedRow
	err := s.be.viewOne(func(t txn) error {
		var err error
		r, err = t.sharedGet(kind, key)
		return err
	})
	if err != nil {
		return SharedRecord{}, err
	}
	if !live(r, now) {
		return SharedRecord{}, fmt.Errorf("%w: no %s %q", ErrNotFound, kind, key)
	}
	return r.record(), nil
}

// SessionLimits bound the sessions PutSession keeps.
type SessionLimits struct {
	// PerUser: a user's new session past it ends that user's oldest.
	PerUser int
	// Max: at it, the expired sessions go, else the oldest session of the
	// user holding the most.
	Max int
}

// PutSession keeps a page's session under key (a hash of its token; the
// token is never stored) for user in guild, until expires, within limits,
// and returns the keys of the sessions it ended to make room.
func (s *Store) PutSession(key, user, guild string, value []byte, expires time.Time, lim SessionLimits, now time.Time) (ended []string, err error) {
	err = s.update(func(t txn) error {
		ended = ended[:0]
		// Claims the sessions: of two processes adding at once, the
		// second counts the first's.
		if _, err := t.meta("lock:" + sharedSession); err != nil {
			return err
		}
		mine, err := t.sharedByOwner(sharedSession, user)
		if err != nil {
			return err
		}
		for i := 0; i <= len(mine)-lim.PerUser; i++ {
			if err := t.sharedDelete(sharedSession, mine[i].Key); err != nil {
				return err
			}
			ended = append(ended, mine[i].Key)
		}
		n, err := t.sharedCount(sharedSession)
		if err != nil {
			return err
		}
		if n-len(ended) >= lim.Max {
			gone, err := t.sharedExpire(sharedSession, now.UnixNano(), n)
			if err != nil {
				return err
			}
			ended = append(ended, gone...)
			if len(gone) == 0 {
				heavy, err := t.sharedHeaviest(sharedSession)
				if err != nil {
					return err
				}
				theirs, err := t.sharedByOwner(sharedSession, heavy)
				if err != nil {
					return err
				}
				if len(theirs) > 0 {
					if err := t.sharedDelete(sharedSession, theirs[0].Key); err != nil {
						return err
					}
					ended = append(ended, theirs[0].Key)
				}
			}
		}
		return t.sharedPut(sharedRow{Kind: sharedSession, Key: key, Owner: user, Group: guild, Value: value, Expires: expires.UnixNano()})
	})
	return ended, err
}

// Session is the session kept under key, or an error wrapping ErrNotFound.
func (s *Store) Session(key string, now time.Time) (SharedRecord, error) {
	return s.sharedGet(sharedSession, key, now)
}

// UpdateSession replaces a session's value, if it is still kept; false
// when it is not.
func (s *Store) UpdateSession(key string, value []byte) (bool, error) {
	kept := false
	err := s.update(func(t txn) error {
		r, err := t.sharedGet(sharedSession, key)
		if err != nil || r == nil {
			return err
		}
		kept = true
		r.Value = value
		return t.sharedPut(*r)
	})
	return kept, err
}

// DropSession ends a session.
func (s *Store) DropSession(key string) error {
	return s.update(func(t txn) error { return t.sharedDelete(sharedSession, key) })
}

// DropGuildSessions ends every session of a guild and returns their keys.
func (s *Store) DropGuildSessions(guild string) ([]string, error) {
	var keys []string
	err := s.update(func(t txn) error {
		keys = keys[:0]
		rows, err := t.sharedByGroup(sharedSession, guild)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := t.sharedDelete(sharedSession, r.Key); err != nil {
				return err
			}
			keys = append(keys, r.Key)
		}
		return nil
	})
	return keys, err
}

// CountIn counts one event of name in the window starting at window
// (every process counting alike), kept until expires, and says whether it
// is within limit: the limits of the whole bot, not of a process.
func (s *Store) CountIn(name string, limit int, window, expires time.Time) (bool, error) {
	ok := false
	err := s.update(func(t txn) error {
		key := name + "@" + strconv.FormatInt(window.UnixNano(), 10)
		r, err := t.sharedGet(sharedCount, key)
		if err != nil {
			return err
		}
		n := uint64(0)
		if r != nil && len(r.Value) == 8 {
			n = binary.BigEndian.Uint64(r.Value)
		}
		if ok = n < uint64(limit); !ok {
			return nil
		}
		return t.sharedPut(sharedRow{Kind: sharedCount, Key: key, Owner: name, Group: name,
			Value: binary.BigEndian.AppendUint64(nil, n+1), Expires: expires.UnixNano()})
	})
	return ok, err
}

// Open pages. Each process keeps a row per WebSocket it holds, renewed
// while it is open (a process that dies leaves rows that expire), so that
// the budgets of a user's and of a game's pages hold across processes.

// SocketLimits bound the open pages JoinSocket lets in.
type SocketLimits struct {
	// PerUser: a user's pages; PerGame: a game's; Spectators: a game's
	// pages of readers without a seat.
	PerUser, PerGame, Spectators int
}

// Socket is an open page as RenewSockets writes it again.
type Socket struct {
	Key, User, Channel string
	Seated             bool
}

func (k Socket) row(expires time.Time) sharedRow {
	v := []byte{'v'}
	if k.Seated {
		v[0] = 's'
	}
	return sharedRow{Kind: sharedSocket, Key: k.Key, Owner: k.User, Group: k.Channel, Value: v, Expires: expires.UnixNano()}
}

// JoinSocket counts an open page in, until expires, unless it would pass
// one of the limits (false).
func (s *Store) JoinSocket(k Socket, lim SocketLimits, expires, now time.Time) (bool, error) {
	ok := false
	err := s.update(func(t txn) error {
		ok = false
		// Claims the pages: of two processes letting one in at once, the
		// second counts the first's.
		if _, err := t.meta("lock:" + sharedSocket); err != nil {
			return err
		}
		mine, err := t.sharedByOwner(sharedSocket, k.User)
		if err != nil {
			return err
		}
		if countLive(mine, now, false) >= lim.PerUser {
			return nil
		}
		game, err := t.sharedByGroup(sharedSocket, k.Channel)
		if err != nil {
			return err
		}
		if countLive(game, now, false) >= lim.PerGame || (!k.Seated && countLive(game, now, true) >= lim.Spectators) {
			return nil
		}
		ok = true
		return t.sharedPut(k.row(expires))
	})
	return ok, err
}

// countLive counts the live rows (spectators': only those of readers
// without a seat).
func countLive(rows []sharedRow, now time.Time, spectators bool) int {
	n := 0
	for i := range rows {
		if live(&rows[i], now) && (!spectators || string(rows[i].Value) == "v") {
			n++
		}
	}
	return n
}

// RenewSockets keeps open pages counted until expires.
func (s *Store) RenewSockets(ks []Socket, expires time.Time) error {
	if len(ks) == 0 {
		return nil
	}
	return s.update(func(t txn) error {
		for _, k := range ks {
			if err := t.sharedPut(k.row(expires)); err != nil {
				return err
			}
		}
		return nil
	})
}

// LeaveSocket counts a page out.
func (s *Store) LeaveSocket(key string) error {
	return s.update(func(t txn) error { return t.sharedDelete(sharedSocket, key) })
}

// Forwarded moves. A page's move for a game whose table another process
// owns is posted as a row (PostMove) and announced to every process; the
// owner takes the channel's new rows (TakeMoves), applies them and
// answers each (AnswerMove), which is announced too; the poster reads the
// answer (MoveAnswer). The row's key is the move's id (the page's nonce):
// posted twice, it is one row, taken once.

// ErrMoveExists: PostMove found the move already posted.
var ErrMoveExists = errors.New("store: move already posted")

// Move states, the first byte of a move row's value.
const (
	moveNew      = 'n'
	moveTaken    = 't'
	moveAnswered = 'a'
)

// ForwardedMove is a move TakeMoves handed to the table's owner.
type ForwardedMove struct {
	ID, Guild, Channel string
	Data               []byte
}

// PostMove posts a page's move for the owner of channel's table, kept
// until expires; ErrMoveExists when a move of that id was posted before
// (its answer is then MoveAnswer's).
func (s *Store) PostMove(id, guild, channel string, data []byte, expires time.Time) error {
	return s.update(func(t txn) error {
		r, err := t.sharedGet(sharedMove, id)
		if err != nil {
			return err
		}
		if r != nil {
			return ErrMoveExists
		}
		v := append([]byte{moveNew}, data...)
		if err := t.sharedPut(sharedRow{Kind: sharedMove, Key: id, Owner: channel, Group: guild, Value: v, Expires: expires.UnixNano()}); err != nil {
			return err
		}
		return t.notify(movesNotice + guild + "/" + channel)
	})
}

// TakeMoves claims the moves posted for channel and not yet taken, oldest
// first (moves past their expiry are left to expire: their page was told
// to try again).
func (s *Store) TakeMoves(channel string, now time.Time) ([]ForwardedMove, error) {
	var out []ForwardedMove
	err := s.update(func(t txn) error {
		out = out[:0]
		rows, err := t.sharedByOwner(sharedMove, channel)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if len(r.Value) == 0 || r.Value[0] != moveNew || !live(&r, now) {
				continue
			}
			// Claimed again, row by row: another taker may have been first.
			cur, err := t.sharedGet(sharedMove, r.Key)
			if err != nil {
				return err
			}
			if cur == nil || len(cur.Value) == 0 || cur.Value[0] != moveNew {
				continue
			}
			out = append(out, ForwardedMove{ID: r.Key, Guild: r.Group, Channel: r.Owner, Data: cur.Value[1:]})
			cur.Value = []byte{moveTaken}
			if err := t.sharedPut(*cur); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// MovesWaiting lists the guild and channel of every move posted and not
// yet taken (a sweep after notifications were missed).
func (s *Store) MovesWaiting(now time.Time) ([][2]string, error) {
	var out [][2]string
	err := s.be.view(func(t txn) error {
		out = out[:0]
		rows, err := t.sharedAll(sharedMove)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, r := range rows {
			if len(r.Value) > 0 && r.Value[0] == moveNew && live(&r, now) && !seen[r.Owner] {
				seen[r.Owner] = true
				out = append(out, [2]string{r.Group, r.Owner})
			}
		}
		return nil
	})
	return out, err
}

// AnswerMove stores the answer to a move taken, kept until expires.
func (s *Store) AnswerMove(id string, answer []byte, expires time.Time) error {
	return s.update(func(t txn) error {
		r, err := t.sharedGet(sharedMove, id)
		if err != nil || r == nil {
			return err
		}
		r.Value = append([]byte{moveAnswered}, answer...)
		r.Expires = expires.UnixNano()
		if err := t.sharedPut(*r); err != nil {
			return err
		}
		return t.notify(answersNotice + r.Owner)
	})
}

// MoveAnswer is the answer to a posted move; answered is false while the
// owner has not answered it (or the move is unknown: ErrNotFound).
func (s *Store) MoveAnswer(id string, now time.Time) (answer []byte, answered bool, err error) {
	r, err := s.sharedGet(sharedMove, id, now)
	if err != nil {
		return nil, false, err
	}
	if len(r.Value) > 0 && r.Value[0] == moveAnswered {
		return r.Value[1:], true, nil
	}
	return nil, false, nil
}

// ExpireShared removes the shared records past their expiry, up to limit
// of each kind, and counts them.
func (s *Store) ExpireShared(now time.Time, limit int) (int, error) {
	n := 0
	err := s.update(func(t txn) error {
		n = 0
		for _, kind := range []string{sharedLaunch, sharedSession, sharedMove, sharedSocket, sharedCount} {
			gone, err := t.sharedExpire(kind, now.UnixNano(), limit)
			if err != nil {
				return err
			}
			n += len(gone)
		}
		return nil
	})
	return n, err
}

// The notifications of forwarded moves and their answers, beside the
// channels of changed games (notify.go): a channel id never starts so.
const (
	movesNotice     = "moves:"
	answersNotice   = "answers:"
	forgottenNotice = "forgotten:"
)

// NotifyForgotten tells every process that guild's games were forgotten
// (its pages and replays end everywhere).
func (s *Store) NotifyForgotten(guild string) error {
	return s.be.update(func(t txn) error { return t.notify(forgottenNotice + guild) })
}

// parseNotice reads a notification's payload into a Change.
func parseNotice(payload string) Change {
	if rest, ok := strings.CutPrefix(payload, movesNotice); ok {
		guild, channel, _ := strings.Cut(rest, "/")
		return Change{Channel: channel, Guild: guild, Moves: true}
	}
	if rest, ok := strings.CutPrefix(payload, answersNotice); ok {
		return Change{Channel: rest, Answers: true}
	}
	if rest, ok := strings.CutPrefix(payload, forgottenNotice); ok {
		return Change{Guild: rest, Forgotten: true}
	}
	return Change{Channel: payload}
}
