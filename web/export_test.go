package web

import (
	"context"

	"conductor/commands"
)

// SetMoveHandler puts f where a page's moves are applied (svc.Move), for
// a test that needs a move to fail in a way no request can cause.
func SetMoveHandler(s *Server, f func(context.Context, commands.PageMove) []commands.Message) {
	s.move = f
}
