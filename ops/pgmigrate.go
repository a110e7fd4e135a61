package ops

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/store"
)

// MigrateToPostgres copies the bbolt file db into the PostgreSQL database
// to (conductor migrate --to), then checks the copy: the records of each
// kind are as many on both sides, every live and archived game reads back
// equal to the file's, and every game that has moves replays through the
// rules (cat holds the boards the bot plays, with its --tickets decks).
// Once checked the copy is marked finished and the bot may serve it. An
// interrupted run, run again, goes on where it stopped. It reports its
// progress and findings on out and returns the summary.
func MigrateToPostgres(db, to string, cat *data.Catalog, out io.Writer) (string, error) {
	switch {
	case !store.IsPostgres(to):
		return "", badSetting("--to %q is not a PostgreSQL address: give postgres://USER:PASSWORD@HOST:5432/DATABASE", to)
	case store.IsPostgres(db):
		return "", badSetting("--db is the bbolt file to copy from (CONDUCTOR_DB, or conductor.db); it is a PostgreSQL address here")
	}
	src, err := store.Open(db, &store.Options{Timeout: 500 * time.Millisecond, ManualMigrate: true})
	if errors.Is(err, store.ErrLocked) {
		return "", fmt.Errorf("%s is in use by a running conductor: stop the bot first (the copy must see the file's last move)", db)
	}
	if err != nil {
		return "", err
	}
	defer src.Close()
	if v, err := src.SchemaVersion(); err != nil {
		return "", err
	} else if v != src.LatestSchema() {
		return "", fmt.Errorf("%s is at schema version %d, this conductor copies version %d: run `conductor migrate --db %s` first",
			db, v, src.LatestSchema(), db)
	}
	dst, err := store.Open(to, nil)
	if err != nil {
		return "", err
	}
	defer dst.Close()

	last := time.Time{}
	progress := func(stage string, done, total int) {
		if done == total || time.Since(last) > 2*time.Second {
			fmt.Fprintf(out, "copying %s: %d of %d\n", stage, done, total)
			last = time.Now()
		}
	}
	if err := src.CopyTo(dst, progress); err != nil {
		return "", fmt.Errorf("copying (run the command again to go on where it stopped): %w", err)
	}
	fmt.Fprintln(out, "checking the copy: counts, every game read back and replayed")
	counts, warnings, err := checkCopy(src, dst, cat)
	for _, w := range warnings {
		fmt.Fprintln(out, "warning:", w)
	}
	if err != nil {
		return "", fmt.Errorf("the copy differs from the file (run the command again: it copies again what differs): %w", err)
	}
	if err := dst.FinishCopy(); err != nil {
		return "", err
	}
	return fmt.Sprintf("copied %s into %s and checked it: %d live games (%d moves, %d snapshots, %d parked tables), "+
		"%d archived games, %d posts waiting in %d queues, the replay key %s.\n"+
		"Start the bot with CONDUCTOR_DB set to the PostgreSQL address; keep %s as a backup (the bot no longer writes to it).",
		db, dst.Path(), counts.Games, counts.Moves, counts.Snapshots, counts.Parked, counts.Archived, counts.Posts, counts.Queues,
		map[bool]string{true: "copied", false: "not made yet"}[counts.ReplayKey], db), nil
}

