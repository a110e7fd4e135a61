package present

import (
	"strings"

	"conductor/data"
	"conductor/engine"
)

// StatusLine is the table in one line of words, for a reader who does not
// see the board picture's side panel (the terminal; a narrow screen): each
// seat's points and trains left, the seat to play marked ▶, who holds the
// longest path where the board scores one, and the last round. It is ""
// while the first tickets are chosen and once the game is over.
func StatusLine(loc string, v *engine.PublicView, players []Player) string {
	return strings.Join(StatusLines(loc, v, players), StatusSeparator)
}

// StatusSeparator joins the status line's parts; SplitStatus parts it again.
const StatusSeparator = " | "

// SplitStatus parts a status line (StatusLine) into its short lines, one a seat, then the
// longest path and the last round: a layout that reads at 400 pixels (Discord's first width),
// where the whole line wraps anywhere. A name holding " | " breaks its line in two, no worse.
func SplitStatus(status string) []string {
	if status == "" {
		return nil
	}
	return strings.Split(status, StatusSeparator)
}

// StatusLines are the status line's parts: one a seat, then the longest path and the last
// round; none while the first tickets are chosen and once the game is over.
func StatusLines(loc string, v *engine.PublicView, players []Player) []string {
	if v.Phase == engine.PhaseSetup || v.Phase == engine.PhaseOver {
		return nil
	}
	name := seatLabel(loc, players)
	parts := make([]string, 0, len(v.Players)+2)
	for i, p := range v.Players {
		seat := ColorDot(i) + " " + T(loc, "status.line.seat", "player", name(i), "score", p.Score, "trains", p.Trains)
		if i == v.Current {
			seat = "▶ " + seat
		}
		parts = append(parts, seat)
	}
	if v.Board.Rules.LongestPathBonus > 0 {
		if length, holders := longestHolders(v); length > 0 {
			names := make([]string, len(holders))
			for i, h := range holders {
				names[i] = name(h)
			}
			parts = append(parts, T(loc, "status.line.longest", "players", JoinList(loc, names), "length", length))
		}
	}
	if v.LastRound {
		parts = append(parts, T(loc, "status.line.last_round"))
	}
	return parts
}

// seatLabel names seats briefly, as the status line and the race's lines
// do: a bot by its name alone.
func seatLabel(loc string, players []Player) func(seat int) string {
	return func(seat int) string {
		if seat >= len(players) {
			return "?"
		}
		p := players[seat]
		if p.Bot && p.For == "" {
			return "🤖 " + BotBaseName(p.Name, p.Level)
		}
		return PlayerLabel(loc, p)
	}
}

// longestHolders are the seats whose continuous path is the longest, and
// its length in trains: what the longest-path bonus would reward if the
// game ended now (0 before anyone has a track).
func longestHolders(v *engine.PublicView) (int, []int) {
	tracks := make([][]data.TrackID, len(v.Players))
	for tr, o := range v.Owners {
		if o >= 0 && int(o) < len(tracks) {
			tracks[o] = append(tracks[o], data.TrackID(tr))
		}
	}
	var search engine.PathSearch
	best, holders := 0, []int(nil)
	for seat, ts := range tracks {
		n, _ := search.Longest(v.Board, ts)
		switch {
		case n == 0 || n < best:
		case n > best:
			best, holders = n, []int{seat}
		default:
			holders = append(holders, seat)
		}
	}
	return best, holders
}
