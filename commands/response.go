package commands

// response is what a request gets back, as a value. A handler decides it
// (usually with the table locked by its checks) and returns it; Handle
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
	// unlocked, when set, finishes the answer once the table's lock is
	// released (router.go): a picture drawn, a bot's search, a DM. Code
	// under the lock never reaches the network nor keeps others waiting.
	unlocked func() (response, error)
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
