package bot

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
	"conductor/present"
)

// Discord drops an interaction that gets no callback within 3 seconds. A
// handler that has not answered after DeferAfter gets a deferred callback
// ("thinking…" for a command, a silent acknowledgement for a component);
// its answer then arrives as an edit of the original message or a
// follow-up. A command's "thinking" message is public or private from the
// moment it is deferred, and Discord cannot change that: it is completed
// with Edit Original Response, never deleted and sent again (a follow-up
// right after a deferral would itself edit it, ignoring its ephemeral flag,
// so an answer of the other visibility is sent only once the placeholder
// was edited into a note that the answer follows).

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
	// ctx is the bot's: it ends when the bot closes, once the interactions
	// in flight were answered (Stop).
	ctx     context.Context
	b       *Bot
	i       *discordgo.Interaction
	kind    commands.RequestType
	focused discordgo.ApplicationCommandOptionType
	// deferPublic: a command's deferred "thinking" message is public (the
	// command usually answers publicly); otherwise ephemeral.
	deferPublic bool
	// locale is the asker's language, for the notes in place of an answer.
	locale string

	mu    sync.Mutex
	state answerState
	timer *time.Timer
}

func newResponder(ctx context.Context, b *Bot, i *discordgo.Interaction, req *commands.Request, focused discordgo.ApplicationCommandOptionType) *responder {
	return &responder{ctx: ctx, b: b, i: i, kind: req.Type, focused: focused, deferPublic: answersPublicly(req), locale: req.Locale}
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
		err = r.b.callback(r.ctx, r.i, callbackDeferUpdate, nil, nil)
	} else {
		var data any
		if !r.deferPublic {
			data = map[string]int{"flags": int(discordgo.MessageFlagsEphemeral)}
		}
		err = r.b.callback(r.ctx, r.i, callbackDeferMessage, data, nil)
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
	m = r.b.withEmojis(m)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	switch r.state {
	case pending:
		w, files := toWire(m)
		r.state = answered
		return r.b.callback(r.ctx, r.i, callbackMessage, w, files)
	case deferred:
		r.state = answered
		if r.kind != commands.CommandRequest {
			// A component's deferral (type 6) leaves no placeholder: a
			// follow-up is a message of its own.
			w, files := toWire(m)
			return r.b.followUp(r.ctx, r.i, w, files)
		}
		if m.Ephemeral == !r.deferPublic {
			w, files := toReplacement(m)
			return r.b.editOriginal(r.ctx, r.i, w, files)
		}
		// The placeholder has the other visibility, for good: it says where
		// the answer went, and the answer follows with its own.
		key := "reply.answered_privately"
		if !m.Ephemeral {
			key = "reply.answered_publicly"
		}
		placeholder, _ := toReplacement(commands.Message{Content: present.T(r.locale, key)})
		if err := r.b.editOriginal(r.ctx, r.i, placeholder, nil); err != nil {
			// Unedited, the placeholder would take the follow-up in
			// (ignoring its visibility): a private answer must not go.
			if m.Ephemeral {
				return err
			}
			r.b.log.Warn("completing a deferred reply", "id", r.i.ID, "err", err)
		}
		w, files := toWire(m)
		return r.b.followUp(r.ctx, r.i, w, files)
	default:
		w, files := toWire(m)
		return r.b.followUp(r.ctx, r.i, w, files)
	}
}

// Update replaces the message that holds the clicked component. For a
// command there is no such message: the update becomes a reply.
func (r *responder) Update(m commands.Message) error {
	if r.kind != commands.ComponentRequest {
		return r.Reply(m)
	}
	m = r.b.withEmojis(m)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	w, files := toReplacement(m)
	if r.state == pending {
		r.state = answered
		return r.b.callback(r.ctx, r.i, callbackUpdate, w, files)
	}
	r.state = answered
	return r.b.editOriginal(r.ctx, r.i, w, files)
}

// Ack acknowledges a click without a visible change.
func (r *responder) Ack() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	switch {
	case r.state != pending && r.kind == commands.CommandRequest:
		// The deferred "thinking" message becomes the quiet tick.
		r.state = answered
		tick, _ := toReplacement(commands.Message{Content: "✅"})
		return r.b.editOriginal(r.ctx, r.i, tick, nil)
	case r.state != pending:
		r.state = answered
		return nil
	case r.kind == commands.ComponentRequest:
		r.state = answered
		return r.b.callback(r.ctx, r.i, callbackDeferUpdate, nil, nil)
	default:
		// A command must show something: a quiet ephemeral tick.
		r.state = answered
		w, _ := toWire(commands.Message{Content: "✅", Ephemeral: true})
		return r.b.callback(r.ctx, r.i, callbackMessage, w, nil)
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
	return r.b.callback(r.ctx, r.i, callbackAutocomplete, map[string]any{"choices": out}, nil)
}

// FollowUp sends another message after the first answer (the first
// answer itself while none was given, or only a deferral).
func (r *responder) FollowUp(m commands.Message) error {
	r.mu.Lock()
	if r.state != answered {
		r.mu.Unlock()
		return r.Reply(m)
	}
	defer r.mu.Unlock()
	w, files := toWire(r.b.withEmojis(m))
	return r.b.followUp(r.ctx, r.i, w, files)
}

// answersPublicly guesses whether a command's answer is public, so that a
// deferred "thinking" message has the right visibility and can simply be
// edited. A wrong guess costs a note in the placeholder and a follow-up.
// (/ttr new answers privately: its lobby is a post of its own.)
func answersPublicly(req *commands.Request) bool {
	if req.Type != commands.CommandRequest {
		return false
	}
	switch req.Name {
	case "board", "score":
		return true
	case "ttr":
		switch req.Sub {
		case "join", "leave", "start", "addbot", "kick", "end":
			return true
		}
	}
	return false
}
