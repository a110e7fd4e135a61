package bot

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
	"conductor/present"
)

// Application emojis: the pictures of present.AppEmojis (cards, tickets,
// stations) are uploaded to the bot's own application once per process, in
// the background after the first READY (the application's id comes with
// it): the messages carry the Unicode stand-ins until the set is ready, and
// keep them for the emojis Discord refuses. Waiting for the uploads before
// serving would hold every interaction of a start behind up to fourteen
// requests Discord may rate limit per application, for a picture a Unicode
// emoji stands in for well enough.

// emojiSyncTimeout bounds the whole upload of a start.
const emojiSyncTimeout = 2 * time.Minute

// appEmojis is the bot's side of the set: what to upload, and the custom
// emojis that replace the stand-ins once known.
type appEmojis struct {
	set  []present.AppEmoji
	once sync.Once
	done chan struct{}
	// known is the current rewrite (nil: none yet, Unicode everywhere).
	known atomic.Pointer[emojiRewrite]
	// created counts the emojis this process uploaded.
	created atomic.Int64
}

// emojiRewrite puts an application emoji in place of each stand-in whose
// emoji exists.
type emojiRewrite struct {
	text    *strings.Replacer
	mention map[string]string // stand-in (without U+FE0F) -> "<:name:id>"
}

func newEmojiRewrite(set []present.AppEmoji, ids map[string]string) *emojiRewrite {
	r := &emojiRewrite{mention: map[string]string{}}
	var pairs []string
	for _, e := range set {
		id := ids[e.Name]
		if id == "" {
			continue
		}
		m := "<:" + e.Name + ":" + id + ">"
		r.mention[e.Unicode] = m
		// The variation selector a stand-in may carry goes with it.
		pairs = append(pairs, e.Unicode+"\uFE0F", m, e.Unicode, m)
	}
	if len(pairs) == 0 {
		return nil
	}
	r.text = strings.NewReplacer(pairs...)
	return r
}

// EmojisSettled is closed once the start's upload of the application
// emojis has ended, whatever its outcome (at once when there is no set).
func (b *Bot) EmojisSettled() <-chan struct{} { return b.emojis.done }

// EmojisCreated counts the application emojis this process uploaded.
func (b *Bot) EmojisCreated() int { return int(b.emojis.created.Load()) }

// syncEmojisOnce starts the upload, once per process.
func (b *Bot) syncEmojisOnce(appID string) {
	if appID == "" {
		return
	}
	b.emojis.once.Do(func() {
		if len(b.emojis.set) == 0 {
			close(b.emojis.done)
			return
		}
		b.mu.Lock()
		parent := b.ctx
		b.mu.Unlock()
		if parent == nil {
			parent = context.Background()
		}
		go func() {
			defer close(b.emojis.done)
			ctx, cancel := context.WithTimeout(parent, emojiSyncTimeout)
			defer cancel()
			b.syncEmojis(ctx, appID)
		}()
	})
}

// syncEmojis lists the application's emojis and creates the set's missing
// ones. A name another process of the fleet took meanwhile is read back
// from a new list; any other refusal (403, 5xx, the limit of 2,000) is
// logged once and the missing emojis keep their Unicode stand-ins.
func (b *Bot) syncEmojis(ctx context.Context, appID string) {
	set := b.emojis.set
	ids, err := b.listEmojis(ctx, appID)
	if err != nil {
		b.log.Warn("reading the application's emojis: the messages keep their Unicode emojis", "err", err)
		return
	}
	var refused error
	missing := 0
	for _, e := range set {
		if ids[e.Name] != "" {
			continue
		}
		if refused != nil {
			missing++
			continue
		}
		params := &discordgo.EmojiParams{Name: e.Name, Image: "data:image/png;base64," + base64.StdEncoding.EncodeToString(e.PNG)}
		created, err := b.s.ApplicationEmojiCreate(appID, params, discordgo.WithContext(ctx))
		switch {
		case err == nil && created != nil && created.ID != "":
			ids[e.Name] = created.ID
			b.emojis.created.Add(1)
			continue
		case nameTaken(err):
			// Another process created it since the list: read it back.
			if again, lerr := b.listEmojis(ctx, appID); lerr == nil && again[e.Name] != "" {
				for name, id := range again {
					ids[name] = id
				}
				continue
			} else if lerr != nil {
				err = lerr
			}
		}
		if err == nil {
			err = errors.New("no emoji in Discord's answer")
		}
		refused = err
		missing++
	}
	b.emojis.known.Store(newEmojiRewrite(set, ids))
	if refused != nil && ctx.Err() != nil {
		b.log.Info("uploading the application emojis stopped with the bot", "missing", missing, "err", ctx.Err())
		return
	}
	if refused != nil {
		b.log.Warn("uploading the application emojis: Discord refused; those missing keep their Unicode emojis",
			"missing", missing, "of", len(set), "err", refused)
		return
	}
	b.log.Info("application emojis ready", "emojis", len(set), "created", b.emojis.created.Load())
}

