package ops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"conductor/store"
)

// ReshardOptions describe a change of the shard count (conductor reshard).
type ReshardOptions struct {
	From, To int
	// Paths are the databases of shards 0, 1, …: max(From, To) files, in
	// shard order. Those of shards below From must exist; the others are
	// created when missing.
	Paths []string
	// DryRun reports what would move and changes nothing.
	DryRun bool
	// Now stamps the backups' names (time.Now when nil).
	Now func() time.Time
	// LockTimeout bounds the wait for each file's lock (a second when 0).
	LockTimeout time.Duration
}

// Move is the records of one server moved from one shard's database to
// another's.
type Move struct {
	Guild    string
	From, To int            // shard numbers (indexes in Paths)
	Counts   map[string]int // records per bucket, e.g. "games": 2
}

// Kept is per-channel records that stay where they are because no database
// tells which server their channel belongs to.
type Kept struct {
	Path, Channel string
	Counts        map[string]int
}

// ReshardReport says what Reshard did (or, on a dry run, would do).
type ReshardReport struct {
	Moves   []Move
	Backups []string // the copies taken before any change
	Kept    []Kept
	// Retired are the databases of shards From-1 … To when the count
	// shrinks: emptied, and served by no shard any more.
	Retired []string
	// Totals are the records per bucket across every database, before and
	// after (the same, less the copies that already were in place).
	Before, After map[string]int
	DryRun        bool
}

// ErrReshardConflict: two databases hold different records under one key
// (typically two games in one channel); nothing was changed.
var ErrReshardConflict = errors.New("conflicting records")

// shardFile is one database given to Reshard.
type shardFile struct {
	path    string
	st      *store.Store // nil on a dry run for a file that does not exist yet
	existed bool
	inv     *store.Inventory
}

