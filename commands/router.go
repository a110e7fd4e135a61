package commands

import (
	"context"
	"strings"

	"conductor/present"
)

// Routing. Every request finds its handler in a table: a slash command by
// its name (and subcommand), a button or a menu by its custom id's kind, a
// move of the live page by what it does. Each entry is registered with the
// checks it shares with others (routes.go): the channel's table locked, a
// running game, the asker seated, the asker's turn. A check is middleware:
// it runs before the handler and answers instead of it when the request
// cannot go on. A handler returns its answer; nothing under a table's lock
// reaches the network.

// handler answers a request, with what its checks found (c).
type handler func(c *call) (response, error)

// check is a check shared by several handlers: check(next) is next with
// the check in front.
type check func(next handler) handler

// call is a request on its way to its handler: the request, the custom id
// of a button or a menu, a page's move, and what the checks found.
type call struct {
	ctx  context.Context
	req  *Request
	id   *customID // a component's; nil otherwise
	move *PageMove // a page's move (page.go); nil otherwise
	// t is the channel's table, locked (atChannel).
	t *table
	// turn is the asker's seat at t (seated).
	turn turn
}

// router holds the handlers, each behind its checks.
type router struct {
	commands   map[string]handler // "claim", "ttr new"
	components map[string]handler // by custom id kind
	moves      map[string]handler // the page's moves but presses (page.go)
}

// checked registers handlers behind the same checks.
type checked struct {
	r      *router
	checks []check
}

// with is the registrations behind checks, which run in the order given.
func (r *router) with(checks ...check) checked { return checked{r, checks} }

// wrap puts the checks in front of h.
func (g checked) wrap(h handler) handler {
	for i := len(g.checks) - 1; i >= 0; i-- {
		h = g.checks[i](h)
	}
	return h
}

// command registers a slash command: "draw", or "ttr new" for a
// subcommand.
func (g checked) command(name string, h handler) { g.r.commands[name] = g.wrap(h) }

// component registers the buttons and menus of a custom id kind.
func (g checked) component(kind string, h handler) { g.r.components[kind] = g.wrap(h) }

// move registers a kind of the page's moves.
func (g checked) move(kind string, h handler) { g.r.moves[kind] = g.wrap(h) }

// route answers a call: its handler, then what the handler left for after
// the table's lock (response.unlocked).
func (r *router) route(c *call) (response, error) {
	h := r.handler(c)
	resp, err := h(c)
	if err == nil && resp.unlocked != nil {
		then, followUps := resp.unlocked, resp.followUps
		resp, err = then()
		resp.followUps = append(followUps, resp.followUps...)
	}
	return resp, err
}

// handler finds a call's handler, or one that says there is none.
func (r *router) handler(c *call) handler {
	req := c.req
	switch {
	case c.move != nil:
		if h, ok := r.moves[c.move.kind()]; ok {
			return h
		}
	case req.Type == CommandRequest:
		if h, ok := r.commands[strings.TrimSpace(req.Name+" "+req.Sub)]; ok {
			return h
		}
		return func(*call) (response, error) {
			return reply(note(present.T(req.Locale, "error.unknown_command", "name", strings.TrimSpace(req.Name+" "+req.Sub))))
		}
	case req.Type == ComponentRequest:
		if id, ok := parseCID(req.CustomID); ok {
			c.id = &id
			if h, ok := r.components[id.kind]; ok {
				return h
			}
		}
	}
	return func(*call) (response, error) { return reply(note(present.T(req.Locale, "stale.unknown"))) }
}