// listEmojis reads the application's emojis: their ids by name.
func (b *Bot) listEmojis(ctx context.Context, appID string) (map[string]string, error) {
	list, err := b.s.ApplicationEmojis(appID, discordgo.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	for _, e := range list {
		if e != nil && e.ID != "" {
			ids[e.Name] = e.ID
		}
	}
	return ids, nil
}

// nameTaken: Discord refused a new emoji because the application already
// has one of that name (400, 50035, APPLICATION_EMOJI_NAME_ALREADY_TAKEN).
func nameTaken(err error) bool {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != 400 {
		return false
	}
	var body struct {
		Errors struct {
			Name struct {
				Errors []struct {
					Code string `json:"code"`
				} `json:"_errors"`
			} `json:"name"`
		} `json:"errors"`
	}
	if json.Unmarshal(re.ResponseBody, &body) != nil {
		return false
	}
	for _, e := range body.Errors.Name.Errors {
		if e.Code == "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" {
			return true
		}
	}
	return false
}

// withEmojis puts the application's emojis in place of their stand-ins in
// a message about to be sent: in its content and status line, its embeds'
// descriptions and field values (where Discord shows custom emojis: not in
// titles, footers, labels or alt text), and as the emoji of its buttons. A
// mention is about 30 characters where the stand-in was one or two: a text
// that would then pass its limit (and be cut, through a mention) keeps its
// Unicode, so the message is never longer than Discord takes. The words
// are the same, so hidden information stays where it was.
func (b *Bot) withEmojis(m commands.Message) commands.Message {
	r := b.emojis.known.Load()
	if r == nil {
		return m
	}
	return r.apply(m)
}

func (r *emojiRewrite) apply(m commands.Message) commands.Message {
	if content, status := r.text.Replace(m.Content), r.text.Replace(m.Status); contentFits(content, status) {
		m.Content, m.Status = content, status
	}
	if len(m.Embeds) > 0 {
		embeds := make([]commands.Embed, len(m.Embeds))
		fits := true
		for i, e := range m.Embeds {
			e.Description = r.text.Replace(e.Description)
			fits = fits && runes(e.Description) <= maxEmbedDesc
			fields := make([]commands.Field, len(e.Fields))
			for j, f := range e.Fields {
				f.Value = r.text.Replace(f.Value)
				fits = fits && runes(f.Value) <= maxFieldValue
				fields[j] = f
			}
			e.Fields = fields
			embeds[i] = e
		}
		if fits && embedsLength(embeds) <= maxEmbedsTotal {
			m.Embeds = embeds
		}
	}
	if len(m.Components) > 0 {
		rows := make([]commands.Row, len(m.Components))
		for i, row := range m.Components {
			rows[i] = make(commands.Row, len(row))
			for j, c := range row {
				if mention, ok := r.mention[strings.TrimSuffix(c.Emoji, "\uFE0F")]; ok {
					c.Emoji = mention
				}
				rows[i][j] = c
			}
		}
		m.Components = rows
	}
	return m
}

// maxEmbedsTotal is Discord's limit on the characters of all a message's
// embeds together.
const maxEmbedsTotal = 6000

// contentFits: the content with its status line (withStatus) needs no cut.
func contentFits(content, status string) bool {
	if status == "" {
		return runes(content) <= maxContent
	}
	block := runes(status) + 2 // "> "
	return runes(status) <= maxContent/2 && runes(content)+block+1 <= maxContent
}

// embedsLength counts what Discord limits to 6000 characters a message.
func embedsLength(es []commands.Embed) int {
	n := 0
	for _, e := range es {
		n += runes(e.Title) + runes(e.Description) + runes(e.Footer)
		for _, f := range e.Fields {
			n += runes(f.Name) + runes(f.Value)
		}
	}
	return n
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// emojiOf is a component's emoji as Discord takes it.
func emojiOf(s string) *wireEmoji {
	if inner, ok := strings.CutPrefix(s, "<:"); ok {
		if name, id, ok := strings.Cut(strings.TrimSuffix(inner, ">"), ":"); ok && strings.HasSuffix(inner, ">") {
			return &wireEmoji{ID: id, Name: name}
		}
	}
	return &wireEmoji{Name: s}
}
