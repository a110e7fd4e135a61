package store

// The indexes find by key what a request needs, instead of reading every
// game: the live games of a server, the games played in the threads of a
// channel, the rematch of a game, and the deadlines (deadlines.go). They
// are derived from the games' headers and written in the transaction that
// writes the header: buckets beside the records in a bbolt file
// (boltindex.go), columns of the games table with their SQL indexes on
// PostgreSQL (pgschema.go).

// Options of a record the indexes read.
const (
	optionParent    = "parent"     // the channel whose thread the game is played in
	optionRematchOf = "rematch_of" // the id of the game this one is the rematch of
	optionLocale    = "locale"     // the language of the table (the archive keeps it)
)

// members are the ids of the people seated at a table.
func members(rec *GameRecord) []string {
	var ids []string
	for _, st := range rec.Seats {
		if st.Bot == "" && st.UserID != "" {
			ids = append(ids, st.UserID)
		}
	}
	return ids
}

// Thread is a live game played in a thread of a channel.
type Thread struct {
	Channel string   // the thread
	Members []string // the ids of the people seated there
}

// Threads lists the live games played in threads of parent, by thread id.
func (s *Store) Threads(parent string) ([]Thread, error) {
	var out []Thread
	err := s.viewOne(func(t txn) (err error) {
		out, err = t.threads(parent)
		return err
	})
	return out, err
}

// RematchOf returns the channel of the live game opened as the rematch of
// game id, or ErrNotFound.
func (s *Store) RematchOf(id string) (string, error) {
	var ch string
	err := s.viewOne(func(t txn) (err error) {
		ch, err = t.rematchOf(id)
		return err
	})
	return ch, err
}

// Guilds lists the servers with live or archived games here, sorted.
func (s *Store) Guilds() ([]string, error) {
	var out []string
	err := s.viewOne(func(t txn) (err error) {
		out, err = t.guilds()
		return err
	})
	return out, err
}

// GuildCounts counts a server's live and archived games.
func (s *Store) GuildCounts(guild string) (live, archived int, err error) {
	err = s.viewOne(func(t txn) (err error) {
		live, archived, err = t.guildCounts(guild)
		return err
	})
	return live, archived, err
}
