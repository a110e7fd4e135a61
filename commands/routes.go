package commands

// newRouter is the table of every command, button, menu and page move, each
// with the checks it needs (checks.go). A new command is one line here, its
// handler, and its definition (definitions.go).
func (s *Service) newRouter() *router {
	r := &router{commands: map[string]handler{}, components: map[string]handler{}, moves: map[string]handler{}}
	open := r.with()                                  // no table
	table := r.with(s.atChannel)                      // the channel's table, locked
	game := r.with(s.atChannel, s.inGame)             // its running game, for anyone
	seated := r.with(s.atChannel, s.seated)           // a seated player of it
	onTurn := r.with(s.atChannel, s.seated, s.onTurn) // on their turn
	lobby := r.with(s.toThread, s.atChannel)          // a lobby, in its thread

	open.command("ttr new", s.ttrNew)
	table.command("ttr join", s.lobbyJoin)
	table.command("ttr leave", s.leave)
	table.command("ttr start", s.start)
	table.command("ttr addbot", s.lobbyAddBot)
	table.command("ttr kick", s.kickSeat)
	table.command("ttr end", s.end)
	table.command("ttr notify", s.notifyCommand)
	open.command("ttr help", s.help)
	open.command("ttr rules", s.rules)
	open.command("ttr stats", s.stats)
	open.command("ttr forget", s.forget)
	open.command("ttr rating", s.ratingCommand)           // ratings.go
	open.command("ttr leaderboard", s.leaderboardCommand) // the picture drawn here: no lock held
	open.command("ttr season", s.seasonCommand)
	seated.command("ttr undo", s.undoAsk)
	seated.command("ttr hint", s.hintCommand)
	onTurn.command("draw", s.drawCommand)
	onTurn.command("claim", s.claimCommand)
	onTurn.command("tickets", s.ticketsCommand)
	onTurn.command("station", s.stationCommand)
	onTurn.command("passenger", s.passengerCommand)
	seated.command("hand", s.handCommand)
	game.command("board", s.boardCommand)
	game.command("score", s.scoreCommand)
	game.command("log", s.logCommand)
	open.command(EntryPointName, s.entryPoint)

	lobby.component("lobby", s.lobbyButton)
	seated.component("setup", s.setupTickets)
	onTurn.component("draw", s.drawButton)
	onTurn.component("tickets", s.ticketsButton)
	seated.component("mix", s.mixButton)
	seated.component("keep", s.keepMenu)
	onTurn.component("tunnel", s.tunnelButton)
	onTurn.component("confirm", s.confirmButton)
	onTurn.component("trip", s.tripButton)
	onTurn.component("pay", s.payButton)
	r.with(anyGame, s.atChannel, s.seated).component("hand", s.handCommand) // any board's
	seated.component("undo", s.undoVote)
	table.component("end", s.endButton)
	open.component("activity", s.activityButton) // from the snapshot: no lock
	open.component("replay", s.replayButton)
	open.component("rematch", s.rematch)

	onTurn.move(moveClaim, s.claimMove)
	onTurn.move(moveStation, s.stationMove)
	onTurn.move(movePassenger, s.passengerMove)
	return r
}
