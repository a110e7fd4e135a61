package engine

// ScoreNow scores the game as it stands, as if it ended now, without
// changing it: a table that cannot finish (players gone, an evening over)
// can still be scored and archived. A finished game gives its final score.
func (g *Game) ScoreNow() FinalScore {
	if g.final != nil {
		return *g.final
	}
	hs := make([]Holding, len(g.players))
	for i := range g.players {
		hs[i] = g.holding(i)
	}
	return Score(g.board, hs)
}
