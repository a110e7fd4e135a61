package fakediscord

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Interaction types (Discord's numbering).
const (
	InteractionCommand      = 2
	InteractionComponent    = 3
	InteractionAutocomplete = 4
)

// CommandOption is an option a user fills in when running a command.
type CommandOption struct {
	Name    string
	Type    int
	Value   any
	Focused bool // the option being typed, in an autocomplete interaction
	Options []CommandOption
}

// StringOption is a string option value.
func StringOption(name, value string) CommandOption {
	return CommandOption{Name: name, Type: OptionString, Value: value}
}

// IntegerOption is an integer option value.
func IntegerOption(name string, value int64) CommandOption {
	return CommandOption{Name: name, Type: OptionInteger, Value: value}
}

// BooleanOption is a boolean option value.
func BooleanOption(name string, value bool) CommandOption {
	return CommandOption{Name: name, Type: OptionBoolean, Value: value}
}

// UserOption names a user; the interaction carries the user in "resolved".
func UserOption(name, userID string) CommandOption {
	return CommandOption{Name: name, Type: OptionUser, Value: userID}
}

// Subcommand is a subcommand with its options.
func Subcommand(name string, options ...CommandOption) CommandOption {
	return CommandOption{Name: name, Type: OptionSubcommand, Options: options}
}

// Focused marks the option whose partial value is being typed (autocomplete).
func Focused(o CommandOption) CommandOption {
	o.Focused = true
	return o
}

// Interaction callback types (Discord's numbering).
const (
	CallbackPong               = 1
	CallbackMessage            = 4
	CallbackDeferredMessage    = 5
	CallbackDeferredUpdate     = 6
	CallbackUpdateMessage      = 7
	CallbackAutocompleteResult = 8
	CallbackModal              = 9
	CallbackLaunchActivity     = 12
)

// Callback is the bot's answer to an interaction (POST /interactions/{id}/{token}/callback).
type Callback struct {
	Type    int
	Data    json.RawMessage // the "data" object as sent
	Files   []File
	Latency time.Duration // from dispatch to callback
	// MessageID is the message the callback created (4, 5) or acted on (6, 7).
	MessageID string
	Choices   []OptionChoice // type 8
	// ActivityInstance is the activity instance a LAUNCH_ACTIVITY (12)
	// opened or joined.
	ActivityInstance string
}

// interactionState is the fake's record of one interaction. Guarded by Server.mu.
type interactionState struct {
	id, token   string
	kind        int
	userID      string
	channelID   string
	guildID     string
	commandName string
	customID    string
	messageID   string // the message of a component
	payload     json.RawMessage
	dispatched  time.Time
	callback    *Callback
	originalID  string
	followups   []string
}

// InteractionHandle follows one dispatched interaction: the bot's callback, the original
// response message and follow-ups.
type InteractionHandle struct {
	s     *Server
	ID    string
	Token string
}

// Payload is the INTERACTION_CREATE data the bot received.
func (h *InteractionHandle) Payload() json.RawMessage {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	return h.s.interactions[h.ID].payload
}

// Callback returns the bot's callback, if it has answered.
func (h *InteractionHandle) Callback() (Callback, bool) {
	h.s.mu.Lock()
	defer h.s.mu.Unlock()
	it := h.s.interactions[h.ID]
	if it.callback == nil {
		return Callback{}, false
	}
	return *it.callback, true
}

// WaitCallback waits for the bot's callback.
func (h *InteractionHandle) WaitCallback() (Callback, error) {
	var cb Callback
	err := h.s.WaitFor("the callback of interaction "+h.ID, func() bool {
		var ok bool
		cb, ok = h.Callback()
		return ok
	})
	return cb, err
}

// Original returns the current original response message (see @original), if any.
func (h *InteractionHandle) Original() (Message, bool) {
	h.s.mu.Lock()
	id := h.s.interactions[h.ID].originalID
	h.s.mu.Unlock()
	if id == "" {
		return Message{}, false
	}
	return h.s.Message(id)
}

// WaitOriginal waits until the original response exists and satisfies match (nil: any),
// for example "not loading any more" after a deferred response.
func (h *InteractionHandle) WaitOriginal(match func(Message) bool) (Message, error) {
	var m Message
	err := h.s.WaitFor("the original response of interaction "+h.ID, func() bool {
		var ok bool
		m, ok = h.Original()
		return ok && (match == nil || match(m))
	})
	return m, err
}

// Followups returns the follow-up messages, current versions, oldest first.
func (h *InteractionHandle) Followups() []Message {
	h.s.mu.Lock()
	ids := append([]string(nil), h.s.interactions[h.ID].followups...)
	h.s.mu.Unlock()
	var out []Message
	for _, id := range ids {
		if m, ok := h.s.Message(id); ok {
			out = append(out, m)
		}
	}
	return out
}

// WaitFollowups waits until at least n follow-ups exist.
func (h *InteractionHandle) WaitFollowups(n int) ([]Message, error) {
	var out []Message
	err := h.s.WaitFor(fmt.Sprintf("%d follow-up(s) of interaction %s", n, h.ID), func() bool {
		out = h.Followups()
		return len(out) >= n
	})
	return out, err
}

// RunCommand dispatches a chat-input command a user ran in a channel. The command must be
// registered (guild or global) and the options must fit its registration, as a Discord
// client would ensure.
func (s *Server) RunCommand(userID, channelID, name string, options ...CommandOption) (*InteractionHandle, error) {
	return s.commandInteraction(InteractionCommand, userID, channelID, name, options)
}

// Autocomplete dispatches an autocomplete interaction: exactly one option must be Focused.
// The bot must answer with callback type 8; read Callback.Choices.
func (s *Server) Autocomplete(userID, channelID, name string, options ...CommandOption) (*InteractionHandle, error) {
	return s.commandInteraction(InteractionAutocomplete, userID, channelID, name, options)
}

func (s *Server) commandInteraction(kind int, userID, channelID, name string, options []CommandOption) (*InteractionHandle, error) {
	s.mu.Lock()
	ch, ok := s.channels[channelID]
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: unknown channel %q", channelID)
	}
	if ch.IsThread() && ch.Archived {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: thread %s is archived: Discord's clients cannot use commands in it", channelID)
	}
	if ch.GuildID != "" && !s.seesLocked(ch, userID) {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: user %s does not see private thread %s: invite them with AddThreadMember", userID, channelID)
	}
	cmd, ok := s.findCommandLocked(ch.GuildID, name)
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: no command /%s is registered for guild %q or globally", name, ch.GuildID)
	}
	if !cmd.usableIn(ch) {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: a Discord client does not offer /%s in this channel: its contexts %v leave out %d", name, cmd.contexts(), interactionContext(ch))
	}
	focused, err := checkInvocation(cmd.Options, options, kind == InteractionAutocomplete, "/"+name)
	if err != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: a Discord client would not send this: %w", err)
	}
	if kind == InteractionAutocomplete && focused != 1 {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: autocomplete needs exactly one focused option, got %d", focused)
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": cmd.Type, "options": optionsJSON(options)}
	if cmd.GuildID != "" {
		data["guild_id"] = cmd.GuildID
	}
	if resolved := s.resolvedLocked(ch.GuildID, options); len(resolved) > 0 {
		data["resolved"] = resolved
	}
	it := &interactionState{kind: kind, userID: userID, channelID: channelID, commandName: name}
	s.mu.Unlock()
	return s.dispatchInteraction(it, data, nil)
}

