package fakediscord

import (
	"fmt"
	"strconv"
	"time"
)

// Channel types used by the fake (Discord's numbering).
const (
	ChannelTypeGuildText     = 0
	ChannelTypeDM            = 1
	ChannelTypePublicThread  = 11
	ChannelTypePrivateThread = 12
)

// User is a Discord user: the bot or a person created with CreateUser.
type User struct {
	ID         string
	Username   string
	GlobalName string
	Bot        bool
	// Locale is the user's client language, sent as the interaction's "locale". Default "en-US".
	Locale string
}

// Guild is a server the bot is in.
type Guild struct {
	ID      string
	Name    string
	OwnerID string // one user owns every guild of the fake; the bot is not the owner
	// Locale is the guild's preferred locale, sent as "guild_locale". Default "en-US".
	Locale string
}

// Channel is a guild text channel, a thread in one, or a DM channel between the bot and one
// user.
type Channel struct {
	ID          string
	GuildID     string // empty for DMs
	ParentID    string // the text channel of a thread
	Name        string
	Type        int
	RecipientID string // the user of a DM channel
	Overwrites  []Overwrite

	// Thread fields (threads.go), zero for other channels.
	OwnerID             string // who started the thread: the bot for the threads it creates
	Archived            bool
	Locked              bool
	Invitable           bool      // private threads: non-moderators may add members
	AutoArchiveDuration int       // minutes of inactivity: 60, 1440, 4320 or 10080
	ArchiveTimestamp    time.Time // when archived last changed (the creation at first)
	CreatedAt           time.Time
}

// IsThread reports a public or private thread.
func (c Channel) IsThread() bool {
	return c.Type == ChannelTypePublicThread || c.Type == ChannelTypePrivateThread
}

// CreateUser adds a person who can interact with the bot.
func (s *Server) CreateUser(username string) User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := &User{ID: s.ids.next(), Username: username, GlobalName: username, Locale: "en-US"}
	s.users[u.ID] = u
	s.changedLocked()
	return *u
}

// SetUserLocale changes the client language a user's interactions carry.
func (s *Server) SetUserLocale(userID, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustUserLocked(userID).Locale = locale
}

// CreateGuild adds a guild with the bot in it. If a gateway session already owns the guild's
// shard it receives GUILD_CREATE, as when a bot is invited to a server.
func (s *Server) CreateGuild(name string) Guild {
	s.mu.Lock()
	g := &Guild{ID: s.ids.next(), Name: name, OwnerID: s.owner.ID, Locale: "en-US"}
	s.guilds[g.ID] = g
	s.roles[g.ID] = []*Role{{ID: g.ID, Name: "@everyone", Permissions: EveryonePermissions}}
	s.guildOrder = append(s.guildOrder, g.ID)
	s.members[g.ID] = map[string]bool{s.bot.ID: true}
	payload := s.guildCreateJSONLocked(g)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(g.ID, "GUILD_CREATE", payload, intentGuilds)
	return *g
}

// SetGuildLocale changes a guild's preferred locale.
func (s *Server) SetGuildLocale(guildID, locale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustGuildLocked(guildID).Locale = locale
}

// CreateTextChannel adds a text channel to a guild (CHANNEL_CREATE goes to its shard).
func (s *Server) CreateTextChannel(guildID, name string) Channel {
	s.mu.Lock()
	s.mustGuildLocked(guildID)
	c := &Channel{ID: s.ids.next(), GuildID: guildID, Name: name, Type: ChannelTypeGuildText}
	s.channels[c.ID] = c
	payload := s.channelJSONLocked(c)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(guildID, "CHANNEL_CREATE", payload, intentGuilds)
	return *c
}

// CreateThread adds a public thread that a person (the guild's owner) started in a text
// channel, as if from the Discord client; THREAD_CREATE goes to the guild's shard. The bot
// did not create it, so changing it needs Manage Threads.
func (s *Server) CreateThread(parentID, name string) Channel {
	s.mu.Lock()
	parent, ok := s.channels[parentID]
	if !ok || parent.Type != ChannelTypeGuildText {
		panic("fakediscord: no text channel " + parentID)
	}
	c := s.newThreadLocked(s.ids.next(), parent, ChannelTypePublicThread, name, s.owner.ID, 0)
	payload := s.threadCreateJSONLocked(c)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(c.GuildID, "THREAD_CREATE", payload, intentGuilds)
	return *c
}

