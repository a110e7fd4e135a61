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
			return sent(resp)(s.ttrNew(ctx, req))
		case "join":
			return sent(resp)(s.lobbyJoin(ctx, req, ""))
		case "leave":
			return sent(resp)(s.leave(ctx, req))
		case "start":
			return sent(resp)(s.start(ctx, req, ""))
		case "addbot":
			return sent(resp)(s.lobbyAddBot(ctx, req))
		case "kick":
			return sent(resp)(s.kickSeat(ctx, req))
		case "end":
			return sent(resp)(s.end(ctx, req))
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
			return sent(resp)(s.notifyCommand(ctx, req))
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
			return sent(resp)(s.lobbyJoin(ctx, req, id.game))
		case "leave":
			return sent(resp)(s.lobbyLeave(ctx, req, id.game))
		case "start":
			return sent(resp)(s.start(ctx, req, id.game))
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
		return sent(resp)(s.replayButton(ctx, req, id))
	case "rematch":
		return sent(resp)(s.rematch(ctx, req, id))
	case "end":
		return sent(resp)(s.endButton(ctx, req, id))
	case "pay":
		return sent(resp)(s.payButton(ctx, req, id))
	case "activity":
		return s.activityButton(req, resp, id)
	}
	return resp.Reply(note(present.T(req.Locale, "stale.unknown")))
}
