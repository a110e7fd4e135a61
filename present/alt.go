package present

import (
	"strings"

	"conductor/engine"
)

// MaxAlt is the most text Discord takes as a picture's alt text (an
// attachment's description).
const MaxAlt = 1024

// Alt text: every picture the bot posts says in words, in the table's
// language, what a reader who cannot see it needs — the picture's words,
// never more than the message it goes with may say.

// BoardAlt describes the public board picture: the edition, whose turn it
// is with each seat's points and trains (the status line), the face-up
// cards and the last move.
func BoardAlt(loc string, v *engine.PublicView, players []Player, last string) string {
	parts := []string{T(loc, "alt.board", "edition", EditionName(loc, v.Board, v.Variant))}
	if s := StatusLine(loc, v, players); s != "" {
		parts = append(parts, s)
	}
	var up []string
	for _, c := range v.FaceUp {
		if c != engine.NoCard {
			up = append(up, CardLabel(loc, c))
		}
	}
	if len(up) > 0 {
		parts = append(parts, T(loc, "alt.face_up", "cards", strings.Join(up, ", ")))
	}
	if last != "" {
		parts = append(parts, T(loc, "alt.last_move", "move", last))
	}
	return altText(parts)
}

// FinalAlt describes the final score sheet: the edition and the ranking.
func FinalAlt(loc string, v *engine.PublicView, fs *engine.FinalScore, players []Player) string {
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = PlayerLabel(loc, p)
	}
	parts := []string{T(loc, "alt.final", "edition", EditionName(loc, v.Board, v.Variant))}
	return altText(append(parts, Ranking(loc, fs, names)...))
}

// HandAlt describes a hand's picture, which its message lists in words.
func HandAlt(loc string) string { return altText([]string{T(loc, "alt.hand")}) }

// ReplayAlt describes a finished game's replay.
func ReplayAlt(loc string) string { return altText([]string{T(loc, "alt.replay")}) }

// altText joins parts as plain sentences within Discord's limit.
func altText(parts []string) string {
	for i, p := range parts {
		parts[i] = strings.TrimSpace(StripMarkdown(p))
	}
	return Cut(strings.Join(parts, ". "), MaxAlt)
}
