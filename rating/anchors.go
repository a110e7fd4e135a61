package rating

// The bots are fixed anchors: each level's rating on each edition was
// measured once, on games between the bots, and a bot's seat is then an
// opponent of known strength that no game moves (Seat.Fixed). Beating
// the expert is a number, and a server where one person plays the bots
// still gets ratings that mean something.
//
// How they were measured (docs/ratings.md has the tables and the command):
//
//   - Games: on each edition, 3,600 fresh games between easy, normal and
//     hard at 2 to 5 seats, 300 a lineup, seats rotating (`conductor
//     selfplay --players L --games 300 --seed S --workers 1`, the twelve
//     lineups and seeds of docs/ratings.md, S from 460000), and the
//     expert's games against hard at 2 to 5 seats from the lines of
//     docs/bots.md, the expert as it plays now (the `measurements`
//     branch's logs listed in docs/ratings.md): 3,162 games on USA, 2,357
//     on Europe, 1,608 on Märklin.
//   - Fit: Model.Fit, the skills at which every level's seats win as many
//     of their pairwise comparisons as the model expects, a game's seats
//     of one level sharing one seat's weight: the point where Rate's
//     updates settle for a member who plays as that level, one seat a
//     game. Skills are known up to a shift; normal is put at a newcomer's
//     Mu (25): a newcomer is believed as strong as the normal bot until
//     they play.
//   - Standard errors: Model.FitSE, 1,000 draws of the games with
//     replacement (seed 1). They are the anchors' Sigma.
//
// `conductor ratings --fit` on rating/testdata/anchors.txt.gz (the same
// games, one line each) prints these figures again, and
// TestAnchorsAreTheFit checks that they are the code's.

// Anchor is a bot level's measured rating on one edition.
type Anchor struct {
	Level  string
	Rating Rating // Mu fitted; Sigma its standard error
	Games  int    // games of the measurement the level sat in
}

// AnchorsMeasured is the date of the measurement: part of the formula's
// version (Version), so that a new measurement recomputes every rating.
const AnchorsMeasured = "2026-11-28"

// anchors are the measured anchors by edition, weakest first.
var anchors = map[string][]Anchor{
	"usa": {
		{"easy", Rating{Mu: 14.16, Sigma: 0.26}, 3000},
		{"normal", Rating{Mu: 25, Sigma: 0}, 3300},
		{"hard", Rating{Mu: 29.58, Sigma: 0.22}, 6162},
		{"expert", Rating{Mu: 34.21, Sigma: 0.30}, 3162},
	},
	"europe": {
		{"easy", Rating{Mu: 14.52, Sigma: 0.26}, 3000},
		{"normal", Rating{Mu: 25, Sigma: 0}, 3300},
		{"hard", Rating{Mu: 30.32, Sigma: 0.23}, 5357},
		{"expert", Rating{Mu: 34.96, Sigma: 0.34}, 2357},
	},
	"marklin": {
		{"easy", Rating{Mu: 6.72, Sigma: 0.43}, 3000},
		{"normal", Rating{Mu: 25, Sigma: 0}, 3300},
		{"hard", Rating{Mu: 32.27, Sigma: 0.25}, 4608},
		{"expert", Rating{Mu: 38.27, Sigma: 0.40}, 1608},
	},
}

// Anchors returns the bot levels' ratings on an edition (nil for an
// edition never measured).
func Anchors(edition string) map[string]Rating {
	list, ok := anchors[edition]
	if !ok {
		return nil
	}
	out := make(map[string]Rating, len(list))
	for _, a := range list {
		out[a.Level] = a.Rating
	}
	return out
}

// AnchorList returns an edition's anchors, weakest first (nil for none).
func AnchorList(edition string) []Anchor {
	return append([]Anchor(nil), anchors[edition]...)
}

// AnchorFor returns one level's anchor on an edition.
func AnchorFor(edition, level string) (Rating, bool) {
	for _, a := range anchors[edition] {
		if a.Level == level {
			return a.Rating, true
		}
	}
	return Rating{}, false
}
