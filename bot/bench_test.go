package bot_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/fakediscord"
	"conductor/store"
)

// benchTable is one channel's mid-game Europe board, with a copy of the
// game that the benchmark keeps in step (the engine is deterministic from
// the seed and the moves) to know which claims are legal.
type benchTable struct {
	ch    fakediscord.Channel
	seats []fakediscord.User
	game  *engine.Game
	draws int // untimed draws made to reach a claim
}

// midGameRecord plays a four-player Europe game at random up to about
// forty claimed tracks, stopping at the start of a turn.
func midGameRecord(b *data.Board, seed uint64) (*engine.Game, []store.LogEntry) {
	g, err := engine.New(engine.Config{Board: b, Variant: "classic", Players: 4, Seed: seed})
	if err != nil {
		panic(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var log []store.LogEntry
	play := func(seat int, a engine.Action) {
		log = append(log, store.LogEntry{Seat: seat, Action: engine.FormatAction(b, a), At: time.Now()})
		if _, err := g.Apply(seat, a); err != nil {
			panic(err)
		}
	}
	claimed := 0
	for {
		seat := g.ToAct()
		if g.Phase() == engine.PhaseTurn && claimed >= 40 && len(plainClaims(g, seat)) > 0 {
			return g, log
		}
		legal := g.LegalActions(seat, nil)
		var pick engine.Action
		switch claims := plainClaims(g, seat); {
		case g.Phase() == engine.PhaseTurn && len(claims) > 0 && r.IntN(3) > 0:
			pick = claims[r.IntN(len(claims))]
			claimed++
		default:
			pick = legal[0]
			for _, a := range legal {
				if a.Kind == engine.ActDraw && a.Slot == engine.DeckSlot {
					pick = a
				}
			}
		}
		play(seat, pick)
	}
}

// plainClaims are the seat's legal claims of tracks that are not tunnels
// (a tunnel would need a second interaction).
func plainClaims(g *engine.Game, seat int) []engine.Action {
	if g.Phase() != engine.PhaseTurn || g.Current() != seat {
		return nil
	}
	var out []engine.Action
	for _, a := range g.LegalActions(seat, nil) {
		if a.Kind == engine.ActClaim && !g.Board().Tracks[a.Track].Tunnel && !a.Passenger && a.Locos4 == 0 {
			out = append(out, a)
		}
	}
	return out
}

// BenchmarkClaimWithBoard50Channels measures `/claim` on mid-game Europe
// boards in 50 channels at once, through the real discordgo client and
// the fake Discord over loopback: from the interaction's dispatch to the
// new board picture stored by the fake (the bot's Handle returns once the
// post is answered), and to the ephemeral reply ("reply-…"). One claim is
// in flight per channel at a time:
//
//   - saturated: each channel claims again as soon as its board arrived
//     (throughput; latency is queueing for the cores);
//
//   - think-5s: players take about five seconds between moves, so the 50
//     channels together make at most 10 claims a second (plus the draws
//     that lead to them);
//
//   - one-at-a-time: a single claim in flight over the 50 channels, the
//     latency floor.
//
//     go test -run '^$' -bench ClaimWithBoard -benchtime 300x ./bot/
//
//   - think-5s-slow-board: as think-5s while Discord takes a second to
//     accept every board post: the replies must not wait for the boards.
//
//   - saturated-global-50: as saturated against a Discord that enforces the
//     global limit of 50 requests a second (interaction endpoints exempt);
//     -channel: and where the bot may not read the channels' history, so
//     that every board goes to the channel (two requests under the limit a
//     move): the bot paces itself and the boards slow down, with no 429.
//
// "global/move" is the number of requests under Discord's global limit per
// turn played (claims and the draws that lead to them), as the fake counted
// them; "429s", the answers 429 the fake gave.
func BenchmarkClaimWithBoard50Channels(b *testing.B) {
	b.Run("saturated", func(b *testing.B) { benchClaims(b, benchOptions{workers: 50}) })
	b.Run("think-5s", func(b *testing.B) { benchClaims(b, benchOptions{workers: 50, think: 5 * time.Second}) })
	b.Run("think-5s-slow-board", func(b *testing.B) {
		benchClaims(b, benchOptions{workers: 50, think: 5 * time.Second, slowBoard: time.Second})
	})
	b.Run("one-at-a-time", func(b *testing.B) { benchClaims(b, benchOptions{workers: 1}) })
	b.Run("saturated-global-50", func(b *testing.B) { benchClaims(b, benchOptions{workers: 50, global: 50}) })
	b.Run("saturated-global-50-channel", func(b *testing.B) {
		benchClaims(b, benchOptions{workers: 50, global: 50, channelPosts: true})
	})
}

// benchOptions shape a run of benchClaims.
type benchOptions struct {
	// workers players act at once (each owning some channels); think is
	// the mean pause before a claim (not timed).
	workers int
	think   time.Duration
	// slowBoard delays every board post (to the channel or as a follow-up).
	slowBoard time.Duration
	// global makes the fake enforce Discord's global limit at that many
	// requests a second; channelPosts denies the bot the channels' history,
	// so that boards go to the channel.
	global       int
	channelPosts bool
}

// benchRenderer draws the benchmarks' pictures for real (a board's latency
// includes drawing it), keeping the boards' static layers between runs.
var benchRenderer = imaging.NewRenderer()

// benchClaims runs b.N claims over 50 channels.
func benchClaims(b *testing.B, o benchOptions) {
	workers, think, slowBoard := o.workers, o.think, o.slowBoard
	const channels = 50
	e := newEnv(b, envOptions{fake: fakediscord.Options{WaitTimeout: 5 * time.Minute}, pictures: benchRenderer})
	if o.channelPosts {
		e.srv.SetRolePermissions(e.guild.ID, e.guild.ID, fakediscord.EveryonePermissions&^fakediscord.PermReadMessageHistory)
	}
	board, err := data.Embedded().Board("europe")
	if err != nil {
		b.Fatal(err)
	}
	// Positions go straight into the store, then the bot restarts on it.
	tables := make([]*benchTable, channels)
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
			b.Fatal(err)
		}
		tables[i] = t
	}
	e.restart()
	if slowBoard > 0 {
		e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: "/channels/{channel_id}/messages", Delay: slowBoard})
		e.srv.InjectFault(fakediscord.Fault{Method: "POST", Route: "/webhooks/{webhook_id}/{webhook_token}", Delay: slowBoard})
	}
	e.srv.SetGlobalLimit(o.global)
	global0 := e.srv.GlobalRequests()
	limited0, _ := e.srv.RateLimited()

	var (
		next      atomic.Int64
		mu        sync.Mutex
		boardLat  []time.Duration
		replyLat  []time.Duration
		failures  []string
		missed    int
		exhausted atomic.Int64
	)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		var mine []*benchTable
		for i := w; i < len(tables); i += workers {
			mine = append(mine, tables[i])
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 2))
			for turn := 0; next.Add(1) <= int64(b.N); turn++ {
				if think > 0 {
					// Between half and one and a half the mean.
					time.Sleep(think/2 + time.Duration(r.Int64N(int64(think))))
				}
				var t *benchTable
				var a engine.Action
				for len(mine) > 0 {
					k := turn % len(mine)
					var ok bool
					if a, ok = mine[k].prepare(e); ok {
						t = mine[k]
						break
					}
					exhausted.Add(1)
					mine = slices.Delete(mine, k, k+1)
				}
				if t == nil {
					next.Add(-1) // another player takes this claim
					return
				}
				seat := t.game.Current()
				opts := []fakediscord.CommandOption{fakediscord.StringOption("route", engine.TrackRef(board, a.Track)),
					fakediscord.IntegerOption("locomotives", int64(a.Locos))}
				if a.Color != data.Gray {
					opts = append(opts, fakediscord.StringOption("color", a.Color.String()))
				}
				t0 := time.Now()
				h, err := e.srv.RunCommand(t.seats[seat].ID, t.ch.ID, "claim", opts...)
				if err == nil {
					err = e.tracker.wait(h.ID, 1)
				}
				took := time.Since(t0)
				var cb fakediscord.Callback
				answered, text := false, ""
				if err == nil {
					if cb, answered = h.Callback(); answered {
						text = string(cb.Data)
						if cb.Type == fakediscord.CallbackDeferredMessage {
							m, _ := h.Original()
							text = m.Body()
						}
					}
				}
				mu.Lock()
				switch {
				case err != nil:
					failures = append(failures, err.Error())
				case !answered:
					// Discord's 3 s passed before even the deferral: the
					// claim was played and its board posted, but the
					// player saw "the application did not respond".
					missed++
					boardLat = append(boardLat, took)
				case !strings.Contains(text, "You claimed"):
					failures = append(failures, fmt.Sprintf("claim not played: %s", text))
				default:
					boardLat = append(boardLat, took)
					replyLat = append(replyLat, cb.Latency)
				}
				mu.Unlock()
				if _, err := t.game.Apply(seat, a); err != nil {
					panic(err)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(failures) > 0 {
		b.Fatalf("%d claims failed, the first: %s", len(failures), failures[0])
	}
	if len(boardLat) < b.N {
		b.Fatalf("only %d of %d claims made: %d channels ran out of moves", len(boardLat), b.N, exhausted.Load())
	}
	// Every claim produced a board post (a picture once a round).
	posts := 0
	for _, t := range tables {
		for _, m := range e.srv.Messages(t.ch.ID) {
			if isBoardPost(m) {
				posts++
			}
		}
	}
	if posts < len(boardLat) {
		b.Fatalf("%d board posts for %d claims", posts, len(boardLat))
	}
	e.srv.CheckClean(b)
	slices.Sort(boardLat)
	slices.Sort(replyLat)
	b.ReportMetric(ms(pct(boardLat, 50)), "p50-ms")
	b.ReportMetric(ms(pct(boardLat, 99)), "p99-ms")
	b.ReportMetric(ms(pct(replyLat, 50)), "reply-p50-ms")
	b.ReportMetric(ms(pct(replyLat, 99)), "reply-p99-ms")
	b.ReportMetric(float64(len(boardLat))/elapsed.Seconds(), "claims/s")
	draws := 0
	for _, t := range tables {
		draws += t.draws
	}
	b.ReportMetric(float64(draws)/float64(len(boardLat)), "draws/claim")
	// A turn of draws is two draws; the claim itself is a turn.
	b.ReportMetric(float64(e.srv.GlobalRequests()-global0)/(float64(len(boardLat))+float64(draws)/2), "global/move")
	limited, _ := e.srv.RateLimited()
	b.ReportMetric(float64(limited-limited0), "429s")
	// Interactions answered through a deferral, and those that missed
	// Discord's 3 s even so, whatever their kind (claims and draws).
	b.ReportMetric(float64(e.b.Deferrals()), "deferred")
	b.ReportMetric(float64(missed), "missed-3s")
}

// prepare returns a claim for the player to move in this channel, first
// drawing cards (untimed) for players who cannot claim. It returns false
// when the game nears its end.
func (t *benchTable) prepare(e *env) (engine.Action, bool) {
	for range 40 {
		g := t.game
		if last, _ := g.LastRound(); last || g.Phase() == engine.PhaseOver {
			return engine.Action{}, false
		}
		seat := g.Current()
		if claims := plainClaims(g, seat); len(claims) > 0 {
			// The longest claim, as a player would choose.
			best := claims[0]
			for _, a := range claims {
				if g.Board().Tracks[a.Track].Length > g.Board().Tracks[best.Track].Length {
					best = a
				}
			}
			return best, true
		}
		for range 2 {
			if g.Phase() == engine.PhaseOver || g.Current() != seat {
				break
			}
			draw := engine.Draw(engine.DeckSlot)
			if g.DeckSize()+g.DiscardSize() == 0 {
				return engine.Action{}, false
			}
			h, err := e.srv.RunCommand(t.seats[seat].ID, t.ch.ID, "draw", fakediscord.StringOption("card", "deck"))
			if err == nil {
				err = e.tracker.wait(h.ID, 1)
			}
			if err != nil {
				return engine.Action{}, false
			}
			if _, err := g.Apply(seat, draw); err != nil {
				panic(err)
			}
			t.draws++
		}
	}
	return engine.Action{}, false
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
