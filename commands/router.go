package commands

import (
	"context"
	"strings"

	"conductor/present"
)

// command dispatches a slash command.
func (s *Service) command(ctx context.Context, req *Request, resp Responder) error {
	switch req.Name {
	case "ttr":
		switch req.Sub {
		case "new":
			return s.ttrNew(req, resp)
		case "join":
			return s.lobbyJoin(req, resp, "")
		case "leave":
			return s.leave(req, resp)
		case "start":
			return s.start(req, resp, "")
		case "addbot":
			return s.lobbyAddBot(req, resp)
		case "kick":
			return s.kickSeat(req, resp)
		case "end":
			return s.end(req, resp)
		case "help":
			return resp.Reply(s.help(req))
		case "rules":
			return resp.Reply(s.rules(req))
		case "stats":
			return s.stats(req, resp)
		case "forget":
			return s.forget(req, resp)
		case "undo":
			return s.undoAsk(req, resp)
		case "hint":
			return s.hintCommand(req, resp)
		case "notify":
			return s.notifyCommand(req, resp)
		}
	case "draw":
		return s.drawCommand(req, resp)
	case "claim":
		return s.claimCommand(req, resp)
	case "tickets":
		return s.ticketsCommand(req, resp, "")
	case "station":
		return s.stationCommand(req, resp)
	case "passenger":
		return s.passengerCommand(req, resp)
	case "hand":
		return s.handCommand(req, resp, req.Opt("dm") == "true")
	case "board":
		return s.boardCommand(req, resp)
	case "score":
		return s.scoreCommand(req, resp)
	case "log":
		return s.logCommand(req, resp)
	case EntryPointName:
		return s.entryPoint(req, resp)
	}
	return resp.Reply(note(present.T(req.Locale, "error.unknown_command", "name", strings.TrimSpace(req.Name+" "+req.Sub))))
}

// component dispatches a button click or a menu choice.
func (s *Service) component(ctx context.Context, req *Request, resp Responder) error {
	id, ok := parseCID(req.CustomID)
	if !ok {
		return resp.Reply(note(present.T(req.Locale, "stale.unknown")))
	}
	switch id.kind {
	case "lobby":
		if !s.routeToThread(req, &id) {
			return resp.Reply(note(present.T(req.Locale, "stale.game")))
		}
		switch id.arg {
		case "join":
			return s.lobbyJoin(req, resp, id.game)
		case "leave":
			return s.lobbyLeave(req, resp, id.game)
		case "start":
			return s.start(req, resp, id.game)
		}
	case "setup":
		return s.setupTickets(req, resp, id)
	case "draw":
		return s.drawButton(req, resp, id)
	case "tickets":
		return s.ticketsButton(req, resp, id)
	case "mix":
		return s.mixButton(req, resp, id)
	case "keep":
		return s.keepMenu(req, resp, id)
	case "tunnel":
		return s.tunnelButton(req, resp, id)
	case "confirm":
		return s.confirmButton(req, resp, id)
	case "trip":
		return s.tripButton(req, resp, id)
	case "hand":
		return s.handCommand(req, resp, false)
	case "undo":
		return s.undoVote(req, resp, id)
	case "replay":
		return s.replayButton(req, resp, id)
	case "rematch":
		return s.rematch(req, resp, id)
	case "end":
		return s.endButton(req, resp, id)
	case "pay":
		return s.payButton(req, resp, id)
	case "activity":
		return s.activityButton(req, resp, id)
	}
	return resp.Reply(note(present.T(req.Locale, "stale.unknown")))
}