// Reshard moves every record keyed by server or channel — live games,
// archived games (and so the statistics), and any per-channel bucket
// declared in store/ownership.go — to the database of the shard that
// serves its server with opt.To shards. It works offline: every file is
// locked for the whole run, so a running bot makes it refuse. Before
// changing anything it checks that the files are those of a deployment
// with opt.From shards (or one already resharded to opt.To: running it
// twice is harmless), that no two records conflict, and backs every
// existing file up (0600). Each server moves in two transactions (import
// into the new file, then removal from the old), with both files marked
// until the end: an interrupted run is finished by running it again, and a
// bot refuses to serve a marked file.
func Reshard(opt ReshardOptions) (rep *ReshardReport, err error) {
	n := max(opt.From, opt.To)
	switch {
	case opt.From < 1 || opt.To < 1:
		return nil, fmt.Errorf("--from %d --to %d: shard counts start at 1", opt.From, opt.To)
	case len(opt.Paths) != n:
		return nil, fmt.Errorf("--from %d --to %d needs %d databases, one per shard in shard order (shard 0's first); got %d",
			opt.From, opt.To, n, len(opt.Paths))
	}
	for _, p := range opt.Paths {
		if store.IsPostgres(p) {
			return nil, fmt.Errorf("%s is a PostgreSQL database: conductor reshard moves games between the bbolt files of shards; "+
				"on PostgreSQL every shard shares one database, so changing the shard count is a restart and no game moves", store.RedactDSN(p))
		}
	}
	if err := distinctFiles(opt.Paths); err != nil {
		return nil, err
	}
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	files, err := openShardFiles(opt)
	defer func() {
		for _, f := range files {
			if f != nil && f.st != nil {
				if cerr := f.st.Close(); cerr != nil && err == nil {
					err = cerr
				}
			}
		}
	}()
	if err != nil {
		return nil, err
	}
	pending, err := checkShardFiles(files, opt)
	if err != nil {
		return nil, err
	}
	rep = &ReshardReport{DryRun: opt.DryRun, Before: totals(files)}
	moves, kept, err := planMoves(files, opt.To)
	if err != nil {
		return nil, err
	}
	rep.Kept = kept
	held, err := checkMoves(files, moves)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		rep.Moves = append(rep.Moves, m.Move)
	}
	if opt.DryRun {
		rep.After = rep.Before
		return rep, nil
	}
	if err := createShardFiles(files, opt); err != nil {
		return rep, err
	}
	if len(moves) > 0 || pending {
		if err := backupShardFiles(files, now(), rep); err != nil {
			return rep, err
		}
		for _, f := range files {
			if err := f.st.SetReshardPending(opt.From, opt.To); err != nil {
				return rep, err
			}
		}
		for _, m := range moves {
			if err := moveServer(files[m.From].st, files[m.To].st, m.sel); err != nil {
				return rep, fmt.Errorf("moving server %s from %s to %s: %w; the databases stay marked: "+
					"run the same command again to finish (backups: %s)",
					m.Guild, files[m.From].path, files[m.To].path, err, strings.Join(rep.Backups, ", "))
			}
		}
	}
	if err := verifyPlaced(files, opt.To); err != nil {
		return rep, fmt.Errorf("%w; the databases stay marked (backups: %s)", err, strings.Join(rep.Backups, ", "))
	}
	rep.After = totals(files)
	for bucket, before := range rep.Before {
		if want := before - held[bucket]; rep.After[bucket] != want {
			return rep, fmt.Errorf("after the moves the databases hold %d records in %s, %d expected; "+
				"they stay marked (backups: %s)", rep.After[bucket], bucket, want, strings.Join(rep.Backups, ", "))
		}
	}
	for i, f := range files {
		id := store.ShardIdentity{ID: i, Count: opt.To}
		if i >= opt.To {
			id = store.ShardIdentity{}
			rep.Retired = append(rep.Retired, f.path)
		}
		if err := f.st.SetShard(id); err != nil {
			return rep, err
		}
		if err := f.st.ClearReshardPending(); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// distinctFiles refuses a database given twice (its lock would look like a
// running bot's).
func distinctFiles(paths []string) error {
	for i, a := range paths {
		for _, b := range paths[:i] {
			if sameFile(a, b) {
				return fmt.Errorf("%s and %s are the same database: give each shard its own file", b, a)
			}
		}
	}
	return nil
}

func sameFile(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// openShardFiles locks every database that exists (for reading only on a
// dry run); a lock held elsewhere means a bot (or another tool) is using
// the file. Missing files of new shards are created later, by
// createShardFiles, once every check has passed.
func openShardFiles(opt ReshardOptions) ([]*shardFile, error) {
	files := make([]*shardFile, len(opt.Paths))
	for i, path := range opt.Paths {
		f := &shardFile{path: path}
		files[i] = f
		_, statErr := os.Stat(path)
		f.existed = statErr == nil
		switch {
		case !f.existed && i < opt.From:
			return files, fmt.Errorf("%s does not exist, but with --from %d it should be shard %d's database: "+
				"give the databases of every shard, in shard order", path, opt.From, i)
		case !f.existed:
			f.inv = &store.Inventory{Guilds: map[string]map[string]int{}, Channels: map[string]string{}}
			continue
		}
		st, err := openShardStore(path, opt)
		if err != nil {
			return files, err
		}
		f.st = st
		if v, err := st.SchemaVersion(); err != nil {
			return files, err
		} else if v != store.CurrentSchema {
			return files, fmt.Errorf("%s has schema version %d: run conductor migrate --db %s first", path, v, path)
		}
	}
	return files, nil
}

func openShardStore(path string, opt ReshardOptions) (*store.Store, error) {
	timeout := opt.LockTimeout
	if timeout <= 0 {
		timeout = time.Second
	}
	st, err := store.Open(path, &store.Options{Timeout: timeout, ManualMigrate: true, ReadOnly: opt.DryRun})
	if errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("%w: %s is in use by a running conductor (the bot, a backup or a migrate): "+
			"stop every shard's bot before resharding (on fly.io: fly scale count 0 for each shard's app)", store.ErrLocked, path)
	}
	return st, err
}

// createShardFiles creates the databases of new shards.
func createShardFiles(files []*shardFile, opt ReshardOptions) error {
	for _, f := range files {
		if f.st != nil {
			continue
		}
		st, err := openShardStore(f.path, opt)
		if err != nil {
			return err
		}
		f.st = st
	}
	return nil
}

// checkShardFiles makes sure the files are those of a deployment with
// From shards, in shard order (or already resharded to To), and reads
// their inventories. It reports whether an earlier run did not finish.
func checkShardFiles(files []*shardFile, opt ReshardOptions) (pending bool, err error) {
	for i, f := range files {
		if f.st == nil {
			continue
		}
		if from, to, ok, err := f.st.ReshardPending(); err != nil {
			return false, err
		} else if ok && (from != opt.From || to != opt.To) {
			return false, fmt.Errorf("%s is marked by an unfinished reshard --from %d --to %d: finish that one first (run it again)", f.path, from, to)
		} else if ok {
			pending = true
		}
		id, known, err := f.st.Shard()
		if err != nil {
			return false, err
		}
		if f.inv, err = f.st.Inventory(); err != nil {
			return false, fmt.Errorf("%s: %w", f.path, err)
		}
		if len(f.inv.Unknown) > 0 {
			return false, fmt.Errorf("%w: %s holds buckets %s that this conductor does not know how to assign to a server, "+
				"so it will not reshard (it would leave them behind): use the conductor that wrote the file",
				store.ErrUnknownBucket, f.path, strings.Join(f.inv.Unknown, ", "))
		}
		if known {
			switch {
			case id.ID == i && ((id.Count == opt.From && i < opt.From) || id.Count == opt.To):
			case id.Count != opt.From && id.Count != opt.To:
				return false, fmt.Errorf("%s was last served as %v, but --from is %d: give --from the number of shards the deployment runs now (%d)",
					f.path, id, opt.From, id.Count)
			default:
				return false, fmt.Errorf("%s was last served as %v but is given as shard %d's database: list the databases in shard order",
					f.path, id, i)
			}
			continue
		}
		// A file that never recorded its shard: its servers must say it.
		for _, g := range f.inv.GuildIDs() {
			if (i < opt.From && ShardFor(g, opt.From) == i) || ShardFor(g, opt.To) == i {
				continue
			}
			return false, fmt.Errorf("%s, given as shard %d's database, holds server %s, which shard %d serves with %d shards: "+
				"check --from and the order of the databases (this file does not record which shard it served)",
				f.path, i, g, ShardFor(g, opt.From), opt.From)
		}
	}
	return pending, nil
}

// plannedMove is a Move with the records it selects.
type plannedMove struct {
	Move
	sel store.Selection
}

// planMoves lists the servers whose records are not in their shard's
// database, and the per-channel records that no database places.
func planMoves(files []*shardFile, to int) ([]plannedMove, []Kept, error) {
	// A channel's server, as any database tells it.
	global := map[string]string{}
	where := map[string]string{}
	for _, f := range files {
		for ch, g := range f.inv.Channels {
			if prev, ok := global[ch]; ok && prev != g {
				return nil, nil, fmt.Errorf("channel %s belongs to server %s in %s but to %s in %s: these databases are not of one deployment",
					ch, prev, where[ch], g, f.path)
			}
			global[ch], where[ch] = g, f.path
		}
	}
	var moves []plannedMove
	var kept []Kept
	for i, f := range files {
		byGuild := map[string][]string{}
		for g := range f.inv.Guilds {
			byGuild[g] = f.inv.ChannelsOf(g)
		}
		for ch, counts := range f.inv.Unplaced {
			g, ok := global[ch]
			if !ok {
				kept = append(kept, Kept{Path: f.path, Channel: ch, Counts: counts})
				continue
			}
			byGuild[g] = append(byGuild[g], ch)
		}
		guilds := make([]string, 0, len(byGuild))
		for g := range byGuild {
			guilds = append(guilds, g)
		}
		sort.Strings(guilds)
		for _, g := range guilds {
			if t := ShardFor(g, to); t != i {
				chs := byGuild[g]
				sort.Strings(chs)
				moves = append(moves, plannedMove{Move: Move{Guild: g, From: i, To: t}, sel: store.Selection{Guild: g, Channels: chs}})
			}
		}
	}
	sort.Slice(kept, func(a, b int) bool {
		return kept[a].Path+"\x00"+kept[a].Channel < kept[b].Path+"\x00"+kept[b].Channel
	})
	return moves, kept, nil
}

// checkMoves exports each move's records and compares them with their
// destination, without writing. It returns the records per bucket that the
// destinations already hold (which the moves merge), or every conflict.
func checkMoves(files []*shardFile, moves []plannedMove) (map[string]int, error) {
	held := map[string]int{}
	var problems []string
	seen := map[string]string{} // destination and key -> source path
	for k := range moves {
		m := &moves[k]
		b, err := files[m.From].st.Export(m.sel)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", files[m.From].path, err)
		}
		m.Counts = b.Counts()
		for _, key := range b.Keys() {
			id := fmt.Sprint(m.To, "\x00", key)
			if src, dup := seen[id]; dup {
				problems = append(problems, fmt.Sprintf("%s: both %s and %s hold it for %s", key, src, files[m.From].path, files[m.To].path))
			}
			seen[id] = files[m.From].path
		}
		dst := files[m.To]
		if dst.st == nil {
			continue
		}
		cmp, err := dst.st.Compare(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dst.path, err)
		}
		for _, c := range cmp.Conflicts {
			problems = append(problems, fmt.Sprintf("%v: %s holds it and %s holds another", c, dst.path, files[m.From].path))
		}
		for bucket, n := range cmp.Held {
			held[bucket] += n
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w, nothing was changed: %s. A channel with a game in two databases usually got a new game "+
			"after the shard count changed: start the bots, finish or /ttr end the game the server sees now, stop the bots and run "+
			"this command again", ErrReshardConflict, strings.Join(problems, "; "))
	}
	return held, nil
}

