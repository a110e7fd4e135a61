package main

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"path/filepath"

	xdraw "golang.org/x/image/draw"

	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/internal/testkit/recorded"
	"conductor/present"
)

// The pictures are those of real games: recorded games (the engine's
// fixtures, engine/testdata/games) replayed move by move, narrated and drawn
// exactly as the bot draws a table's boards, hands and score sheets.

// shownGame is a recorded game as the docs show it, and the languages of
// its extra pictures beside the English ones.
type shownGame struct {
	board, record string
	// extra: language -> the pictures drawn in it too ("late", "hand", "final").
	extra  map[string][]string
	replay bool // an animated replay too
	// previews: the board before and after a claim at Discord's preview
	// width, where claimed routes must stand out from free ones.
	previews bool
	// ratings: the score sheet with its members' rating changes, and a
	// table of ratings on the edition, in English and French.
	ratings bool
}

var shownGames = []shownGame{
	{board: "usa", record: "usa-1910-bots", previews: true},
	{board: "europe", record: "europe-stations", extra: map[string][]string{"fr": {"late", "final"}}, replay: true, ratings: true},
	{board: "marklin", record: "marklin-bots", extra: map[string][]string{"de": {"late", "hand"}}},
}

// seatNames are the players' names in the pictures; the last seat is a bot.
var seatNames = []string{"Alice", "Bruno", "Chloé", "Dmitri", "Eve"}

// replayBytes bounds the docs' replay, far below Discord's limit: the
// program samples the game's turns to fit, as it does for Discord.
const replayBytes = 700 << 10

// played is a game replayed, with what the pictures need of it.
type played struct {
	b       *data.Board
	players []present.Player
	names   []string
	moves   [][]engine.Event // the events of each move, in order
	// first: the board once everyone has chosen their tickets; late: after
	// the move that announces the last round (its events up to lateMove);
	// beforeLate: the board just before that move.
	first, late, beforeLate engine.PublicView
	firstMove, lateMove     int
	hand                    engine.PlayerView // seat 0's view at late
	end                     engine.PublicView
	final                   *engine.FinalScore
	turns                   []engine.PublicView // the board after each turn
	turnMoves               []int
}

func replay(root string, g shownGame) (*played, error) {
	rec, err := recorded.Read(filepath.Join(root, "engine", "testdata", "games", g.record+recorded.Ext))
	if err != nil {
		return nil, err
	}
	p := &played{firstMove: -1, lateMove: -1}
	var before engine.PublicView // the board before the move being replayed
	eg, err := rec.Replay(data.Embedded(), func(eg *engine.Game, _ engine.Move, ev []engine.Event) {
		p.moves = append(p.moves, ev)
		n := len(p.moves) - 1
		if p.firstMove < 0 && eg.Phase() != engine.PhaseSetup {
			p.first, p.firstMove = eg.Public(), n
		}
		for _, e := range ev {
			if e.Kind == engine.EvLastRound && p.lateMove < 0 {
				p.late, p.lateMove, p.hand, p.beforeLate = eg.Public(), n, eg.View(0), before
			}
		}
		if p.lateMove < 0 {
			before = eg.Public()
		}
		if eg.Phase() != engine.PhaseSetup && (len(p.turns) == 0 || eg.Turn() != p.turns[len(p.turns)-1].Turn || eg.Phase() == engine.PhaseOver) {
			p.turns, p.turnMoves = append(p.turns, eg.Public()), append(p.turnMoves, n)
		}
	})
	if err != nil {
		return nil, err
	}
	if p.firstMove < 0 || p.lateMove < 0 || eg.Phase() != engine.PhaseOver {
		return nil, fmt.Errorf("%s: the game does not go from its first turn to a last round and its end", g.record)
	}
	p.b, p.end, p.final = eg.Board(), eg.Public(), eg.Final()
	if p.b.ID != g.board {
		return nil, fmt.Errorf("%s is played on %s, not %s", g.record, p.b.ID, g.board)
	}
	for i := range p.end.Players {
		p.names = append(p.names, seatNames[i])
		if i == len(p.end.Players)-1 {
			p.players = append(p.players, present.Player{Name: seatNames[i], Bot: true, Level: "hard"})
		} else {
			p.players = append(p.players, present.Player{Name: seatNames[i]})
		}
	}
	return p, nil
}