// CreatePrivateThread adds a private thread that a person (the guild's owner) started in a
// text channel; its members are that person and those named. As on Discord, only its members
// and those with Manage Threads see it: the bot may not post in it unless it is a member
// (AddThreadMember). THREAD_CREATE goes to the guild's shard.
func (s *Server) CreatePrivateThread(parentID, name string, members ...string) Channel {
	s.mu.Lock()
	parent, ok := s.channels[parentID]
	if !ok || parent.Type != ChannelTypeGuildText {
		panic("fakediscord: no text channel " + parentID)
	}
	c := s.newThreadLocked(s.ids.next(), parent, ChannelTypePrivateThread, name, s.owner.ID, 0)
	for _, m := range members {
		s.threadMembers[c.ID][m] = true
	}
	payload := s.threadCreateJSONLocked(c)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(c.GuildID, "THREAD_CREATE", payload, intentGuilds)
	return *c
}

// AddThreadMember adds a user (the bot too) to a thread, as Add Thread Member does.
func (s *Server) AddThreadMember(threadID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.threadMembers[threadID]; !ok {
		panic("fakediscord: no thread " + threadID)
	}
	s.threadMembers[threadID][userID] = true
	s.changedLocked()
}

// ThreadMember reports whether a user is a member of a thread.
func (s *Server) ThreadMember(threadID, userID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threadMembers[threadID][userID]
}

// seesLocked: a user sees a channel's messages (a private thread only as a member or with
// Manage Threads; permissions decide the rest).
func (s *Server) seesLocked(ch *Channel, userID string) bool {
	return ch.Type != ChannelTypePrivateThread || s.threadMembers[ch.ID][userID] ||
		s.permissionsLocked(ch, userID)&PermManageThreads != 0
}

// AddMember makes a user a member of a guild. Interacting in a guild does this implicitly.
func (s *Server) AddMember(guildID, userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustGuildLocked(guildID)
	s.mustUserLocked(userID)
	s.members[guildID][userID] = true
	s.changedLocked()
}

// User returns a user by id.
func (s *Server) User(id string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[id]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// Channel returns a channel by id.
func (s *Server) Channel(id string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.channels[id]
	if !ok {
		return Channel{}, false
	}
	return *c, true
}

// DMChannel returns the DM channel the bot opened with a user (POST /users/@me/channels).
func (s *Server) DMChannel(userID string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.dmByUser[userID]
	if !ok {
		return Channel{}, false
	}
	return *s.channels[id], true
}

// UserDM returns the DM channel between the bot and a user, opening it if needed, as when
// the user writes to the bot first. Use its ID to run commands in a DM.
func (s *Server) UserDM(userID string) Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustUserLocked(userID)
	return *s.dmChannelLocked(userID)
}

// Setup helpers panic on unknown ids: that is a mistake in the test, not in the bot.
func (s *Server) mustGuildLocked(id string) *Guild {
	g, ok := s.guilds[id]
	if !ok {
		panic(fmt.Sprintf("fakediscord: unknown guild %q", id))
	}
	return g
}

func (s *Server) mustUserLocked(id string) *User {
	u, ok := s.users[id]
	if !ok {
		panic(fmt.Sprintf("fakediscord: unknown user %q", id))
	}
	return u
}

// dmChannelLocked opens (or returns) the DM channel with a user.
func (s *Server) dmChannelLocked(userID string) *Channel {
	if id, ok := s.dmByUser[userID]; ok {
		return s.channels[id]
	}
	c := &Channel{ID: s.ids.next(), Type: ChannelTypeDM, RecipientID: userID}
	s.channels[c.ID] = c
	s.dmByUser[userID] = c.ID
	s.changedLocked()
	return c
}

