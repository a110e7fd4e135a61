package fakediscord

import (
	"encoding/json"
	"net/http"
)

// Threads as Discord documents them (https://discord.com/developers/docs/topics/threads and
// the Channel resource): started from a message (public, same id as the message) or without
// one, archived and locked through Modify Channel, unarchived by a post, and taking their
// permissions from the parent channel.

func init() {
	route("POST /channels/{channel_id}/messages/{message_id}/threads", handleStartThreadFromMessage)
	route("POST /channels/{channel_id}/threads", handleStartThread)
	route("PATCH /channels/{channel_id}", handleModifyChannel)
}

// defaultAutoArchive is the auto_archive_duration of a thread created without one: the fake
// takes a day, the value of a channel without a default_auto_archive_duration (Discord's
// pages do not say what the API then picks).
const defaultAutoArchive = 1440

// newThreadLocked adds a thread to a text channel, started now by ownerID.
func (s *Server) newThreadLocked(id string, parent *Channel, typ int, name, ownerID string, autoArchive int) *Channel {
	if autoArchive == 0 {
		autoArchive = defaultAutoArchive
	}
	now := s.Now()
	c := &Channel{ID: id, GuildID: parent.GuildID, ParentID: parent.ID, Name: name, Type: typ, OwnerID: ownerID,
		AutoArchiveDuration: autoArchive, ArchiveTimestamp: now, CreatedAt: now, Invitable: typ == ChannelTypePrivateThread}
	s.channels[c.ID] = c
	s.threadMembers[c.ID] = map[string]bool{ownerID: true} // who starts a thread joins it
	return c
}

// threadJSONLocked completes a thread's channel object (m holds id, type, guild_id, name,
// last_message_id and flags): threads have no overwrites, position or topic of their own.
func (s *Server) threadJSONLocked(c *Channel, m map[string]any) map[string]any {
	count, total := 0, len(s.channelMsgs[c.ID])
	for _, id := range s.channelMsgs[c.ID] {
		if msg := s.messages[id]; !msg.Deleted {
			count++
		}
	}
	m["parent_id"] = c.ParentID
	m["owner_id"] = c.OwnerID
	m["rate_limit_per_user"] = 0
	m["message_count"] = count
	m["total_message_sent"] = total
	m["member_count"] = 1 // the fake does not track thread members
	meta := map[string]any{
		"archived": c.Archived, "auto_archive_duration": c.AutoArchiveDuration, "locked": c.Locked,
		"archive_timestamp": timestamp(c.ArchiveTimestamp), "create_timestamp": timestamp(c.CreatedAt),
	}
	if c.Type == ChannelTypePrivateThread {
		meta["invitable"] = c.Invitable
	}
	m["thread_metadata"] = meta
	return m
}

// threadCreateJSONLocked is the THREAD_CREATE payload of a new thread.
func (s *Server) threadCreateJSONLocked(c *Channel) map[string]any {
	m := s.channelJSONLocked(c)
	m["newly_created"] = true
	return m
}

// canStartThreadLocked answers as Discord does when the bot may not start a thread of type
// typ in ch: 400/50024 unless ch is a guild text channel (not a thread, not a DM), 403/50001
// without View Channel, 403/50013 without Create Public (or Private) Threads.
func (s *Server) canStartThreadLocked(c *call, ch *Channel, typ int) bool {
	if ch.Type != ChannelTypeGuildText || typ != ChannelTypePublicThread && typ != ChannelTypePrivateThread {
		c.fail(http.StatusBadRequest, 50024, "Cannot execute action on this channel type")
		return false
	}
	need := PermCreatePublicThreads
	if typ == ChannelTypePrivateThread {
		need = PermCreatePrivateThreads
	}
	switch perms := s.permissionsLocked(ch, s.bot.ID); {
	case perms&PermViewChannel == 0:
		c.fail(http.StatusForbidden, 50001, "Missing Access")
	case perms&need == 0:
		c.fail(http.StatusForbidden, 50013, "Missing Permissions")
	default:
		return true
	}
	return false
}

// threadRequest is the body of both ways to start a thread; the schema has checked it.
type threadRequest struct {
	Name                string `json:"name"`
	AutoArchiveDuration *int   `json:"auto_archive_duration"`
	Type                *int   `json:"type"`
	Invitable           *bool  `json:"invitable"`
}

func (c *call) threadRequest() threadRequest {
	var req threadRequest
	json.Unmarshal(c.body.JSON, &req)
	if req.AutoArchiveDuration == nil {
		req.AutoArchiveDuration = new(int)
	}
	return req
}

