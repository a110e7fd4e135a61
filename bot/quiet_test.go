package bot_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"conductor/internal/fakediscord"
	"conductor/present"
)

// threadCount is what a whole game put in its thread and in private.
type threadCount struct {
	boardPictures, pictures int
	pngBytes                int // every picture posted in public
	public, private         int // messages
	turns, seats            int
}

func (c threadCount) rounds() float64 { return float64(c.turns) / float64(c.seats) }

// countThread counts a finished table's messages and pictures. Turns are
// read from the archived move log: a turn is a run of moves of one seat.
func (tb *table) countThread() threadCount {
	e := tb.e
	e.t.Helper()
	var c threadCount
	for _, m := range e.srv.Messages(tb.ch.ID) {
		if !m.Public() {
			c.private++
			continue
		}
		c.public++
		for _, a := range m.Attachments {
			c.pictures++
			c.pngBytes += len(a.Data)
			if a.Filename == "board.png" {
				c.boardPictures++
			}
		}
	}
	for _, p := range tb.players {
		if dm, ok := e.srv.DMChannel(p.ID); ok {
			c.private += len(e.srv.Messages(dm.ID))
		}
	}
	games, err := e.st.Archived(e.guild.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, g := range games {
		if g.Channel != tb.ch.ID {
			continue
		}
		rec, err := e.st.ArchivedGame(g.Key)
		if err != nil {
			e.t.Fatal(err)
		}
		c.seats = len(rec.Seats)
		setup := map[int]bool{}
		for i, l := range rec.Log {
			if len(setup) < c.seats && !setup[l.Seat] {
				setup[l.Seat] = true // the first tickets, chosen at once
				continue
			}
			if i == len(rec.Log)-1 || rec.Log[i+1].Seat != l.Seat {
				c.turns++
			}
		}
	}
	if c.seats == 0 {
		e.t.Fatal("the game is not archived")
	}
	return c
}

// TestAQuietThread plays a whole game in English (USA), French (Europe)
// and German (Märklin), two people and a bot each, and counts what the
// thread shows: at most one board picture a round (the first board and the
// final sheet aside), under 8 MB of pictures a game, board messages that
// say the state in words (whose turn, points, trains), a picture soon after
// the map changed, alt text in the table's language on every picture, and
// the heads-up about trains before the last round.
func TestAQuietThread(t *testing.T) {
	e := newEnv(t, envOptions{bots: true})
	for _, c := range []struct{ lang, mapID, variant string }{{"en", "usa", ""}, {"fr", "europe", "classic"}, {"de", "marklin", ""}} {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			e := e.as(t)
			tb := localeTable(e, c.lang, c.mapID, c.variant, c.lang+"-ada", c.lang+"-bo")
			statusSeen := 0
			for turns := 0; tb.playTurn(); turns++ {
				if turns > 600 {
					t.Fatal("the game does not end")
				}
				if b, ok := tb.board(); ok && strings.Contains(statusOf(b), " · ") {
					statusSeen++
				}
			}
			n := tb.countThread()
			t.Logf("%s %s: %d turns (%.1f rounds of %d seats), %d board pictures, %d pictures, %.1f MB of PNG, %d public and %d private messages, status on %d boards",
				c.lang, c.mapID, n.turns, n.rounds(), n.seats, n.boardPictures, n.pictures, float64(n.pngBytes)/1e6, n.public, n.private, statusSeen)
			if limit := int(n.rounds()) + 3; n.boardPictures > limit {
				t.Errorf("%d board pictures for %.1f rounds: want at most %d", n.boardPictures, n.rounds(), limit)
			}
			if n.pngBytes > 8e6 {
				t.Errorf("%.1f MB of pictures in public: want at most 8", float64(n.pngBytes)/1e6)
			}
			if statusSeen == 0 {
				t.Error("no board message says the state in words")
			}
			checkLatestBoardPicture(t, e.srv.Messages(tb.ch.ID), n.seats)
			// Every picture, public or private, has alt text in the
			// table's language.
			described := 0
			for _, m := range e.srv.Messages(tb.ch.ID) {
				for _, a := range m.Attachments {
					if a.Description == "" {
						t.Errorf("%s in message %s has no alt text", a.Filename, m.ID)
						continue
					}
					described++
					if en := present.EnglishIn(c.lang, a.Description); c.lang != "en" && len(en) > 0 {
						t.Errorf("%s's alt text is in English (%q): %q", a.Filename, en, a.Description)
					}
				}
			}
			if described < n.boardPictures {
				t.Errorf("%d pictures described", described)
			}
			// The race: the first heads-up about trains comes before the
			// last round's alarm, when a seat got one at all.
			headsUp, end := -1, -1
			low := present.T(c.lang, "race.trains_low", "player", "X", "n", 3)
			low = low[:strings.Index(low, "X")]
			for i, m := range e.srv.Messages(tb.ch.ID) {
				if headsUp < 0 && m.Public() && strings.Contains(m.Body(), low) {
					headsUp = i
				}
				if end < 0 && m.Public() && strings.Contains(m.Body(), "🚨") {
					end = i
				}
			}
			t.Logf("%s: the first heads-up about trains in message %d, the last round's alarm in message %d", c.lang, headsUp, end)
			if headsUp >= 0 && end >= 0 && headsUp > end {
				t.Errorf("the heads-up about trains came after the last round was triggered")
			}
			if headsUp < 0 {
				// No heads-up: then no seat was ever seen at 3 to 5 trains before the
				// alarm (a seat went from 6 or more to the end in one claim).
				for i, m := range e.srv.Messages(tb.ch.ID) {
					if end >= 0 && i >= end {
						break
					}
					for _, line := range strings.Split(statusOf(m), " | ") {
						if f := seatTrains.FindStringSubmatch(line); f != nil && atoi(f[1]) >= 3 && atoi(f[1]) <= 5 {
							t.Errorf("message %d shows a seat at %s trains, and no heads-up came: %q", i, f[1], line)
						}
					}
				}
			}
		})
	}
}

