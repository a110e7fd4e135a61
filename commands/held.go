package commands

// heldReplies keeps a handler's answers while it runs, often under a
// table's lock, and sends them once it returned: a slow or failing Discord
// then delays only the one player waiting for that answer, never the other
// interactions of the channel, which wait for the lock.
type heldReplies struct {
	calls []func(Responder) error
}

func (h *heldReplies) Reply(m Message) error {
	h.calls = append(h.calls, func(r Responder) error { return r.Reply(m) })
	return nil
}

func (h *heldReplies) Update(m Message) error {
	h.calls = append(h.calls, func(r Responder) error { return r.Update(m) })
	return nil
}

func (h *heldReplies) Ack() error {
	h.calls = append(h.calls, func(r Responder) error { return r.Ack() })
	return nil
}

func (h *heldReplies) Choices(c []Choice) error {
	h.calls = append(h.calls, func(r Responder) error { return r.Choices(c) })
	return nil
}

func (h *heldReplies) FollowUp(m Message) error {
	h.calls = append(h.calls, func(r Responder) error { return r.FollowUp(m) })
	return nil
}

// sendTo sends the held answers in order; the first error is returned.
func (h *heldReplies) sendTo(r Responder) error {
	var first error
	for _, c := range h.calls {
		if err := c(r); err != nil && first == nil {
			first = err
		}
	}
	return first
}
