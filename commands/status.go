package commands

import "conductor/engine"

// TurnInfo tells a transport who is expected to act in a channel.
type TurnInfo struct {
	GameID string
	Phase  engine.Phase
	// Current is the user whose turn it is ("" during setup or for a bot).
	Current string
	// CurrentBot is set when a bot is to play.
	CurrentBot bool
	// Choosing lists the humans still choosing their first tickets.
	Choosing []string
	Lobby    bool
}

// Turn reports who is to act in a channel; ok is false when there is no game.
func (s *Service) Turn(channel string) (TurnInfo, bool) {
	t, err := s.tables.get(channel)
	if err != nil {
		return TurnInfo{}, false
	}
	defer t.unlock()
	if t.rec == nil {
		return TurnInfo{}, false
	}
	info := TurnInfo{GameID: t.rec.ID}
	if t.game == nil {
		info.Lobby = true
		return info, true
	}
	g := t.game
	info.Phase = g.Phase()
	switch g.Phase() {
	case engine.PhaseSetup:
		for seat, st := range t.rec.Seats {
			if st.Bot == "" && !g.SetupDone(seat) {
				info.Choosing = append(info.Choosing, st.UserID)
			}
		}
	case engine.PhaseOver:
	default:
		st := t.rec.Seats[g.Current()]
		info.CurrentBot = st.Bot != ""
		if !info.CurrentBot {
			info.Current = st.UserID
		}
	}
	return info, true
}