// checkCopy compares the copy with the file and replays every game. A game
// that reads back equal but does not replay was broken in the file
// already: a warning, not a failure of the copy.
func checkCopy(src, dst *store.Store, cat *data.Catalog) (*store.Counts, []string, error) {
	cs, err := src.Counts()
	if err != nil {
		return nil, nil, err
	}
	cd, err := dst.Counts()
	if err != nil {
		return nil, nil, err
	}
	if *cs != *cd {
		return nil, nil, fmt.Errorf("the file holds %+v, the copy %+v", *cs, *cd)
	}
	channels, err := src.ChannelList()
	if err != nil {
		return nil, nil, err
	}
	var keys []string
	guilds, err := src.Guilds()
	if err != nil {
		return nil, nil, err
	}
	for _, g := range guilds {
		entries, err := src.Archived(g)
		if err != nil {
			return nil, nil, err
		}
		ed, err := dst.Archived(g)
		if err != nil {
			return nil, nil, err
		}
		if !reflect.DeepEqual(entries, ed) {
			return nil, nil, fmt.Errorf("the archive of server %q differs", g)
		}
		for _, e := range entries {
			keys = append(keys, e.Key)
		}
	}
	type job struct {
		channel, key string
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var broken []string
	var failure error
	fail := func(err error) {
		mu.Lock()
		if failure == nil {
			failure = err
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				rec, name, err := readBoth(src, dst, j.channel, j.key)
				if err != nil {
					fail(err)
					continue
				}
				if err := replays(cat, rec); err != nil {
					mu.Lock()
					broken = append(broken, fmt.Sprintf("%s: %v", name, err))
					mu.Unlock()
				}
			}
		}()
	}
	for _, ch := range channels {
		jobs <- job{channel: ch}
	}
	for _, k := range keys {
		jobs <- job{key: k}
	}
	close(jobs)
	wg.Wait()
	if failure != nil {
		return nil, nil, failure
	}
	sort.Strings(broken)
	var warnings []string
	if len(broken) > 0 {
		shown := broken[:min(len(broken), 10)]
		warnings = append(warnings, fmt.Sprintf("%d games do not replay through the rules, in the file as in the copy "+
			"(copied as they were): %s", len(broken), strings.Join(shown, "; ")))
	}
	return cs, warnings, nil
}

// readBoth reads a live game (channel) or an archived one (key) from both
// sides, and returns it when they are equal.
func readBoth(src, dst *store.Store, channel, key string) (*store.GameRecord, string, error) {
	if channel != "" {
		a, err := src.Load(channel)
		if err != nil {
			return nil, "", err
		}
		b, err := dst.Load(channel)
		if err != nil {
			return nil, "", fmt.Errorf("the game in channel %s: %w", channel, err)
		}
		if !reflect.DeepEqual(a, b) {
			return nil, "", fmt.Errorf("the game in channel %s reads back differently", channel)
		}
		pa, err := src.Outbox(channel)
		if err != nil {
			return nil, "", err
		}
		pb, err := dst.Outbox(channel)
		if err != nil {
			return nil, "", err
		}
		if len(pa) != len(pb) {
			return nil, "", fmt.Errorf("channel %s has %d posts waiting in the file, %d in the copy", channel, len(pa), len(pb))
		}
		for i := range pa {
			if pa[i].Nonce != pb[i].Nonce || string(pa[i].Payload) != string(pb[i].Payload) {
				return nil, "", fmt.Errorf("channel %s's post %d differs", channel, i+1)
			}
		}
		return a.Record, "channel " + channel, nil
	}
	a, err := src.ArchivedGame(key)
	if err != nil {
		return nil, "", err
	}
	b, err := dst.ArchivedGame(key)
	if err != nil {
		return nil, "", fmt.Errorf("archived game %s: %w", a.ID, err)
	}
	if !reflect.DeepEqual(a, b) {
		return nil, "", fmt.Errorf("archived game %s reads back differently", a.ID)
	}
	return a, "archived game " + a.ID, nil
}

// replays plays a record's log through the rules, as the bot loads a
// game (commands' gameConfig: the board, variant, bonus tickets, seats,
// seed and rules revision the record names).
func replays(cat *data.Catalog, rec *store.GameRecord) error {
	if len(rec.Log) == 0 {
		return nil // a lobby: no game dealt yet
	}
	b, err := cat.Board(rec.Map)
	if err != nil {
		return err
	}
	cfg := engine.Config{Board: b, Variant: rec.Variant, BonusTickets: rec.Options["bonus_tickets"] == "on",
		Players: len(rec.Seats), Seed: rec.Seed, Revision: max(rec.Rules, engine.Revision1)}
	moves := make([]engine.NotatedMove, len(rec.Log))
	for i, e := range rec.Log {
		moves[i] = engine.NotatedMove{Seat: e.Seat, Action: e.Action}
	}
	_, err = engine.ReplayNotation(cfg, moves, nil)
	return err
}