func snowflakeTime(id string) time.Time {
	var n uint64
	fmt.Sscan(id, &n)
	return time.UnixMilli(int64(n>>22) + discordEpoch).UTC()
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000+00:00") }

func userJSON(u *User) map[string]any {
	m := map[string]any{
		"id": u.ID, "username": u.Username, "discriminator": "0", "avatar": nil,
		"public_flags": 0, "flags": 0,
	}
	if u.GlobalName != "" {
		m["global_name"] = u.GlobalName
	} else {
		m["global_name"] = nil
	}
	if u.Bot {
		m["bot"] = true
	}
	return m
}

func (s *Server) memberJSONLocked(guildID string, u *User) map[string]any {
	return map[string]any{
		"user": userJSON(u), "nick": nil, "avatar": nil, "roles": append([]string{}, s.memberRoles[guildID+"/"+u.ID]...),
		"joined_at": timestamp(snowflakeTime(guildID)), "deaf": false, "mute": false,
		"flags": 0, "pending": false, "permissions": strconv.FormatInt(EveryonePermissions, 10),
	}
}

func (s *Server) channelJSONLocked(c *Channel) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type, "last_message_id": nil, "flags": 0}
	if ids := s.channelMsgs[c.ID]; len(ids) > 0 {
		m["last_message_id"] = ids[len(ids)-1]
	}
	if c.Type == ChannelTypeDM {
		m["recipients"] = []any{userJSON(s.users[c.RecipientID])}
		return m
	}
	m["guild_id"] = c.GuildID
	m["name"] = c.Name
	if c.IsThread() {
		return s.threadJSONLocked(c, m)
	}
	m["position"] = 0
	m["permission_overwrites"] = overwritesJSON(c.Overwrites)
	m["nsfw"] = false
	m["parent_id"] = nil
	m["topic"] = nil
	m["rate_limit_per_user"] = 0
	return m
}

func (s *Server) guildJSONLocked(g *Guild) map[string]any {
	return map[string]any{
		"id": g.ID, "name": g.Name, "icon": nil, "splash": nil, "discovery_splash": nil,
		"owner_id": g.OwnerID, "afk_channel_id": nil, "afk_timeout": 300,
		"verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
		"roles":  rolesJSON(s.roles[g.ID]),
		"emojis": []any{}, "features": []any{}, "mfa_level": 0, "system_channel_id": nil,
		"preferred_locale": g.Locale, "premium_tier": 0, "nsfw_level": 0, "stickers": []any{},
	}
}

// guildCreateJSONLocked is the GUILD_CREATE payload: the guild with its channels and members.
func (s *Server) guildCreateJSONLocked(g *Guild) map[string]any {
	m := s.guildJSONLocked(g)
	var channels, members []any
	threads := []any{}
	for _, c := range s.channelsOfGuildLocked(g.ID) {
		channels = append(channels, s.channelJSONLocked(c))
	}
	// Discord lists threads apart from channels, and only the active ones.
	for _, c := range s.threadsOfGuildLocked(g.ID, "") {
		if !c.Archived {
			threads = append(threads, s.channelJSONLocked(c))
		}
	}
	for uid := range s.members[g.ID] {
		members = append(members, s.memberJSONLocked(g.ID, s.users[uid]))
	}
	if channels == nil {
		channels = []any{}
	}
	m["channels"] = channels
	m["members"] = members
	m["member_count"] = len(members)
	m["joined_at"] = timestamp(snowflakeTime(g.ID))
	m["large"] = false
	m["unavailable"] = false
	m["threads"] = threads
	m["voice_states"] = []any{}
	m["presences"] = []any{}
	m["stage_instances"] = []any{}
	m["guild_scheduled_events"] = []any{}
	return m
}

// channelsOfGuildLocked lists a guild's channels without its threads, as Discord's Get Guild
// Channels does.
func (s *Server) channelsOfGuildLocked(guildID string) []*Channel {
	var out []*Channel
	for _, c := range s.channels {
		if c.GuildID == guildID && !c.IsThread() {
			out = append(out, c)
		}
	}
	sortByID(out, func(c *Channel) string { return c.ID })
	return out
}
