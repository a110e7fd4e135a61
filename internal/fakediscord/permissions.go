package fakediscord

import (
	"net/http"
	"strconv"
)

// Permission bits (Discord's numbering) the fake gives meaning to.
const (
	PermAdministrator         int64 = 1 << 3
	PermViewChannel           int64 = 1 << 10
	PermSendMessages          int64 = 1 << 11
	PermEmbedLinks            int64 = 1 << 14
	PermAttachFiles           int64 = 1 << 15
	PermReadMessageHistory    int64 = 1 << 16
	PermMentionEveryone       int64 = 1 << 17
	PermUseExternalEmojis     int64 = 1 << 18
	PermManageThreads         int64 = 1 << 34
	PermCreatePublicThreads   int64 = 1 << 35
	PermCreatePrivateThreads  int64 = 1 << 36
	PermSendMessagesInThreads int64 = 1 << 38
)

// EveryonePermissions is what a new guild's @everyone role grants in the fake: every text
// permission, threads included, and none of the moderator ones.
const EveryonePermissions int64 = 2248473465835073

// DMAppPermissions is the app_permissions of an interaction in the bot's DM: "includes
// ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE permissions for (G)DMs with other users, and
// additionally includes USE_EXTERNAL_EMOJIS for DMs with the app's bot user" (Receiving and
// Responding → Interaction Object).
const DMAppPermissions = PermAttachFiles | PermEmbedLinks | PermMentionEveryone | PermUseExternalEmojis

// Role is a guild role. The @everyone role's id is the guild's.
type Role struct {
	ID          string
	Name        string
	Permissions int64
}

// Overwrite is a channel's permission overwrite for a role (Type 0) or a member (Type 1).
type Overwrite struct {
	ID          string
	Type        int
	Allow, Deny int64
}

// CreateRole adds a role to a guild.
func (s *Server) CreateRole(guildID, name string, permissions int64) Role {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustGuildLocked(guildID)
	r := &Role{ID: s.ids.next(), Name: name, Permissions: permissions}
	s.roles[guildID] = append(s.roles[guildID], r)
	s.changedLocked()
	return *r
}

// SetRolePermissions changes a role's permissions; the guild's id names @everyone.
func (s *Server) SetRolePermissions(guildID, roleID string, permissions int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.roles[guildID] {
		if r.ID == roleID {
			r.Permissions = permissions
			s.changedLocked()
			return
		}
	}
	panic("fakediscord: unknown role " + roleID)
}

// GiveRole gives a guild member (the bot too) a role.
func (s *Server) GiveRole(guildID, userID, roleID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mustGuildLocked(guildID)
	s.members[guildID][userID] = true
	s.memberRoles[guildID+"/"+userID] = append(s.memberRoles[guildID+"/"+userID], roleID)
	s.changedLocked()
}

// SetOverwrite sets a channel's permission overwrite for o.ID, replacing an earlier one.
func (s *Server) SetOverwrite(channelID string, o Overwrite) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channelID]
	if !ok {
		panic("fakediscord: unknown channel " + channelID)
	}
	for i := range ch.Overwrites {
		if ch.Overwrites[i].ID == o.ID {
			ch.Overwrites[i] = o
			s.changedLocked()
			return
		}
	}
	ch.Overwrites = append(ch.Overwrites, o)
	s.changedLocked()
}

// permissionsLocked computes a member's permissions in a guild channel as Discord documents
// it: @everyone and the member's roles, everything for the owner and administrators, then
// the channel's overwrites for @everyone, the member's roles and the member. A thread takes
// its parent's overwrites.
func (s *Server) permissionsLocked(ch *Channel, userID string) int64 {
	g := s.guilds[ch.GuildID]
	if g.OwnerID == userID {
		return ^int64(0)
	}
	roles := map[string]bool{g.ID: true}
	for _, id := range s.memberRoles[g.ID+"/"+userID] {
		roles[id] = true
	}
	var perms int64
	for _, r := range s.roles[g.ID] {
		if roles[r.ID] {
			perms |= r.Permissions
		}
	}
	if perms&PermAdministrator != 0 {
		return ^int64(0)
	}
	if parent, ok := s.channels[ch.ParentID]; ok {
		ch = parent
	}
	apply := func(match func(Overwrite) bool) {
		var allow, deny int64
		for _, o := range ch.Overwrites {
			if match(o) {
				allow, deny = allow|o.Allow, deny|o.Deny
			}
		}
		perms = perms&^deny | allow
	}
	apply(func(o Overwrite) bool { return o.Type == 0 && o.ID == g.ID })
	apply(func(o Overwrite) bool { return o.Type == 0 && o.ID != g.ID && roles[o.ID] })
	apply(func(o Overwrite) bool { return o.Type == 1 && o.ID == userID })
	return perms
}

// canPostLocked answers as Discord does when the bot may not post in a guild channel: 403
// Missing Access without View Channel, 403 Missing Permissions without Send Messages (Send
// Messages in Threads in a thread) or, for files, Attach Files.
func (s *Server) canPostLocked(c *call, ch *Channel, files bool) bool {
	if ch.GuildID == "" {
		return true
	}
	perms := s.permissionsLocked(ch, s.bot.ID)
	send := PermSendMessages
	if ch.ParentID != "" {
		send = PermSendMessagesInThreads
	}
	switch {
	case perms&PermViewChannel == 0, !s.seesLocked(ch, s.bot.ID):
		c.fail(http.StatusForbidden, 50001, "Missing Access")
	case perms&send == 0, files && perms&PermAttachFiles == 0:
		c.fail(http.StatusForbidden, 50013, "Missing Permissions")
	default:
		return true
	}
	return false
}

func rolesJSON(roles []*Role) []any {
	out := []any{}
	for i, r := range roles {
		out = append(out, map[string]any{
			"id": r.ID, "name": r.Name, "permissions": strconv.FormatInt(r.Permissions, 10), "position": i,
			"color": 0, "hoist": false, "managed": false, "mentionable": false, "flags": 0,
		})
	}
	return out
}

func overwritesJSON(os []Overwrite) []any {
	out := []any{}
	for _, o := range os {
		out = append(out, map[string]any{"id": o.ID, "type": o.Type,
			"allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10)})
	}
	return out
}