// backupShardFiles copies every database that existed before this run.
func backupShardFiles(files []*shardFile, at time.Time, rep *ReshardReport) error {
	stamp := at.UTC().Format("20060102T150405.000Z")
	for _, f := range files {
		if !f.existed {
			continue
		}
		path := f.path + ".pre-reshard-" + stamp
		if err := f.st.BackupFile(path); err != nil {
			return fmt.Errorf("backing up %s before resharding (nothing was changed): %w", f.path, err)
		}
		rep.Backups = append(rep.Backups, path)
	}
	return nil
}

// moveServer copies a server's records into dst, then removes them from
// src: one transaction each. Between the two both files hold them, which
// a second run resolves (Import keeps one copy of each).
func moveServer(src, dst *store.Store, sel store.Selection) error {
	b, err := src.Export(sel)
	if err != nil {
		return err
	}
	if err := dst.Import(b); err != nil {
		return err
	}
	return src.Remove(b)
}

// verifyPlaced re-reads every database: each server's records must be in
// its shard's file only.
func verifyPlaced(files []*shardFile, to int) error {
	for i, f := range files {
		inv, err := f.st.Inventory()
		if err != nil {
			return err
		}
		f.inv = inv
		for _, g := range inv.GuildIDs() {
			if t := ShardFor(g, to); t != i {
				return fmt.Errorf("after the moves %s still holds records of server %s, which shard %d serves", f.path, g, t)
			}
		}
	}
	return nil
}