func optionsJSON(opts []CommandOption) []any {
	out := []any{}
	for _, o := range opts {
		m := map[string]any{"name": o.Name, "type": o.Type}
		if o.Type == OptionSubcommand || o.Type == OptionSubcommandGroup {
			m["options"] = optionsJSON(o.Options)
		} else {
			m["value"] = o.Value
		}
		if o.Focused {
			m["focused"] = true
		}
		out = append(out, m)
	}
	return out
}

// resolvedLocked fills "resolved" for user and channel options.
func (s *Server) resolvedLocked(guildID string, opts []CommandOption) map[string]any {
	users, members, channels := map[string]any{}, map[string]any{}, map[string]any{}
	var walk func([]CommandOption)
	walk = func(os []CommandOption) {
		for _, o := range os {
			walk(o.Options)
			id, _ := o.Value.(string)
			switch o.Type {
			case OptionUser, OptionMentionable:
				if u, ok := s.users[id]; ok {
					users[id] = userJSON(u)
					if guildID != "" && s.members[guildID][id] {
						m := s.memberJSONLocked(guildID, u)
						delete(m, "user")
						members[id] = m
					}
				}
			case OptionChannel:
				if c, ok := s.channels[id]; ok {
					channels[id] = s.channelJSONLocked(c)
				}
			}
		}
	}
	walk(opts)
	out := map[string]any{}
	if len(users) > 0 {
		out["users"] = users
	}
	if len(members) > 0 {
		out["members"] = members
	}
	if len(channels) > 0 {
		out["channels"] = channels
	}
	return out
}

// ClickButton dispatches a click on the button with customID in the message's current
// version. It fails if there is no such button, if it is disabled, or if the message is
// another user's ephemeral message.
func (s *Server) ClickButton(userID, messageID, customID string) (*InteractionHandle, error) {
	return s.componentInteraction(userID, messageID, customID, ComponentButton, nil)
}

// SelectValues dispatches a choice in the string select with customID: the values must be
// among its options and respect min_values/max_values.
func (s *Server) SelectValues(userID, messageID, customID string, values ...string) (*InteractionHandle, error) {
	return s.componentInteraction(userID, messageID, customID, ComponentStringSelect, values)
}

