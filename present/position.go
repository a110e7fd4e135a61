package present

import (
	"bufio"
	"io"
	"sync"

	"conductor/engine/position"
	"conductor/imaging"
)

// positionRenderer draws the positions of a process: one renderer, whose
// board layers, built once, serve every picture after the first.
var positionRenderer = sync.OnceValue(imaging.NewRenderer)

// DrawPosition writes the PNG of a position (`conductor render`) in the
// language of loc: its public board, or with final its score sheet.
func DrawPosition(w io.Writer, loc string, pos *position.Position, final bool) error {
	bw := bufio.NewWriter(w)
	r := positionRenderer()
	var err error
	if final {
		err = r.Final(bw, PositionFinalScene(loc, pos))
	} else {
		var sc *imaging.Scene
		if sc, err = PositionScene(loc, pos); err != nil {
			return err
		}
		err = r.Board(bw, sc)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}
