package commands

import (
	"context"
	"strings"

	"conductor/present"
)

// command dispatches a slash command.
func (s *Service) command(ctx context.Context, req *Request) (response, error) {
	switch req.Name {
	case "ttr":
		switch req.Sub {
		case "new":
			return s.ttrNew(ctx, req)
		case "join":
			return s.lobbyJoin(ctx, req, "")
		case "leave":
			return s.leave(ctx, req)
		case "start":
			return s.start(ctx, req, "")
		case "addbot":
			return s.lobbyAddBot(ctx, req)
		case "kick":
			return s.kickSeat(ctx, req)
		case "end":
			return s.end(ctx, req)
		case "help":
			return reply(s.help(req))
		case "rules":
			return reply(s.rules(req))
		case "stats":
			return s.stats(ctx, req)
		case "forget":
			if who := req.Opt("player"); who != "" {
				return s.forgetMember(ctx, req, who)
			}
			return s.forget(ctx, req)
		case "rating":
			return s.ratingCommand(ctx, req)
		case "leaderboard":
			return s.leaderboardCommand(ctx, req)
		case "season":
			return s.seasonCommand(ctx, req)
		case "undo":
			return s.undoAsk(ctx, req)
		case "hint":
			return s.hintCommand(ctx, req)
		case "notify":
			return s.notifyCommand(ctx, req)
		}
	case "draw":
		return s.drawCommand(ctx, req)
	case "claim":
		return s.claimCommand(ctx, req)
	case "tickets":
		return s.ticketsCommand(ctx, req, "")
	case "station":
		return s.stationCommand(ctx, req)
	case "passenger":
		return s.passengerCommand(ctx, req)
	case "hand":
		return s.handCommand(ctx, req, req.Opt("dm") == "true")
	case "board":
		return s.boardCommand(ctx, req)
	case "score":
		return s.scoreCommand(ctx, req)
	case "log":
		return s.logCommand(ctx, req)
	case EntryPointName:
		return s.entryPoint(ctx, req)
	}
	return reply(note(present.T(req.Locale, "error.unknown_command", "name", strings.TrimSpace(req.Name+" "+req.Sub))))
}

// component dispatches a button click or a menu choice.
func (s *Service) component(ctx context.Context, req *Request) (response, error) {
	id, ok := parseCID(req.CustomID)
	if !ok {
		return reply(note(present.T(req.Locale, "stale.unknown")))
	}
	switch id.kind {
	case "lobby":
		if !s.routeToThread(req, &id) {
			return reply(note(present.T(req.Locale, "stale.game")))
		}
		switch id.arg {
		case "join":
			return s.lobbyJoin(ctx, req, id.game)
		case "leave":
			return s.lobbyLeave(ctx, req, id.game)
		case "start":
			return s.start(ctx, req, id.game)
		}
	case "setup":
		return s.setupTickets(ctx, req, id)
	case "draw":
		return s.drawButton(ctx, req, id)
	case "tickets":
		return s.ticketsButton(ctx, req, id)
	case "mix":
		return s.mixButton(ctx, req, id)
	case "keep":
		return s.keepMenu(ctx, req, id)
	case "tunnel":
		return s.tunnelButton(ctx, req, id)
	case "confirm":
		return s.confirmButton(ctx, req, id)
	case "trip":
		return s.tripButton(ctx, req, id)
	case "hand":
		return s.handCommand(ctx, req, false)
	case "undo":
		return s.undoVote(ctx, req, id)
	case "replay":
		return s.replayButton(ctx, req, id)
	case "rematch":
		return s.rematch(ctx, req, id)
	case "end":
		return s.endButton(ctx, req, id)
	case "pay":
		return s.payButton(ctx, req, id)
	case "activity":
		return s.activityButton(ctx, req, id)
	}
	return reply(note(present.T(req.Locale, "stale.unknown")))
}