// lastLine is the narration line the board shows after move n: the last
// public line of the latest move that has one, as the bot keeps them.
func (p *played) lastLine(loc string, n int) string {
	name := func(seat int) string { return p.names[seat] }
	for ; n >= 0; n-- {
		if lines := present.Narrate(loc, p.b, name, p.moves[n]); len(lines) > 0 {
			return lines[len(lines)-1]
		}
	}
	return ""
}

// draw makes one of a game's pictures in a language: "empty", "late",
// "hand", "final" (PNG) or "replay" (GIF).
func (p *played) draw(r *imaging.Renderer, kind, loc string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch kind {
	case "empty":
		err = r.Board(&buf, present.BoardScene(loc, &p.first, p.players, p.lastLine(loc, p.firstMove)))
	case "late":
		err = r.Board(&buf, present.BoardScene(loc, &p.late, p.players, p.lastLine(loc, p.lateMove)))
	case "preview-before", "preview-after":
		// At Discord's preview width: the board just before the move that
		// announces the last round, and just after it.
		v, last := &p.beforeLate, p.lateMove-1
		if kind == "preview-after" {
			v, last = &p.late, p.lateMove
		}
		if err = r.Board(&buf, present.BoardScene(loc, v, p.players, p.lastLine(loc, last))); err != nil {
			break
		}
		return preview(buf.Bytes())
	case "hand":
		err = r.Hand(&buf, present.HandScene(loc, &p.hand, p.names[0]))
	case "final":
		err = r.Final(&buf, present.FinalScene(loc, &p.end, p.final, p.players, false))
	case "final-ratings":
		sc := present.FinalScene(loc, &p.end, p.final, p.players, false)
		present.RateFinalScene(loc, sc, p.sheetChanges())
		err = r.Final(&buf, sc)
	case "leaderboard":
		err = r.Leaderboard(&buf, present.LeaderboardScene(loc, leaderboard(loc)))
	case "replay":
		frames := make([]imaging.Scene, len(p.turns))
		for i := range p.turns {
			frames[i] = *present.BoardScene(loc, &p.turns[i], p.players, p.lastLine(loc, p.turnMoves[i]))
		}
		gif, err := present.Replay(r, frames, replayBytes)
		return gif.Data, err
	default:
		return nil, fmt.Errorf("no picture %q", kind)
	}
	return buf.Bytes(), err
}

// previewWidth is the width Discord shows a picture at in a channel before
// it is opened.
const previewWidth = 400

// preview scales a PNG down to previewWidth, as Discord's preview does.
func preview(full []byte) ([]byte, error) {
	im, err := png.Decode(bytes.NewReader(full))
	if err != nil {
		return nil, err
	}
	b := im.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, previewWidth, b.Dy()*previewWidth/b.Dx()))
	xdraw.CatmullRom.Scale(dst, dst.Rect, im, b, xdraw.Src, nil)
	var out bytes.Buffer
	err = png.Encode(&out, dst)
	return out.Bytes(), err
}

// pictureName is a picture's file: board-kind.png, board-kind.LANG.png
// beside the English one.
func pictureName(board, kind, loc string) string {
	ext := ".png"
	if kind == "replay" {
		ext = ".gif"
	}
	if loc != "en" {
		ext = "." + loc + ext
	}
	return board + "-" + kind + ext
}

// pictures draws every picture of docs/images.
func pictures(root string) ([]output, error) {
	r := imaging.NewRenderer()
	var out []output
	for _, g := range shownGames {
		p, err := replay(root, g)
		if err != nil {
			return nil, err
		}
		type shot struct{ kind, loc string }
		shots := []shot{{"empty", "en"}, {"late", "en"}, {"hand", "en"}, {"final", "en"}}
		if g.replay {
			shots = append(shots, shot{"replay", "en"})
		}
		if g.previews {
			shots = append(shots, shot{"preview-before", "en"}, shot{"preview-after", "en"})
		}
		if g.ratings {
			shots = append(shots, shot{"final-ratings", "en"}, shot{"final-ratings", "fr"}, shot{"leaderboard", "en"}, shot{"leaderboard", "fr"})
		}
		for _, loc := range present.Languages {
			for _, kind := range g.extra[loc] {
				shots = append(shots, shot{kind, loc})
			}
		}
		for _, s := range shots {
			data, err := p.draw(r, s.kind, s.loc)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", g.record, s.kind, err)
			}
			out = append(out, output{path: filepath.Join("docs", "images", pictureName(g.board, s.kind, s.loc)), data: data, picture: true})
		}
	}
	sheet, err := emojiSheet()
	if err != nil {
		return nil, err
	}
	return append(out, sheet), nil
}
