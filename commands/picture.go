package commands

import (
	"bytes"
	"fmt"
	"io"

	"conductor/data"
	"conductor/imaging"
)

// Renderer draws the pictures the tables show: the board after a move, a
// player's hand, the final score sheet, a finished game's replay, a
// server's table of ratings.
// imaging.Renderer is the one every transport uses; a test of flow may use
// a cheap one, while the imaging tests and golden pictures keep the pixels
// honest.
type Renderer interface {
	Board(w io.Writer, s *imaging.Scene) error
	Hand(w io.Writer, h *imaging.HandScene) error
	Final(w io.Writer, fs *imaging.FinalScene) error
	Replay(frames []imaging.Scene) ([]byte, error)
	Leaderboard(w io.Writer, s *imaging.LeaderboardScene) error
}

var _ Renderer = (*imaging.Renderer)(nil)

// picture is a public picture as an outbox entry keeps it: the scene to
// draw when the entry is sent, never its pixels. A scene holds only what
// everyone may see: it is built from the game's public view
// (present.BoardScene, present.FinalScene), so a picture carries no hand,
// no ticket held and no deck order. The board it is drawn on is named by
// its id; the scene's Board is nil here.
type picture struct {
	Map string
	// Alt is the picture's alt text, in the table's language.
	Alt   string              `json:",omitempty"`
	Board *imaging.Scene      `json:",omitempty"` // the board after a move
	Final *imaging.FinalScene `json:",omitempty"` // the final score sheet
}

// boardPicture keeps a board's scene for the outbox.
func boardPicture(s *imaging.Scene, alt string) *picture {
	sc := *s
	sc.Board = nil
	return &picture{Map: s.Board.ID, Board: &sc, Alt: alt}
}

// sheetPicture keeps a final score sheet's scene for the outbox.
func sheetPicture(fs *imaging.FinalScene, alt string) *picture {
	sc := *fs
	sc.Board = nil
	return &picture{Map: fs.Board.ID, Final: &sc, Alt: alt}
}

// draw draws the picture: the file its message carries.
func (p *picture) draw(r Renderer, boards *data.Catalog) (File, error) {
	b, err := boards.Board(p.Map)
	if err != nil {
		return File{}, err
	}
	var buf bytes.Buffer
	switch {
	case p.Board != nil:
		sc := *p.Board
		sc.Board = b
		err = r.Board(&buf, &sc)
		return pngFile("board.png", buf.Bytes(), p.Alt), err
	case p.Final != nil:
		sc := *p.Final
		sc.Board = b
		err = r.Final(&buf, &sc)
		return pngFile("final.png", buf.Bytes(), p.Alt), err
	}
	return File{}, fmt.Errorf("a picture of %s without a scene", p.Map)
}

// drawBoard draws a board's scene, outside any lock.
func drawBoard(r Renderer, s *imaging.Scene, alt string) (File, error) {
	var buf bytes.Buffer
	err := r.Board(&buf, s)
	return pngFile("board.png", buf.Bytes(), alt), err
}

func pngFile(name string, data []byte, alt string) File {
	return File{Name: name, ContentType: "image/png", Data: data, Description: alt}
}