// checkLatestBoardPicture: until the final reveal, once a message tells a
// change of the map (a claim, a station, a passenger), a board picture
// follows within a round of public messages: the latest picture shows the
// map as it is, or is at most a round behind it.
func checkLatestBoardPicture(t *testing.T, msgs []fakediscord.Message, seats int) {
	t.Helper()
	since := -1 // public messages since a change not yet pictured
	for _, m := range msgs {
		if !m.Public() {
			continue
		}
		if strings.Contains(m.Body(), "🏁") {
			return // the final reveal: its sheet is the last picture
		}
		if _, ok := m.Attachment("board.png"); ok {
			since = -1
			continue
		}
		if since >= 0 {
			since++
		}
		if since > seats+3 {
			t.Fatalf("message %s is the %dth public message since the map changed, and no picture", m.ID, since)
		}
		if since < 0 && mapChangeTold(m.Body()) {
			since = 0
		}
	}
}

// mapChangeTold: a message's narration tells a claim, a station (its 🚉
// shown as the application's emoji) or a passenger.
func mapChangeTold(content string) bool {
	for _, l := range strings.Split(content, "\n") {
		for _, mark := range []string{"🚂 **", "🚉 **", "🧍 **", "🧳 **"} {
			if strings.HasPrefix(l, mark) {
				return true
			}
		}
		if stationMention.MatchString(l) {
			return true
		}
	}
	return false
}

var stationMention = regexp.MustCompile(`^<:ttr_station_[0-9a-f]{6}:\d+> \*\*`)

// seatTrains finds a seat's trains in a status line ("▶ 🔴 Ann 40 pts · 12 trains", in any
// language): the number after the last " · ".
var seatTrains = regexp.MustCompile(` · (\d+) [^·]*$`)

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
