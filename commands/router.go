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
			return s.leave(ctx, req, resp)
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
			return sent(resp)(s.undoAsk(ctx, req))
		case "hint":
			return sent(resp)(s.hintCommand(ctx, req))
		case "notify":
			return s.notifyCommand(req, resp)
		}
	case "draw":
		return sent(resp)(s.drawCommand(ctx, req))
	case "claim":
		return sent(resp)(s.claimCommand(ctx, req))
	case "tickets":
		return sent(resp)(s.ticketsCommand(ctx, req, ""))
	case "station":
		return sent(resp)(s.stationCommand(ctx, req))
	case "passenger":
		return sent(resp)(s.passengerCommand(ctx, req))
	case "hand":
		return sent(resp)(s.handCommand(ctx, req, req.Opt("dm") == "true"))
	case "board":
		return sent(resp)(s.boardCommand(ctx, req))
	case "score":
		return sent(resp)(s.scoreCommand(ctx, req))
	case "log":
		return sent(resp)(s.logCommand(ctx, req))
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
		return sent(resp)(s.setupTickets(ctx, req, id))
	case "draw":
		return sent(resp)(s.drawButton(ctx, req, id))
	case "tickets":
		return sent(resp)(s.ticketsButton(ctx, req, id))
	case "mix":
		return sent(resp)(s.mixButton(ctx, req, id))
	case "keep":
		return sent(resp)(s.keepMenu(ctx, req, id))
	case "tunnel":
		return sent(resp)(s.tunnelButton(ctx, req, id))
	case "confirm":
		return sent(resp)(s.confirmButton(ctx, req, id))
	case "trip":
		return sent(resp)(s.tripButton(ctx, req, id))
	case "hand":
		return sent(resp)(s.handCommand(ctx, req, false))
	case "undo":
		return sent(resp)(s.undoVote(ctx, req, id))
	case "replay":
		return s.replayButton(req, resp, id)
	case "rematch":
		return s.rematch(req, resp, id)
	case "end":
		return s.endButton(req, resp, id)
	case "pay":
		return sent(resp)(s.payButton(ctx, req, id))
	case "activity":
		return s.activityButton(req, resp, id)
	}
	return resp.Reply(note(present.T(req.Locale, "stale.unknown")))
}
