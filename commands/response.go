package commands

import "context"

// response is what a request gets back, as a value. A handler decides it
// (usually with a table locked, inside withTable) and returns it; Handle
// sends it once the handler has returned and no lock is held. Code that
// runs under a table's lock has no Responder to call: it cannot reach the
// network.
type response struct {
	kind      responseKind
	msg       Message
	choices   []Choice
	followUps []Message
	// launch, when set, is the answer instead: it needs the responder
	// itself (Discord's LAUNCH_ACTIVITY, activity.go).
	launch func(Responder) error
}

type responseKind int

const (
	noAnswer      responseKind = iota // nothing (or launch) to send
	replyAnswer                       // a new message
	updateAnswer                      // an edit of the clicked message
	ackAnswer                         // a click acknowledged, nothing shown
	choicesAnswer                     // autocomplete choices
)

// reply answers with a new message.
func reply(m Message) (response, error) { return response{kind: replyAnswer, msg: m}, nil }

// update answers a click by editing the message clicked.
func update(m Message) (response, error) { return response{kind: updateAnswer, msg: m}, nil }

// replyOrUpdate is update for a click, reply for a command.
func replyOrUpdate(m Message, click bool) (response, error) {
	if click {
		return update(m)
	}
	return reply(m)
}

// choose answers an autocomplete request.
func choose(c []Choice) (response, error) { return response{kind: choicesAnswer, choices: c}, nil }

// sendTo sends the response; the first error is returned.
func (r response) sendTo(resp Responder) error {
	var err error
	if r.launch != nil {
		err = r.launch(resp)
	}
	switch r.kind {
	case replyAnswer:
		err = resp.Reply(r.msg)
	case updateAnswer:
		err = resp.Update(r.msg)
	case ackAnswer:
		err = resp.Ack()
	case choicesAnswer:
		err = resp.Choices(r.choices)
	}
	for _, m := range r.followUps {
		if ferr := resp.FollowUp(m); ferr != nil && err == nil {
			err = ferr
		}
	}
	return err
}

// withTable is the way into a channel's table for a request: fn runs
// with the table locked (loaded from the store when it is not in memory)
// and returns what the request gets back, which its caller sends after
// withTable returned. ctx is the request's; a request that waited for the
// table is still handled when it ended (at shutdown, serve lets the moves
// in flight finish).
func (s *Service) withTable(_ context.Context, channel string, fn func(*table) (response, error)) (response, error) {
	t, err := s.tables.get(channel)
	if err != nil {
		return response{}, err
	}
	defer t.unlock()
	return fn(t)
}

// atChannel is withTable for a request: a table that cannot be loaded is
// answered with an apology.
func (s *Service) atChannel(ctx context.Context, req *Request, fn func(*table) (response, error)) (response, error) {
	r, err := s.withTable(ctx, req.Channel, fn)
	if err != nil {
		return reply(oops(req, err.Error()))
	}
	return r, nil
}
