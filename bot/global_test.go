package bot_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/internal/fakediscord"
	"conductor/store"
)

// TestHumanMoveCostsAtMostOneGlobalRequest: a person's move reaches the table through its
// interaction's webhook (the board as a follow-up, the previous board's buttons taken off
// through the webhook that posted it), which Discord's global rate limit does not bind; the
// bot's count of the requests under the limit agrees with Discord's.
func TestHumanMoveCostsAtMostOneGlobalRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	e.svc.Quiet()
	fake0, all0 := e.srv.GlobalRequests(), len(e.srv.Requests())
	bot0, moves0 := e.b.GlobalRequests()
	const turns = 4
	var boards []fakediscord.Message
	for range turns {
		before, next := tb.drawTurn()
		tb.oneBoardFollows(before, next)
		boards = append(boards, before)
	}
	e.svc.Quiet()
	fake, botCount, moves := e.srv.GlobalRequests()-fake0, 0, 0
	b, m := e.b.GlobalRequests()
	botCount, moves = int(b-bot0), int(m-moves0)
	if moves != turns {
		t.Fatalf("%d moves counted for %d turns", moves, turns)
	}
	t.Logf("%d moves: %d requests under the global limit, %d requests in all", moves, fake, len(e.srv.Requests())-all0)
	if fake > turns {
		t.Errorf("%d requests under the global limit for %d moves: more than one a move", fake, turns)
	}
	if botCount != fake {
		t.Errorf("the bot counted %d requests under the global limit, Discord %d", botCount, fake)
	}
	// The buttons did come off every earlier board.
	for _, old := range boards {
		if m, _ := e.srv.Message(old.ID); button(m, "draw:", "") != "" {
			t.Errorf("board %s kept its buttons", old.ID)
		}
	}
	if e.b.Health().Moves != m {
		t.Error("/healthz does not report the moves")
	}
	e.srv.CheckClean(t)
}

