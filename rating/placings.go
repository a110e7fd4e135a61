package rating

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadPlacings reads games written one a line as
//
//	EDITION PLAYER:RANK PLAYER:RANK ...
//
// (a seat a field, in seat order; blank lines and lines starting with #
// are skipped), the form the anchors' and the calibration's games are
// kept in (testdata/, `conductor ratings --compact`). It returns the
// games by edition, in the order read.
func ReadPlacings(r io.Reader) (map[string][]FitGame, error) {
	out := map[string][]FitGame{}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) < 3 {
			return nil, fmt.Errorf("line %d: an edition and two seats at least, got %q", line, text)
		}
		game := make(FitGame, 0, len(fields)-1)
		for _, f := range fields[1:] {
			player, rank, ok := strings.Cut(f, ":")
			n, err := strconv.Atoi(rank)
			if !ok || err != nil || player == "" || n < 1 || n > len(fields)-1 {
				return nil, fmt.Errorf("line %d: %q is not PLAYER:RANK", line, f)
			}
			game = append(game, Placing{Player: player, Rank: n})
		}
		out[fields[0]] = append(out[fields[0]], game)
	}
	return out, sc.Err()
}

// WritePlacings writes one game as ReadPlacings reads it.
func WritePlacings(w io.Writer, edition string, game FitGame) error {
	var b strings.Builder
	b.WriteString(edition)
	for _, p := range game {
		fmt.Fprintf(&b, " %s:%d", p.Player, p.Rank)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}
