package commands

import (
	"context"

	"conductor/data"
)

// Opening a table from the live page: the Entry Point pressed in a channel
// without a game opens the page on a form (edition, variant, bots), which
// opens the table as /ttr new and /ttr addbot would, through the same
// functions, with the same limits and refusals.

// TableChoices are what a table may be set up with here: the boards and
// the bots' levels (none when the bot has no bots).
type TableChoices struct {
	Boards    []*data.Board
	BotLevels []string
}

// TableChoices lists the boards and the bots' levels a table may have.
func (s *Service) TableChoices() TableChoices {
	var c TableChoices
	for _, id := range s.cfg.Catalog.IDs() {
		if b, err := s.cfg.Catalog.Board(id); err == nil {
			c.Boards = append(c.Boards, b)
		}
	}
	if s.cfg.Bots != nil {
		c.BotLevels = append(c.BotLevels, s.cfg.BotLevels...)
	}
	return c
}

// OpenTable opens a table in req's channel (or a thread of it) as /ttr new
// with req's options would, its asker in the first seat, and seats a bot
// for each of bots (levels). It returns the channel the table plays in and
// its game, and the asker's answer; channel is "" when no table opened,
// and the answer says why.
func (s *Service) OpenTable(ctx context.Context, req *Request, bots []string) (channel, game string, answer Message) {
	rec, refusal := s.newTableRecord(req)
	if refusal != "" {
		return "", "", note(refusal)
	}
	opened, answer := s.opener.open(ctx, req, tableOpening{rec: rec, home: req.Channel, kind: req.ChannelKind,
		wantThread: s.opener.threadsHere(req), put: s.cfg.Store.PutWithPosts})
	if !opened {
		return "", "", answer
	}
	for _, level := range bots {
		r := *req
		r.Type, r.Name, r.Sub = CommandRequest, "ttr", "addbot"
		r.Channel, r.Options = rec.Channel, map[string]string{"level": level}
		resp, err := s.routes.route(&call{ctx: ctx, req: &r})
		if err != nil || len(resp.msg.Embeds) == 0 {
			// Refused (the table is full, the level unknown): the table
			// stays open with the seats it has, and the answer says why.
			if resp.msg.Content != "" {
				answer.Content += "\n" + resp.msg.Content
			}
			break
		}
	}
	return rec.Channel, rec.ID, answer
}
