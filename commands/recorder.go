package commands

import (
	"sync"
	"time"
)

// Recorder is a Responder that keeps every answer it is given, in order,
// for a caller that reads a request's answers instead of sending them: the
// web page's moves, the terminal's setup, tests. It is safe for concurrent
// use, and its zero value is ready.
type Recorder struct {
	mu       sync.Mutex
	answers  []Answer
	answered chan struct{} // closed at the first answer; made on demand
}

// Answer is one call of a Responder's methods.
type Answer struct {
	Kind    AnswerKind
	Message Message   // of a reply, an update or a follow-up
	Choices []Choice  // of autocomplete choices
	At      time.Time // when it came
}

// AnswerKind names the Responder method an Answer came through.
type AnswerKind string

const (
	AnswerReply    AnswerKind = "reply"
	AnswerUpdate   AnswerKind = "update"
	AnswerAck      AnswerKind = "ack"
	AnswerChoices  AnswerKind = "choices"
	AnswerFollowUp AnswerKind = "followup"
)

func (r *Recorder) Reply(m Message) error    { return r.add(Answer{Kind: AnswerReply, Message: m}) }
func (r *Recorder) Update(m Message) error   { return r.add(Answer{Kind: AnswerUpdate, Message: m}) }
func (r *Recorder) Ack() error               { return r.add(Answer{Kind: AnswerAck}) }
func (r *Recorder) Choices(c []Choice) error { return r.add(Answer{Kind: AnswerChoices, Choices: c}) }
func (r *Recorder) FollowUp(m Message) error { return r.add(Answer{Kind: AnswerFollowUp, Message: m}) }

func (r *Recorder) add(a Answer) error {
	a.At = time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers = append(r.answers, a)
	if r.answered == nil {
		r.answered = make(chan struct{})
	}
	if len(r.answers) == 1 {
		close(r.answered)
	}
	return nil
}

// Answers returns every answer so far, in order.
func (r *Recorder) Answers() []Answer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Answer(nil), r.answers...)
}

// Answer returns the request's answer: its first reply, update, ack or
// choices (a Responder gets exactly one, before any follow-up).
func (r *Recorder) Answer() (Answer, bool) {
	for _, a := range r.Answers() {
		if a.Kind != AnswerFollowUp {
			return a, true
		}
	}
	return Answer{}, false
}

// Messages returns the messages of the replies, updates and follow-ups,
// in order.
func (r *Recorder) Messages() []Message {
	var out []Message
	for _, a := range r.Answers() {
		if a.Kind == AnswerReply || a.Kind == AnswerUpdate || a.Kind == AnswerFollowUp {
			out = append(out, a.Message)
		}
	}
	return out
}

// Answered is closed once the first answer has come.
func (r *Recorder) Answered() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.answered == nil {
		r.answered = make(chan struct{})
	}
	return r.answered
}
