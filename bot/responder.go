package bot

import (
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// Discord drops an interaction that gets no callback within 3 seconds. A
// handler that has not answered after DeferAfter gets a deferred callback
// ("thinking…" for a command, a silent acknowledgement for a component);
// its answer then arrives as an edit of the original message or a
// follow-up.

type answerState uint8

const (
	pending  answerState = iota // no callback sent
	deferred                    // a deferred callback (5 or 6) was sent
	answered                    // a callback with content (4, 6, 7, 8) was sent
)

// errNoChoicesHere is returned when a non-autocomplete request is answered
// with choices.
var errNoChoicesHere = errors.New("bot: choices answer only autocomplete requests")

// responder answers one interaction. Its methods may be called from the
// handler while the deferral timer fires: the mutex orders them, so exactly
// one callback is ever sent.
type responder struct {
	b       *Bot
	i       *discordgo.Interaction
	kind    commands.RequestType
	focused discordgo.ApplicationCommandOptionType
	// deferPublic: a command's deferred "thinking" message is public (the
	// command usually answers publicly); otherwise ephemeral.
	deferPublic bool

	mu    sync.Mutex
	state answerState
	timer *time.Timer
}

func newResponder(b *Bot, i *discordgo.Interaction, req *commands.Request, focused discordgo.ApplicationCommandOptionType) *responder {
	return &responder{b: b, i: i, kind: req.Type, focused: focused, deferPublic: answersPublicly(req)}
}

// arm starts the deferral timer (autocomplete cannot be deferred).
func (r *responder) arm(after time.Duration) {
	if r.kind == commands.AutocompleteRequest || after <= 0 {
		return
	}
	r.mu.Lock()
	r.timer = time.AfterFunc(after, r.deferNow)
	r.mu.Unlock()
}

// disarm stops the timer once the handler returned.
func (r *responder) disarm() {
	r.mu.Lock()
	r.stop()
	r.mu.Unlock()
}

func (r *responder) deferNow() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != pending {
		return
	}
	var err error
	if r.kind == commands.ComponentRequest {
		err = r.b.callback(r.i, callbackDeferUpdate, nil, nil)
	} else {
		var data any
		if !r.deferPublic {
			data = map[string]int{"flags": int(discordgo.MessageFlagsEphemeral)}
		}
		err = r.b.callback(r.i, callbackDeferMessage, data, nil)
	}
	r.state = deferred
	r.b.deferrals.Add(1)
	if err != nil {
		r.b.log.Warn("deferring an interaction failed", "id", r.i.ID, "err", err)
	}
}

// stop stops the deferral timer; the caller holds r.mu.
func (r *responder) stop() {
	if r.timer != nil {
		r.timer.Stop()
	}
}

// Reply answers with a new message.
func (r *responder) Reply(m commands.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	switch r.state {
	case pending:
		w, files := toWire(m)
		r.state = answered
		return r.b.callback(r.i, callbackMessage, w, files)
	case deferred:
		r.state = answered
		if r.kind == commands.CommandRequest && m.Ephemeral == !r.deferPublic {
			w, files := toReplacement(m)
			return r.b.editOriginal(r.i, w, files)
		}
		if r.kind == commands.CommandRequest {
			// The "thinking" message has the wrong visibility: remove it.
			if err := r.b.deleteOriginal(r.i); err != nil {
				r.b.log.Warn("deleting a deferred reply", "id", r.i.ID, "err", err)
			}
		}
		w, files := toWire(m)
		return r.b.followUp(r.i, w, files)
	default:
		w, files := toWire(m)
		return r.b.followUp(r.i, w, files)
	}
}

// Update replaces the message that holds the clicked component. For a
// command there is no such message: the update becomes a reply.
func (r *responder) Update(m commands.Message) error {
	if r.kind != commands.ComponentRequest {
		return r.Reply(m)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	w, files := toReplacement(m)
	if r.state == pending {
		r.state = answered
		return r.b.callback(r.i, callbackUpdate, w, files)
	}
	r.state = answered
	return r.b.editOriginal(r.i, w, files)
}

// Ack acknowledges a click without a visible change.
func (r *responder) Ack() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	switch {
	case r.state != pending && r.kind == commands.CommandRequest:
		// Only the deferred "thinking" message remains to be taken away.
		r.state = answered
		return r.b.deleteOriginal(r.i)
	case r.state != pending:
		r.state = answered
		return nil
	case r.kind == commands.ComponentRequest:
		r.state = answered
		return r.b.callback(r.i, callbackDeferUpdate, nil, nil)
	default:
		// A command must show something: a quiet ephemeral tick.
		r.state = answered
		w, _ := toWire(commands.Message{Content: "✅", Ephemeral: true})
		return r.b.callback(r.i, callbackMessage, w, nil)
	}
}

// Choices answers an autocomplete request. Discord wants integer choices
// for an integer option, so values are converted to the option's type.
func (r *responder) Choices(cs []commands.Choice) error {
	if r.kind != commands.AutocompleteRequest {
		return errNoChoicesHere
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != pending {
		return errors.New("bot: autocomplete already answered")
	}
	type choice struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	}
	out := make([]choice, 0, min(len(cs), 25))
	for _, c := range cs {
		if len(out) == 25 {
			break
		}
		var v any = cut(c.Value, 100)
		switch r.focused {
		case discordgo.ApplicationCommandOptionInteger:
			n, err := strconv.ParseInt(c.Value, 10, 64)
			if err != nil {
				continue
			}
			v = n
		case discordgo.ApplicationCommandOptionNumber:
			f, err := strconv.ParseFloat(c.Value, 64)
			if err != nil {
				continue
			}
			v = f
		}
		out = append(out, choice{Name: cut(c.Name, 100), Value: v})
	}
	r.state = answered
	return r.b.callback(r.i, callbackAutocomplete, map[string]any{"choices": out}, nil)
}

// FollowUp sends another message after the first answer.
func (r *responder) FollowUp(m commands.Message) error {
	r.mu.Lock()
	if r.state == pending {
		r.mu.Unlock()
		return r.Reply(m)
	}
	defer r.mu.Unlock()
	w, files := toWire(m)
	return r.b.followUp(r.i, w, files)
}

// answersPublicly guesses whether a command's answer is public, so that a
// deferred "thinking" message has the right visibility and can simply be
// edited. A wrong guess costs a deleted placeholder and a follow-up.
func answersPublicly(req *commands.Request) bool {
	if req.Type != commands.CommandRequest {
		return false
	}
	switch req.Name {
	case "board", "score":
		return true
	case "ttr":
		switch req.Sub {
		case "new", "join", "leave", "start", "addbot", "kick", "end":
			return true
		}
	}
	return false
}
