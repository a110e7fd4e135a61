package commands

import (
	"errors"

	"conductor/engine"
	"conductor/present"
	"conductor/store"
)

// The board as a live page inside Discord (an Activity, served by the web
// transport): launched from a button on the game's board or from the
// application's Entry Point command, both answered with Discord's
// LAUNCH_ACTIVITY callback. The page's moves come back through Handle like
// any other request.

// Activity is the web transport as the commands see it. Its methods are
// called outside any table's lock and must not block.
type Activity interface {
	// Launched records the activity instance Discord opened for a user.
	Launched(Launch)
	// Changed says that a channel's table changed: a move from any
	// transport, a seat, an undo, a bot's move, the end of the game.
	Changed(channel string)
	// Forgotten says that a server's games were forgotten (/ttr forget).
	Forgotten(guild string)
	// ReplayURL is the public replay page of a guild's finished game; ""
	// when there is none.
	ReplayURL(guild, game string) string
}

// Launch is an activity instance opened from a channel.
type Launch struct {
	Instance       string
	Guild, Channel string
	// Game is the game the instance was opened for; "" when it was
	// opened in a channel whose games the page then offers.
	Game string
	User string
}

// ActivityLauncher is a Responder that can answer a request by opening
// the application's Activity (Discord's LAUNCH_ACTIVITY callback); it
// returns the instance opened, "" when Discord opened one but did not say
// which. After an error nothing was opened and the request is still
// unanswered: a reply is its first answer.
type ActivityLauncher interface {
	LaunchActivity() (instance string, err error)
}

// ActivityInstance is an activity instance as Discord knows it: where it
// runs and who is in it.
type ActivityInstance struct {
	ID             string
	Guild, Channel string
	Users          []string
}

// ErrUnknownInstance: Discord knows no such activity instance (it ended,
// or never was).
var ErrUnknownInstance = errors.New("unknown activity instance")

// EntryPointName is the name of the application's Entry Point command, as
// Discord creates it when Activities are turned on.
const EntryPointName = "launch"

// activityButton opens the page of the channel's game. It reads the
// table's snapshot, never waiting for its lock (the route takes none):
// LAUNCH_ACTIVITY must be the first answer, and a wait past the deferral
// delay would leave only a deferral.
func (s *Service) activityButton(c *call) (response, error) {
	req := c.req
	if s.cfg.Activity == nil {
		return reply(note(present.T(req.Locale, "web.off")))
	}
	snap := s.snapshot(req.Channel)
	if snap == nil || snap.rec.ID != c.id.game || (snap.rec.Status != store.StatusPlaying && snap.rec.Status != store.StatusLobby) {
		return reply(note(present.T(req.Locale, "stale.game")))
	}
	return s.launch(req, Launch{Guild: req.Guild, Channel: req.Channel, Game: c.id.game, User: req.User})
}

// entryPoint answers the Entry Point command: the page of the channel's
// game, of the channel's games to choose from, or of a table to set up.
func (s *Service) entryPoint(c *call) (response, error) {
	req := c.req
	if s.cfg.Activity == nil {
		return reply(note(present.T(req.Locale, "web.off")))
	}
	l := Launch{Guild: req.Guild, Channel: req.Channel, User: req.User}
	if snap := s.snapshot(req.Channel); snap != nil && snap.rec.ID != "" &&
		(snap.rec.Status == store.StatusPlaying || snap.rec.Status == store.StatusLobby) {
		l.Game = snap.rec.ID
		return s.launch(req, l)
	}
	games, err := s.LiveGames(req.Guild, req.Channel)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	// Without a game, the page opens on a table to set up (OpenTable),
	// in a server's channel; a DM holds none.
	if len(games) == 0 && (req.Guild == "" || req.DM) {
		return reply(note(present.T(req.Locale, "web.no_games")))
	}
	return s.launch(req, l)
}

// launch answers with LAUNCH_ACTIVITY, sent once the handler returned
// like every answer, and records the instance opened.
func (s *Service) launch(req *Request, l Launch) (response, error) {
	now := func(r Responder) error {
		lr, ok := r.(ActivityLauncher)
		if !ok {
			return r.Reply(note(present.T(req.Locale, "web.off")))
		}
		inst, err := lr.LaunchActivity()
		if err != nil {
			s.log.Warn("launching the activity", "channel", req.Channel, "err", err)
			return r.Reply(note(present.T(req.Locale, "web.launch_failed")))
		}
		if inst != "" {
			l.Instance = inst
			s.cfg.Activity.Launched(l)
		}
		return nil
	}
	return response{launch: now}, nil
}

// replayLine is the final sheet's link to the public replay page of a
// game that played to its end (one ended early has no replay), "" when
// there is none.
func (t *table) replayLine(loc string) string {
	if t.page == nil || t.game == nil || t.game.Phase() != engine.PhaseOver {
		return ""
	}
	u := t.page.ReplayURL(t.rec.Guild, t.rec.ID)
	if u == "" {
		return ""
	}
	return "\n🎞️ [" + present.T(loc, "web.replay_link") + "](<" + u + ">)"
}
