package store

import (
	"strings"
	"time"
)

// The store is one contract over two backends: a bbolt file (bolt*.go, the
// embedded default) and PostgreSQL (pg*.go, for fleets). What the store
// promises — a move commits in one transaction with its posts, deadlines
// and snapshot; an interaction applies once; the indexes say what the
// records say — is written once, in the files named after what they keep
// (games.go, gamelog.go, outbox.go, archive.go, ...), over txn: the typed
// operations of one transaction, which each backend implements on its own
// layout. A backend adds no rule of its own; where the two differ (how
// writers are kept apart, how indexes are kept), the txn methods say what
// each must guarantee.

// backend is a database the store runs transactions on.
type backend interface {
	// view runs fn in a read-only transaction that sees one consistent
	// state of the database.
	view(fn func(txn) error) error
	// viewOne is view for an fn that reads with one statement, which
	// sees one state by itself (PostgreSQL runs it without a transaction).
	viewOne(fn func(txn) error) error
	// update runs fn in a read-write transaction: everything fn writes
	// commits together or not at all. fn may run more than once (a
	// backend retries a transaction that lost a race with another writer),
	// so it must not act outside the transaction.
	update(fn func(txn) error) error
	close() error
	// kind is "bbolt" or "postgres"; name what to call the database in a
	// message (a file's path, an address without its password).
	kind() string
	name() string
	schemaVersion() (int, error)
	latestSchema() int
	migrate() (from, to int, err error)
	leaseBackend
	// subscribe starts feeding h with the changes of every process
	// (PostgreSQL) or of this one (bbolt).
	subscribe(h *hub) error
}

// txn is one transaction. In a read-write transaction, reading a game's
// header (header) claims the game: until the transaction ends no other
// writer, in this process or another, changes the game, its log, snapshot
// or parked state. Every write to those happens after that read.
type txn interface {
	// header returns the live game in channel without its log, or an
	// error wrapping ErrNotFound.
	header(channel string) (*GameRecord, error)
	// putHeader stores rec's header (rec.Log is ignored) and brings the
	// indexes from what old said to what rec says; old is nil for a game
	// the channel does not hold (a new one, or one deleteGame removed in
	// this transaction).
	putHeader(old, rec *GameRecord) error
	// deleteGame removes the live game old with its log, snapshot, parked
	// state and index entries.
	deleteGame(old *GameRecord) error

	// loadGame reads a live game's header, and when asked its log's chunks
	// (log) and its snapshot and parked state (extras), in one statement,
	// or returns an error wrapping ErrNotFound.
	loadGame(channel string, log, extras bool) (*gameParts, error)
	// chunks returns a channel's log chunks in order (gamelog.go).
	chunks(channel string) ([]chunk, error)
	// lastChunks returns the last two chunks of a channel's log (or fewer),
	// the last first.
	lastChunks(channel string) ([]chunk, error)
	putChunk(channel string, i int, data []byte) error
	// deleteChunks removes the channel's chunks from number from on.
	deleteChunks(channel string, from int) error

	// blob, putBlob, deleteBlob keep what a live game keeps beside its
	// record (a snapshot, a parked table); blob returns nil for none.
	blob(kind blobKind, channel string) ([]byte, error)
	putBlob(kind blobKind, channel string, data []byte) error
	deleteBlob(kind blobKind, channel string) error

	// eachHeader calls fn with every live game's header, by channel.
	eachHeader(fn func(*GameRecord) error) error
	// guildGames lists a guild's live games by channel, with their status.
	guildGames(guild string) ([]guildGame, error)
	threads(parent string) ([]Thread, error)
	// rematchOf returns the channel of the live rematch of game id, or
	// an error wrapping ErrNotFound.
	rematchOf(id string) (string, error)
	// due lists up to limit games whose deadline is at or before until,
	// by deadline then channel.
	due(until time.Time, limit int) ([]DueGame, error)
	guilds() ([]string, error)
	guildCounts(guild string) (live, archived int, err error)

	// lockQueues claims outbox queues until the transaction ends, so that
	// within a queue the sequences nextSeq hands out are in the order the
	// entries commit. Called once per transaction that enqueues, with
	// every queue it enqueues to.
	lockQueues(queues []string) error
	// nextSeqs returns n increasing sequence numbers never handed out
	// before in this database.
	nextSeqs(n int) ([]uint64, error)
	putPosts(ps []queuedPost) error
	// posts returns a queue's entries by sequence.
	posts(queue string) ([]post, error)
	deletePosts(queue string, seqs []uint64) error
	queues() ([]string, error)
	// queueHeads returns every queue with its first entry.
	queueHeads() ([]queuedPost, error)
	// dueOf is due for the games of o's shards only (o nil: all).
	dueOf(o *Owned, until time.Time, limit int) ([]DueGame, error)
	// eachPost calls fn with every entry of every queue skip does not
	// name (skip may be nil).
	eachPost(skip func(queue string) bool, fn func(data []byte)) error

	// archived calls fn with each archive summary of guild, oldest first.
	archived(guild string, fn func(key archiveKey, summary []byte) error) error
	// archivedByID returns the first summary of guild's game id, or nil.
	archivedByID(guild, id string) (*archiveKey, []byte, error)
	// archivedGame returns an archived game's full record (nil: none); in
	// a read-write transaction it claims the archived game as header
	// claims a live one.
	archivedGame(key archiveKey) ([]byte, error)
	// putArchived adds a game to the archive; a key already held is an
	// error (errArchived).
	putArchived(key archiveKey, summary, full []byte) error
	// putArchivedSummary replaces the summary of an archived game.
	putArchivedSummary(key archiveKey, summary []byte) error
	// putArchivedGame replaces the full record of an archived game.
	putArchivedGame(key archiveKey, full []byte) error
	// forgetArchived removes every archived game of guild, summary and
	// record, and counts them.
	forgetArchived(guild string) (int, error)

	// archivedNaming lists guild's archived games whose summary or full
	// record holds needle, in order.
	archivedNaming(guild string, needle []byte) ([]archiveKey, error)
	// archivedSummary returns the summary of an archived game (nil: none).
	archivedSummary(key archiveKey) ([]byte, error)

	// The ratings' index (ratings.go): rows of a guild derived from its
	// archive, by kind and key. A row given a rank is also listed by
	// ratingTop, highest rank first, then by key.
	ratingRow(guild, kind, key string) ([]byte, error)
	putRatingRow(guild, kind, key string, rank *int64, value []byte) error
	deleteRatingRow(guild, kind, key string) error
	// ratingRows calls fn with a kind's rows in key order, at most limit
	// of them (0: all); fn must not use the transaction.
	ratingRows(guild, kind string, limit int, fn func(key string, value []byte) error) error
	// ratingTop calls fn with a kind's first limit ranked rows; fn must not
	// use the transaction.
	ratingTop(guild, kind string, limit int, fn func(key string, value []byte) error) error
	// ratingAbove counts a kind's rows ranked above rank.
	ratingAbove(guild, kind string, rank int64) (int, error)
	// ratingBoard reads, in one statement, what a table shows: guild's
	// rating state and settings, whether a game is pending, the first
	// limit ranked rows of kind, the row of asker ("": none) and how many
	// rows are ranked above it.
	ratingBoard(guild, kind string, limit int, asker string) (*boardRead, error)
	// deleteRatings removes every rating row of guild.
	deleteRatings(guild string) error
	// lockRatings claims guild's ratings until the transaction ends: two
	// folds of one guild run one after the other.
	lockRatings(guild string) error

	// guildSettings returns a guild's settings (nil: none), which
	// putGuildSettings replaces and deleteGuildSettings removes.
	guildSettings(guild string) ([]byte, error)
	putGuildSettings(guild string, value []byte) error
	deleteGuildSettings(guild string) error
	// eachGuildSettings calls fn with every guild's settings, by guild.
	eachGuildSettings(fn func(guild string, value []byte) error) error

	// meta and putMeta keep the database's own settings (the replay key).
	meta(key string) ([]byte, error)
	putMeta(key string, value []byte) error

	// notify tells every subscriber, once the transaction commits, that
	// the game in channel changed (notify.go).
	notify(channel string) error
	// sharedGet returns a shared record (shared.go), expired or not, or
	// nil; in a read-write transaction it claims the key until the
	// transaction ends. sharedByOwner lists a kind's records of an owner
	// by expiry then key; sharedByGroup a group's; sharedAll a kind's.
	sharedGet(kind, key string) (*sharedRow, error)
	sharedPut(r sharedRow) error
	sharedDelete(kind, key string) error
	sharedByOwner(kind, owner string) ([]sharedRow, error)
	sharedByGroup(kind, group string) ([]sharedRow, error)
	sharedAll(kind string) ([]sharedRow, error)
	sharedCount(kind string) (int, error)
	// sharedHeaviest is the owner holding the most records of a kind.
	sharedHeaviest(kind string) (string, error)
	// sharedExpire removes up to limit records of a kind that expired at
	// or before now (Unix nanoseconds) and returns their keys.
	sharedExpire(kind string, now int64, limit int) ([]string, error)

	// counts counts the database's records (copy.go).
	counts() (*Counts, error)
	// checkFence returns ErrLeaseLost unless the fence's lease is held,
	// and keeps it from changing hands until the transaction ends
	// (lease.go).
	checkFence(f *Fence) error
}