// threadParentLocked is the channel of the request's path, when the bot may
// start a thread of type typ in it; otherwise the request was answered.
func (s *Server) threadParentLocked(c *call, typ int) (*Channel, bool) {
	parent, ok := s.channels[c.params["channel_id"]]
	if !ok {
		c.fail(http.StatusNotFound, 10003, "Unknown Channel")
		return nil, false
	}
	return parent, s.canStartThreadLocked(c, parent, typ)
}

// handleStartThreadFromMessage is Start Thread from Message: a public thread with the
// message's id, which the message then carries as "thread" (THREAD_CREATE and MESSAGE_UPDATE).
func handleStartThreadFromMessage(s *Server, c *call) {
	req := c.threadRequest()
	s.mu.Lock()
	parent, ok := s.threadParentLocked(c, ChannelTypePublicThread)
	if !ok {
		s.mu.Unlock()
		return
	}
	m, ok := s.channelMessageLocked(c)
	if !ok {
		s.mu.Unlock()
		return
	}
	// The thread takes the message's id, so a message starts one thread at most.
	if _, taken := s.channels[m.ID]; taken {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 160004, "A thread has already been created for this message")
		return
	}
	th := s.newThreadLocked(m.ID, parent, ChannelTypePublicThread, req.Name, s.bot.ID, *req.AutoArchiveDuration)
	created := s.threadCreateJSONLocked(th)
	out := s.channelJSONLocked(th)
	updated := s.messageJSONLocked(m)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(th.GuildID, "THREAD_CREATE", created, intentGuilds)
	s.dispatchMessageEvent(th.GuildID, "MESSAGE_UPDATE", updated)
	c.json(http.StatusCreated, out)
}

// handleStartThread is Start Thread without Message. Without "type" Discord makes a private
// thread (its documented default, kept for compatibility), not a public one.
func handleStartThread(s *Server, c *call) {
	req := c.threadRequest()
	typ := ChannelTypePrivateThread
	if req.Type != nil {
		typ = *req.Type
	}
	s.mu.Lock()
	parent, ok := s.threadParentLocked(c, typ)
	if !ok {
		s.mu.Unlock()
		return
	}
	th := s.newThreadLocked(s.ids.next(), parent, typ, req.Name, s.bot.ID, *req.AutoArchiveDuration)
	if req.Invitable != nil && typ == ChannelTypePrivateThread {
		th.Invitable = *req.Invitable
	}
	created := s.threadCreateJSONLocked(th)
	out := s.channelJSONLocked(th)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(th.GuildID, "THREAD_CREATE", created, intentGuilds)
	c.json(http.StatusCreated, out)
}

// threadUpdate is a Modify Channel body for a thread; absent and null fields are nil.
type threadUpdate struct {
	Name                *string `json:"name"`
	Archived            *bool   `json:"archived"`
	Locked              *bool   `json:"locked"`
	AutoArchiveDuration *int    `json:"auto_archive_duration"`
	RateLimitPerUser    *int    `json:"rate_limit_per_user"`
	Invitable           *bool   `json:"invitable"`
}