// totals adds up the records per bucket across the databases.
func totals(files []*shardFile) map[string]int {
	t := map[string]int{}
	for _, f := range files {
		for _, counts := range f.inv.Guilds {
			for bucket, n := range counts {
				t[bucket] += n
			}
		}
		for _, counts := range f.inv.Unplaced {
			for bucket, n := range counts {
				t[bucket] += n
			}
		}
	}
	return t
}

// Summary is the report for people: what moved where, per pair of shards.
func (r *ReshardReport) Summary(paths []string) string {
	var b strings.Builder
	verb := "moved"
	if r.DryRun {
		verb = "would move"
	}
	type pair struct{ from, to int }
	servers := map[pair]int{}
	counts := map[pair]map[string]int{}
	for _, m := range r.Moves {
		p := pair{m.From, m.To}
		servers[p]++
		if counts[p] == nil {
			counts[p] = map[string]int{}
		}
		for bucket, n := range m.Counts {
			counts[p][bucket] += n
		}
	}
	pairs := make([]pair, 0, len(servers))
	for p := range servers {
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b pair) int { return (a.from*1000 + a.to) - (b.from*1000 + b.to) })
	if len(pairs) == 0 {
		b.WriteString("nothing to move: every server's records are in its shard's database\n")
	}
	for _, p := range pairs {
		fmt.Fprintf(&b, "%s %d servers from %s to %s: %s\n", verb, servers[p], paths[p.from], paths[p.to], countText(counts[p]))
	}
	for _, k := range r.Kept {
		fmt.Fprintf(&b, "kept in %s: %s of channel %s, whose server no database tells\n", k.Path, countText(k.Counts), k.Channel)
	}
	for _, path := range r.Backups {
		fmt.Fprintf(&b, "backup: %s\n", path)
	}
	for _, path := range r.Retired {
		fmt.Fprintf(&b, "%s serves no shard now; keep it until you have checked the others, then remove it\n", path)
	}
	if !r.DryRun {
		fmt.Fprintf(&b, "in all: %s\n", countText(r.After))
	}
	return b.String()
}

// countText reads counts as "2 live games, 5 archived games, 1 outbox".
func countText(c map[string]int) string {
	names := map[string]string{"games": "live games", "archive": "archived games"}
	var parts []string
	for _, bucket := range []string{"games", "archive"} {
		parts = append(parts, fmt.Sprintf("%d %s", c[bucket], names[bucket]))
	}
	var other []string
	for bucket := range c {
		if _, known := names[bucket]; !known && bucket != "archived_games" {
			other = append(other, bucket)
		}
	}
	sort.Strings(other)
	for _, bucket := range other {
		parts = append(parts, fmt.Sprintf("%d in %s", c[bucket], bucket))
	}
	return strings.Join(parts, ", ")
}