// boardRead is what ratingBoard reads.
type boardRead struct {
	state, settings []byte
	pending         bool
	top             []ratingKV
	asker           []byte // nil: no row
	askerRanked     bool
	above           int
}

// ratingKV is a rating row.
type ratingKV struct {
	key   string
	value []byte
	rank  int64
}

// gameParts is a live game as loadGame reads it.
type gameParts struct {
	header           *GameRecord
	chunks           []chunk
	snapshot, parked []byte
}

// chunk is one stored piece of a game's log: entries from I*chunkLen on.
type chunk struct {
	I    int
	Data []byte
}

// post is one stored outbox entry.
type post struct {
	Seq  uint64
	Data []byte
}

// queuedPost is an entry to store in a queue.
type queuedPost struct {
	Queue string
	post
}

// guildGame is a guild's live game as its index tells it.
type guildGame struct {
	Channel, Status string
}

// blobKind names what a live game keeps beside its record.
type blobKind int

const (
	blobSnapshot blobKind = iota + 1
	blobParked
)

// archiveKey names an archived game: its guild, when it finished (in
// archiveTimeLayout, so that keys sort by time) and its id. As a string
// (ArchiveEntry.Key) its parts are joined by NUL, which ids never hold.
type archiveKey struct {
	Guild, Finished, ID string
}

func (k archiveKey) String() string {
	return k.Guild + "\x00" + k.Finished + "\x00" + k.ID
}

// parseArchiveKey reads what String wrote; ok is false for anything else.
func parseArchiveKey(s string) (k archiveKey, ok bool) {
	guild, rest, ok1 := strings.Cut(s, "\x00")
	finished, id, ok2 := strings.Cut(rest, "\x00")
	if !ok1 || !ok2 {
		return k, false
	}
	return archiveKey{Guild: guild, Finished: finished, ID: id}, true
}