func (s *Server) componentInteraction(userID, messageID, customID string, kind int, values []string) (*InteractionHandle, error) {
	s.mu.Lock()
	m, ok := s.messages[messageID]
	if !ok || m.Deleted {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: no live message %s", messageID)
	}
	if m.Ephemeral() && m.VisibleTo != userID {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: message %s is ephemeral for another user", messageID)
	}
	comp, ok := m.Component(customID)
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: message %s has no component %q", messageID, customID)
	}
	if comp.Type != kind {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: component %q is of type %d, not %d", customID, comp.Type, kind)
	}
	if comp.Disabled {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: component %q is disabled", customID)
	}
	data := map[string]any{"custom_id": customID, "component_type": kind}
	if kind == ComponentStringSelect {
		if err := checkSelection(comp, values); err != nil {
			s.mu.Unlock()
			return nil, err
		}
		data["values"] = values
	}
	it := &interactionState{kind: InteractionComponent, userID: userID, channelID: m.ChannelID, customID: customID, messageID: m.ID}
	s.mu.Unlock()
	return s.dispatchInteraction(it, data, m)
}

func checkSelection(comp Component, values []string) error {
	minV, maxV := 1, 1
	if comp.MinValues != nil {
		minV = *comp.MinValues
	}
	if comp.MaxValues != nil {
		maxV = *comp.MaxValues
	}
	if len(values) < minV || len(values) > maxV {
		return fmt.Errorf("fakediscord: select %q takes %d to %d values, got %d", comp.CustomID, minV, maxV, len(values))
	}
	for _, v := range values {
		found := false
		for _, o := range comp.Options {
			found = found || o.Value == v
		}
		if !found {
			return fmt.Errorf("fakediscord: select %q has no option %q", comp.CustomID, v)
		}
	}
	return nil
}

// dispatchInteraction completes the interaction payload and sends INTERACTION_CREATE to the
// shard that owns the channel's guild (shard 0 for DMs).
func (s *Server) dispatchInteraction(it *interactionState, data map[string]any, message *Message) (*InteractionHandle, error) {
	s.mu.Lock()
	user, ok := s.users[it.userID]
	if !ok {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: unknown user %q", it.userID)
	}
	ch := s.channels[it.channelID]
	it.guildID = ch.GuildID
	it.id = s.ids.next()
	it.token = "aW50ZXJhY3Rpb24" + randomToken(24)
	channel := s.channelJSONLocked(ch)
	payload := map[string]any{
		"id": it.id, "application_id": s.bot.ID, "type": it.kind, "data": data, "token": it.token,
		"version": 1, "channel_id": ch.ID, "channel": channel, "locale": user.Locale,
		"app_permissions": strconv.FormatInt(DMAppPermissions, 10), "entitlements": []any{}, "attachment_size_limit": 10 << 20,
	}
	if ch.GuildID != "" {
		// In a guild, the bot's and the user's permissions in the channel (a thread's come
		// from its parent), as Discord computes them.
		payload["app_permissions"] = strconv.FormatInt(s.permissionsLocked(ch, s.bot.ID), 10)
		channel["permissions"] = strconv.FormatInt(s.permissionsLocked(ch, user.ID), 10)
		g := s.guilds[ch.GuildID]
		s.members[g.ID][user.ID] = true
		payload["guild_id"] = g.ID
		payload["guild_locale"] = g.Locale
		payload["guild"] = map[string]any{"id": g.ID, "locale": g.Locale, "features": []any{}}
		payload["member"] = s.memberJSONLocked(g.ID, user)
		payload["context"] = 0
		payload["authorizing_integration_owners"] = map[string]any{"0": g.ID}
	} else {
		if ch.RecipientID != user.ID {
			s.mu.Unlock()
			return nil, fmt.Errorf("fakediscord: user %s cannot act in the DM channel of user %s", user.ID, ch.RecipientID)
		}
		payload["user"] = userJSON(user)
		payload["context"] = 1
		payload["authorizing_integration_owners"] = map[string]any{"0": "0"}
	}
	if message != nil {
		payload["message"] = s.messageJSONLocked(message)
	}
	sess := s.sessionForGuildLocked(ch.GuildID)
	if sess == nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("fakediscord: no gateway session owns the shard of guild %q: is the bot connected?", ch.GuildID)
	}
	it.payload, _ = json.Marshal(payload)
	it.dispatched = time.Now()
	s.interactions[it.id] = it
	s.byToken[it.token] = it
	s.changedLocked()
	s.mu.Unlock()
	// A failed write leaves the event queued for RESUME, as on Discord.
	s.dispatch(sess, "INTERACTION_CREATE", json.RawMessage(it.payload))
	return &InteractionHandle{s: s, ID: it.id, Token: it.token}, nil
}