// handleModifyChannel is Modify Channel for threads (other channels are not implemented).
// Permissions as the Threads topic states them: name, archived and auto_archive_duration need
// Manage Threads or being the thread's creator; locked and rate_limit_per_user need Manage
// Threads. Unarchiving a locked thread needs Manage Threads: so say Modify Channel and the
// topic's "Active & Archived Threads" (its "Editing" list would also let the creator, which
// would defeat a moderator's lock). An archived thread can only be changed by a request that
// unarchives it (400/50083), and a locked one not at all without Manage Threads (403/160005).
func handleModifyChannel(s *Server, c *call) {
	var req threadUpdate
	json.Unmarshal(c.body.JSON, &req)
	s.mu.Lock()
	ch, ok := s.channels[c.params["channel_id"]]
	if !ok {
		s.mu.Unlock()
		c.fail(http.StatusNotFound, 10003, "Unknown Channel")
		return
	}
	if !ch.IsThread() {
		s.mu.Unlock()
		c.rec.Unhandled = true
		c.fail(http.StatusNotFound, 0, "404: Not Found (not implemented by fakediscord)")
		return
	}
	perms := s.permissionsLocked(ch, s.bot.ID)
	manage := perms&PermManageThreads != 0
	mayEdit := manage || ch.OwnerID == s.bot.ID
	unarchives := req.Archived != nil && !*req.Archived
	var status, code int
	var message string
	switch {
	case perms&PermViewChannel == 0:
		status, code, message = http.StatusForbidden, 50001, "Missing Access"
	case ch.Archived && !unarchives:
		status, code, message = http.StatusBadRequest, 50083, "Thread is archived"
	case ch.Locked && !ch.Archived && !manage:
		status, code, message = http.StatusForbidden, 160005, "Thread is locked"
	case req.Locked != nil || req.RateLimitPerUser != nil && *req.RateLimitPerUser != 0:
		if !manage {
			status, code, message = http.StatusForbidden, 50013, "Missing Permissions"
		}
	}
	if status == 0 && (unarchives && ch.Locked && !manage || !mayEdit && (req.Name != nil ||
		req.AutoArchiveDuration != nil || req.Archived != nil && *req.Archived)) {
		status, code, message = http.StatusForbidden, 50013, "Missing Permissions"
	}
	if status != 0 {
		s.mu.Unlock()
		c.fail(status, code, message)
		return
	}
	if req.Name != nil {
		ch.Name = *req.Name
	}
	if req.Locked != nil {
		ch.Locked = *req.Locked
	}
	if req.Invitable != nil && ch.Type == ChannelTypePrivateThread {
		ch.Invitable = *req.Invitable
	}
	// archive_timestamp moves when archiving, unarchiving or changing auto_archive_duration.
	if req.AutoArchiveDuration != nil {
		ch.AutoArchiveDuration = *req.AutoArchiveDuration
		ch.ArchiveTimestamp = s.Now()
	}
	if req.Archived != nil && *req.Archived != ch.Archived {
		ch.Archived = *req.Archived
		ch.ArchiveTimestamp = s.Now()
	}
	out := s.channelJSONLocked(ch)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(ch.GuildID, "THREAD_UPDATE", out, intentGuilds)
	c.json(http.StatusOK, out)
}

// threadOpenLocked answers a post or an edit in a thread as Discord does: 400/50083 in an
// archived thread that is locked (or, for an edit, in any archived thread), 403/160005 in a
// locked thread without Manage Threads. A post in an archived thread that is not locked is
// allowed: it unarchives the thread (unarchiveLocked).
func (s *Server) threadOpenLocked(c *call, ch *Channel, posting bool) bool {
	switch {
	case !ch.IsThread():
		return true
	case ch.Archived && (ch.Locked || !posting):
		c.fail(http.StatusBadRequest, 50083, "Thread is archived")
	case ch.Locked && s.permissionsLocked(ch, s.bot.ID)&PermManageThreads == 0:
		c.fail(http.StatusForbidden, 160005, "Thread is locked")
	default:
		return true
	}
	return false
}

// unarchiveLocked unarchives a thread a message was just posted in and returns the
// THREAD_UPDATE payload to send, or nil when the channel is no archived thread.
func (s *Server) unarchiveLocked(ch *Channel) map[string]any {
	if !ch.IsThread() || !ch.Archived {
		return nil
	}
	ch.Archived = false
	ch.ArchiveTimestamp = s.Now()
	s.changedLocked()
	return s.channelJSONLocked(ch)
}

// Threads lists the threads of a text channel (archived ones included), oldest first.
func (s *Server) Threads(parentID string) []Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Channel
	if p, ok := s.channels[parentID]; ok {
		for _, c := range s.threadsOfGuildLocked(p.GuildID, parentID) {
			out = append(out, *c)
		}
	}
	return out
}

// threadsOfGuildLocked lists a guild's threads, of one parent channel unless parentID is "".
func (s *Server) threadsOfGuildLocked(guildID, parentID string) []*Channel {
	var out []*Channel
	for _, c := range s.channels {
		if c.GuildID == guildID && c.IsThread() && (parentID == "" || c.ParentID == parentID) {
			out = append(out, c)
		}
	}
	sortByID(out, func(c *Channel) string { return c.ID })
	return out
}

// ArchiveThread archives a thread as Discord does after its auto_archive_duration without
// activity, or as a moderator does; locked also locks it, as "Close and lock" does. The bot
// receives THREAD_UPDATE.
func (s *Server) ArchiveThread(threadID string, locked bool) {
	s.mu.Lock()
	ch, ok := s.channels[threadID]
	if !ok || !ch.IsThread() {
		s.mu.Unlock()
		panic("fakediscord: no thread " + threadID)
	}
	ch.Archived, ch.Locked = true, ch.Locked || locked
	ch.ArchiveTimestamp = s.Now()
	out := s.channelJSONLocked(ch)
	s.changedLocked()
	s.mu.Unlock()
	s.dispatchGuildEvent(ch.GuildID, "THREAD_UPDATE", out, intentGuilds)
}
