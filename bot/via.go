package bot

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// A request's via (commands.Request.Via) is its interaction's webhook: the board of a move is
// posted as a follow-up of the move's interaction, and its buttons later taken off by editing
// that follow-up. Both are interaction endpoints, which Discord's global rate limit does not
// bind (https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints),
// usable while the token lives: 15 minutes.

var _ commands.ViaPoster = (*Bot)(nil)

// tokenLife is how long an interaction's token may be used.
const tokenLife = 15 * time.Minute

// answerWait bounds how long a follow-up waits for its interaction's own answer.
const answerWait = 5 * time.Second

// viaOf is the via of an interaction: "application/interaction/token" and when its token
// expires. There is none outside a server, and none where the bot may not read the channel's
// history: a follow-up carries no nonce, and after a lost answer only the channel's history
// tells whether Discord created it (FindVia).
func viaOf(i *discordgo.Interaction) (string, time.Time) {
	need := int64(discordgo.PermissionViewChannel | discordgo.PermissionReadMessageHistory)
	if i.GuildID == "" || i.AppPermissions&need != need || i.AppID == "" || i.Token == "" {
		return "", time.Time{}
	}
	created, err := discordgo.SnowflakeTimestamp(i.ID)
	if err != nil {
		return "", time.Time{}
	}
	return i.AppID + "/" + i.ID + "/" + i.Token, created.Add(tokenLife)
}

// parseVia splits a via into its application, interaction and token.
func parseVia(via string) (app, interaction, token string, ok bool) {
	parts := strings.SplitN(via, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// answers follows the interactions being answered: a follow-up must wait for its
// interaction's answer (the webhook exists only then, and a follow-up right after a deferral
// would replace the deferred message instead of posting a new one).
type answers struct {
	mu     sync.Mutex
	m      map[string]*answer
	pruned time.Time
}

// answerKept is how long an answer is remembered once sent: its board follows within
// moments. An interaction no longer remembered counts as answered (wait).
const answerKept = time.Minute

// answer is one interaction's answer: done is closed once it was sent (or failed).
type answer struct {
	done chan struct{}
	ok   bool
	at   time.Time
	once sync.Once
}

// expect starts following an interaction's answer.
func (a *answers) expect(id string) *answer {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]*answer{}
	}
	now := time.Now()
	if now.Sub(a.pruned) > answerKept {
		a.pruned = now
		for k, w := range a.m {
			select {
			case <-w.done:
				if now.Sub(w.at) > answerKept {
					delete(a.m, k)
				}
			default:
				if now.Sub(w.at) > tokenLife {
					delete(a.m, k)
				}
			}
		}
	}
	w := &answer{done: make(chan struct{}), at: now}
	a.m[id] = w
	return w
}

func (w *answer) settle(ok bool) {
	w.once.Do(func() {
		w.ok = ok
		close(w.done)
	})
}

// wait reports whether the interaction was answered, waiting for the answer at most
// answerWait. An interaction this process did not see (queued before a restart) counts as
// answered: its follow-up then finds out.
func (a *answers) wait(id string) bool {
	a.mu.Lock()
	w, ok := a.m[id]
	a.mu.Unlock()
	if !ok {
		return true
	}
	t := time.NewTimer(answerWait)
	defer t.Stop()
	select {
	case <-w.done:
		return w.ok
	case <-t.C:
		return false
	}
}

// settling tells the answers when an interaction's first answer has been sent.
type settling struct {
	commands.Responder
	w *answer
}

func (s settling) Reply(m commands.Message) error  { return s.settled(s.Responder.Reply(m)) }
func (s settling) Update(m commands.Message) error { return s.settled(s.Responder.Update(m)) }
func (s settling) Ack() error                      { return s.settled(s.Responder.Ack()) }
func (s settling) FollowUp(m commands.Message) error {
	return s.settled(s.Responder.FollowUp(m))
}

// LaunchActivity passes the Activity's launch on (activity.go): a wrapper
// that hid it would turn every launch into "the live board is off". A
// launch Discord did not take leaves the interaction unanswered: the reply
// that follows settles it.
func (s settling) LaunchActivity() (string, error) {
	inst, err := s.Responder.(commands.ActivityLauncher).LaunchActivity()
	if err == nil {
		s.w.settle(true)
	}
	return inst, err
}

var _ commands.ActivityLauncher = settling{}

func (s settling) settled(err error) error {
	s.w.settle(err == nil)
	return err
}