// TestBurstWithinTheGlobalLimitLosesNothing: twelve tables play at once where the boards must
// go to the channel (the bot may not read the channels' history, so no follow-up), against a
// Discord that enforces a global limit of 6 requests a second: the bot paces itself below
// it, so every board arrives and Discord answers (almost) no 429.
func TestBurstWithinTheGlobalLimitLosesNothing(t *testing.T) {
	t.Parallel()
	const channels, limit = 12, 6
	e := newEnv(t, envOptions{globalRate: limit})
	e.srv.SetRolePermissions(e.guild.ID, e.guild.ID, fakediscord.EveryonePermissions&^fakediscord.PermReadMessageHistory)
	tables := benchTables(e, channels)
	e.restart()
	e.srv.SetGlobalLimit(limit)
	board, _ := data.Embedded().Board("europe")
	var wg sync.WaitGroup
	errs := make(chan error, channels)
	claims := 0
	for _, bt := range tables {
		a, ok := bt.prepare(e)
		if !ok {
			t.Fatal("a table with no claim")
		}
		claims++
		wg.Add(1)
		go func() {
			defer wg.Done()
			seat := bt.game.Current()
			opts := []fakediscord.CommandOption{fakediscord.StringOption("route", engine.TrackRef(board, a.Track)),
				fakediscord.IntegerOption("locomotives", int64(a.Locos))}
			if a.Color != data.Gray {
				opts = append(opts, fakediscord.StringOption("color", a.Color.String()))
			}
			h, err := e.send(func() (*fakediscord.InteractionHandle, error) {
				return e.srv.RunCommand(bt.seats[seat].ID, bt.ch.ID, "claim", opts...)
			})
			if err == nil {
				err = e.tracker.wait(h.ID, 1)
			}
			// The claim is played (a machine too loaded to answer within Discord's
			// 3 s, as the benchmark's missed-3s, still plays it and posts its board).
			if cb, ok := h.Callback(); err == nil && ok && cb.Type == fakediscord.CallbackMessage && !strings.Contains(string(cb.Data), "You claimed") {
				err = fmt.Errorf("claim in %s refused: %s", bt.ch.Name, cb.Data)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	e.svc.Quiet()
	posts := 0
	for _, bt := range tables {
		for _, m := range e.srv.Messages(bt.ch.ID) {
			if isBoardPost(m) {
				posts++
			}
		}
	}
	draws := 0
	for _, bt := range tables {
		draws += bt.draws
	}
	if want := claims + draws/2; posts != want {
		t.Errorf("%d boards for %d turns", posts, want)
	}
	all, global := e.srv.RateLimited()
	t.Logf("%d boards; 429s: %d past the global limit, %d in all", posts, global, all)
	if global > 2 {
		t.Errorf("%d requests answered 429 past the global limit: a storm", global)
	}
	if all > global+2 {
		t.Errorf("%d answers 429 in all", all)
	}
	if n := e.b.InvalidRequests(); n > 2 {
		t.Errorf("the bot counted %d invalid requests", n)
	}
	if n, _, _ := e.st.OutboxDepth(); n != 0 {
		t.Errorf("%d posts still queued", n)
	}
}

// benchTables stores n mid-game Europe tables of four players (as the 50-channel benchmark
// does); the bot must restart to load them.
func benchTables(e *env, n int) []*benchTable {
	board, err := data.Embedded().Board("europe")
	if err != nil {
		e.t.Fatal(err)
	}
	tables := make([]*benchTable, n)
	for i := range tables {
		t := &benchTable{ch: e.channel(fmt.Sprint("bench-", i))}
		rec := &store.GameRecord{Channel: t.ch.ID, Guild: e.guild.ID, Map: "europe", Variant: "classic",
			Options: map[string]string{"locale": "en-US"}, Seed: uint64(i + 1), Status: store.StatusPlaying}
		for s := range 4 {
			u := e.user(fmt.Sprintf("p%d-%d", i, s))
			t.seats = append(t.seats, u)
			rec.Seats = append(rec.Seats, store.Seat{UserID: u.ID, Name: u.Username, Color: []string{"red", "blue", "green", "yellow"}[s]})
		}
		rec.Host = rec.Seats[0].UserID
		t.game, rec.Log = midGameRecord(board, rec.Seed)
		if err := e.st.Put(rec); err != nil {
			e.t.Fatal(err)
		}
		tables[i] = t
	}
	return tables
}

// TestFollowUpBoardAfterARestartPastTheTokenLife: the board of a move waits in the outbox when
// the process dies, its follow-up either created by Discord (the answer lost) or not; the
// bot comes back after the interaction's token has expired. The board is found in the
// channel's history, or posted to the channel: once, either way.
func TestFollowUpBoardAfterARestartPastTheTokenLife(t *testing.T) {
	t.Parallel()
	for _, created := range []bool{true, false} {
		t.Run(fmt.Sprint("created=", created), func(t *testing.T) {
			e := newEnv(t)
			tb := newTable(e, "table", "usa", "", "alice", "bob")
			tb.setup()
			e.svc.Quiet()
			e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: followUpPost, Status: http.StatusServiceUnavailable, AfterServe: created})
			posts, followUps := len(e.srv.RequestsTo("POST", boardPost)), len(e.srv.RequestsTo("POST", followUpPost))
			before, next := tb.drawTurn()
			e.stop() // dies before the retry
			if got := len(tb.boardsAfter(before.ID)); got != map[bool]int{true: 1, false: 0}[created] {
				t.Fatalf("%d boards before the restart", got)
			}
			e.srv.ClearFaults()
			e.ahead = 16 * time.Minute // the interaction's token has expired
			e.start()
			tb.oneBoardFollows(before, next)
			e.svc.Quiet()
			if n := len(e.srv.RequestsTo("POST", followUpPost)) - followUps; n != 1 {
				t.Errorf("%d follow-ups: an expired token was used", n)
			}
			wantPosts := map[bool]int{true: 0, false: 1}[created]
			if n := len(e.srv.RequestsTo("POST", boardPost)) - posts; n != wantPosts {
				t.Errorf("%d channel posts, want %d", n, wantPosts)
			}
			// The board is live: the next turn's board takes its buttons off.
			b, _ := tb.board()
			before, next = tb.drawTurn()
			tb.oneBoardFollows(before, next)
			e.svc.Quiet()
			if m, _ := e.srv.Message(b.ID); button(m, "draw:", "") != "" {
				t.Error("the board delivered after the restart kept its buttons")
			}
			e.srv.CheckClean(t)
		})
	}
}

// TestRefusedDMIsNotRetried: Discord refuses a turn DM with 403 (not "DMs closed"): retrying
// it would only add refusals that Discord counts toward its IP ban, so it is dropped, once,
// and the table's boards keep coming.
func TestRefusedDMIsNotRetried(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tb := newTable(e, "table", "usa", "", "alice", "bob")
	tb.setup()
	for _, p := range tb.players {
		tb.do(e.run(p.ID, tb.ch.ID, "ttr", fakediscord.Subcommand("notify")))
		dm := e.srv.UserDM(p.ID)
		e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: boardPost, Path: "/channels/" + dm.ID + "/messages", Status: http.StatusForbidden, Code: 50001, Message: "Missing Access"})
	}
	for range 2 {
		before, next := tb.drawTurn()
		tb.oneBoardFollows(before, next)
	}
	deadline := time.Now().Add(5 * time.Second)
	for n, _, _ := e.st.OutboxDepth(); n > 0; n, _, _ = e.st.OutboxDepth() {
		if time.Now().After(deadline) {
			t.Fatalf("%d posts still queued: a refused DM is being retried", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	refused := 0
	for _, h := range e.srv.FaultHits() {
		refused += h
	}
	if refused != 2 {
		t.Errorf("%d refused DMs for two turns", refused)
	}
	if n := e.b.InvalidRequests(); n != refused {
		t.Errorf("the bot counted %d invalid requests, Discord refused %d", n, refused)
	}
}
