package commands

import (
	"context"

	"conductor/engine"
	"conductor/present"
)

// The live page's moves (web/) reach the tables as moves, not as slash
// commands: a track to claim by its engine reference, a city to build a
// station in or to move one's passenger from, or a button or a menu of the
// page pressed by its custom id. A move passes the same checks as the
// command or button it stands for (routes.go) and is answered as soon as
// it is decided: the page redraws from View, which the move changed, and
// does not wait for the channel's posts, which the sender delivers
// (Handle waits for them, for the transports that post).

// PageMove is a move a seated reader makes on the live page.
type PageMove struct {
	// ID names the move (the page's nonce): a move repeated is applied
	// once, as an interaction delivered twice is.
	ID                                     string
	Guild, Channel, User, UserName, Locale string

	// What the move does: one of these.
	//
	// Track claims a track by its engine reference ("Paris|Frankfurt#1"),
	// putting a passenger in the city Passenger names, if any (Märklin).
	Track, Passenger string
	// Station builds a station in the city.
	Station string
	// From moves the reader's passenger from the city (the trips are
	// offered).
	From string
	// Press presses a button or chooses in a menu of the page, by its
	// custom id; Values are a menu's choices.
	Press  string
	Values []string
}

// The kinds of the page's moves that are no press (router.moves).
const (
	moveClaim     = "claim"
	moveStation   = "station"
	movePassenger = "passenger"
)

// kind says what the move does; "" for a press or nothing.
func (m *PageMove) kind() string {
	switch {
	case m.Track != "":
		return moveClaim
	case m.Station != "":
		return moveStation
	case m.From != "":
		return movePassenger
	}
	return ""
}

// Move plays a move of the live page and returns its answers: the
// reader's private reply and what follows it. It returns nothing for a
// move already played, and does not wait for the channel's posts.
func (s *Service) Move(ctx context.Context, m PageMove) []Message {
	if s.recent.seen(m.ID) {
		s.log.Debug("repeated page move ignored", "id", m.ID)
		return nil
	}
	req := &Request{ID: m.ID, Guild: m.Guild, Channel: m.Channel, User: m.User, UserName: m.UserName, Locale: m.Locale}
	var r response
	if m.Press != "" {
		req.Type, req.CustomID, req.Values = ComponentRequest, m.Press, m.Values
		r = s.answer(ctx, req)
	} else {
		r = s.answered(req, func() (response, error) { return s.routes.route(&call{ctx: ctx, req: req, move: &m}) })
	}
	var rec Recorder
	if err := r.sendTo(&rec); err != nil {
		s.log.Warn("page move's answer", "channel", m.Channel, "err", err)
	}
	return rec.Messages()
}

// claimMove: a track clicked on the page.
func (s *Service) claimMove(c *call) (response, error) {
	tn, m := c.turn, c.move
	g := tn.t.game
	tr, err := engine.ParseTrackRef(g.Board(), m.Track)
	if err != nil {
		return reply(note(present.T(c.req.Locale, "claim.bad_route", "route", m.Track, "example", g.Board().TrackName(exampleTrack(g, tn.seat)))))
	}
	return tn.claim(tr, payChoice{}, m.Passenger)
}

// stationMove: a city clicked on the page to build a station in.
func (s *Service) stationMove(c *call) (response, error) {
	city, ok := c.turn.t.game.Board().FindCity(c.move.Station)
	if !ok {
		return reply(note(present.T(c.req.Locale, "error.bad_city", "city", c.move.Station)))
	}
	return c.turn.station(city, payChoice{})
}

// passengerMove: a city clicked on the page to move one's passenger from.
func (s *Service) passengerMove(c *call) (response, error) {
	return c.turn.passengerFrom(c.move.From, "")
}