// PostVia posts a message as a follow-up of the via's interaction
// (POST /webhooks/{application}/{token}). It is never retried here, not even after a 502:
// without a nonce a retry could post the board twice; the sender asks FindVia first.
func (b *Bot) PostVia(ctx context.Context, via, channel string, m commands.Message) (string, error) {
	app, interaction, token, ok := parseVia(via)
	if !ok {
		return "", fmt.Errorf("%w: malformed via", commands.ErrViaGone)
	}
	if !b.answers.wait(interaction) {
		return "", fmt.Errorf("%w: the interaction was not answered", commands.ErrViaGone)
	}
	m.Ephemeral, m.Nonce = false, ""
	if b.plain.follow.Load() {
		m.IsBoard = false
	}
	w, files := toWire(b.withEmojis(m))
	resp, err := b.sendOnce(ctx, "POST", discordgo.EndpointWebhookToken(app, token), w, files)
	if err != nil && refusedLayout(m, err) {
		b.plain.refused(&b.plain.follow, b.log, redact(err, token))
		m.IsBoard = false
		w, files = toWire(b.withEmojis(m))
		resp, err = b.sendOnce(ctx, "POST", discordgo.EndpointWebhookToken(app, token), w, files)
	}
	if err != nil {
		return "", redact(viaError(err), token)
	}
	var msg struct {
		ID string `json:"id"`
	}
	if err := discordgo.Unmarshal(resp, &msg); err != nil || msg.ID == "" {
		return "", fmt.Errorf("the follow-up's answer names no message: %v", err)
	}
	if m.IsBoard {
		b.layouts.posted(msg.ID, w, resp)
	}
	return msg.ID, nil
}

// RemoveControlsVia takes the buttons off a follow-up
// (PATCH /webhooks/{application}/{token}/messages/{message}).
func (b *Bot) RemoveControlsVia(ctx context.Context, via, channel, message string) error {
	app, _, token, ok := parseVia(via)
	if !ok {
		return fmt.Errorf("%w: malformed via", commands.ErrViaGone)
	}
	url := discordgo.EndpointWebhookMessage(app, token, message)
	body, known := b.layouts.take(message)
	if !known {
		resp, err := b.sendInteraction(ctx, "GET", url, nil, nil)
		if err != nil {
			return redact(viaError(err), token)
		}
		if body, err = controlsRemoval(resp); err != nil {
			return err
		}
	}
	_, err := b.sendInteraction(ctx, "PATCH", url, body, nil)
	err = viaError(err)
	if known && errors.Is(err, commands.ErrViaGone) {
		b.layouts.keep(message, body) // for the channel's edit, which follows
	}
	return redact(err, token)
}

// redact keeps an interaction's token out of an error's text (a URL in it), since errors are
// logged: the token lets anyone post as the bot in the channel for 15 minutes.
func redact(err error, token string) error {
	if err == nil || !strings.Contains(err.Error(), token) {
		return err
	}
	return redactedError{strings.ReplaceAll(err.Error(), token, "[token]"), err}
}

type redactedError struct {
	msg string
	err error
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// viaError marks a refusal (a 4xx: the token expired, the webhook is unknown, the body was
// refused) as ErrViaGone: nothing was done, and the channel can do it instead.
func viaError(err error) error {
	var re *discordgo.RESTError
	var rl *discordgo.RateLimitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rl):
		return fmt.Errorf("%w: %v", commands.ErrViaGone, err)
	case errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 &&
		re.Response.StatusCode != http.StatusRequestTimeout:
		return fmt.Errorf("%w: %v", commands.ErrViaGone, err)
	}
	return err
}

// FindVia reads the channel's messages since the oldest of the vias' interactions and returns
// the follow-ups of those interactions (GET /channels/{channel}/messages?after=...). A move's
// interaction has one public follow-up, its board, so the interaction's id finds it.
func (b *Bot) FindVia(ctx context.Context, channel string, vias []string) (map[string]string, error) {
	byInteraction := map[string]string{}
	after := ""
	for _, via := range vias {
		if _, interaction, _, ok := parseVia(via); ok {
			byInteraction[interaction] = via
			if after == "" || snowflakeLess(interaction, after) {
				after = interaction
			}
		}
	}
	found := map[string]string{}
	if after == "" {
		return found, nil
	}
	err := b.followUpsIn(ctx, channel, after, func(m *discordgo.Message) {
		if via, ok := byInteraction[m.InteractionMetadata.ID]; ok {
			found[via] = m.ID
		}
	})
	if permanent(err) {
		// The channel is out of reach (no View Channel): the board's post
		// will be refused as well, and dropped; asking again would only add
		// refusals Discord counts against the address.
		b.log.Warn("cannot read the channel to find a board whose answer was lost", "channel", channel, "err", err)
		return found, nil
	}
	if err != nil {
		return nil, err
	}
	return found, nil
}

// snowflakeLess orders Discord ids (decimal numbers of up to 20 digits).
func snowflakeLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// sendOnce makes a request on an interaction's route with no retry after a 502 (discordgo
// retries those otherwise): for a request that is not safe to repeat.
func (b *Bot) sendOnce(ctx context.Context, method, url string, body any, files []*discordgo.File) ([]byte, error) {
	ct, data, err := "application/json", []byte(nil), error(nil)
	if len(files) > 0 {
		ct, data, err = discordgo.MultipartBodyWithJSON(body, files)
	} else {
		data, err = discordgo.Marshal(body)
	}
	if err != nil {
		return nil, err
	}
	bucket := discordgo.NewRatelimiter().LockBucket(url)
	return b.counted(b.s.RequestWithLockedBucket(method, url, ct, data, bucket, 0, discordgo.WithRestRetries(0), discordgo.WithContext(ctx)))
}
