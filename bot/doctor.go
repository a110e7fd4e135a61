package bot

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// Finding is the outcome of one check of Doctor.
type Finding struct {
	OK     bool
	Check  string // what was checked, like "Attach Files in #table"
	Detail string // what was found
	Fix    string // what to do, when not OK
}

// Report is what Doctor found, in the order it checked.
type Report []Finding

// OK reports whether every check passed.
func (r Report) OK() bool {
	return !slices.ContainsFunc(r, func(f Finding) bool { return !f.OK })
}

// Write prints the report for a server admin: one line per check, and how
// to fix what failed.
func (r Report) Write(w io.Writer) {
	for _, f := range r {
		mark := "✓"
		if !f.OK {
			mark = "✗"
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, f.Check, f.Detail)
		if !f.OK && f.Fix != "" {
			fmt.Fprintf(w, "    → %s\n", f.Fix)
		}
	}
	if r.OK() {
		fmt.Fprintln(w, "All checks passed: Conductor is ready.")
	} else {
		fmt.Fprintln(w, "Some checks failed: fix the points marked ✗ and run conductor doctor again.")
	}
}

// neededPermission is a permission Conductor needs in a game's channel.
type neededPermission struct {
	bit        int64
	name, what string
}

// neededPermissions are what a game channel must allow the bot; the thread
// ones are for games played in threads of the channel. Nothing else: it
// manages no thread it did not start. Read Message History serves one
// purpose: finding a board posted through a move's interaction whose answer
// was lost (commands/via.go), without which boards go to the channel.
var neededPermissions = []neededPermission{
	{discordgo.PermissionViewChannel, "View Channel", "see the channel"},
	{discordgo.PermissionSendMessages, "Send Messages", "post the lobby and the boards"},
	{discordgo.PermissionAttachFiles, "Attach Files", "attach the board picture"},
	{discordgo.PermissionEmbedLinks, "Embed Links", "show the lobby and the scores as embeds"},
	{discordgo.PermissionCreatePublicThreads, "Create Public Threads", "open a thread per game"},
	{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads", "post in a game's thread"},
	{discordgo.PermissionReadMessageHistory, "Read Message History", "post each board through the move's own interaction, outside Discord's global rate limit (without it boards go to the channel, slower under load)"},
}

// threadPermissions are what a game's own thread needs beyond the channel's
// posting permissions: with only one of them, the bot plays in the channel
// (a thread it could open but not post in would hold no board).
const threadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// InvitePermissions is the permission integer of the invite link: every
// permission Conductor needs.
func InvitePermissions() int64 {
	var p int64
	for _, n := range neededPermissions {
		p |= n.bit
	}
	return p
}

// DoctorOptions say what Doctor checks beyond the token and the commands.
type DoctorOptions struct {
	// ChannelID, when set, is a channel where games will be played: the
	// bot's permissions there are checked.
	ChannelID string
	// TestBoard, when set with ChannelID, is posted there and deleted.
	TestBoard *commands.Message
}

// Doctor checks, from Discord's API, what a server admin needs before
// inviting players: the token, the registered commands and, in a channel,
// each permission Conductor needs. It opens no gateway connection.
func (b *Bot) Doctor(opts DoctorOptions) Report {
	var r Report
	add := func(ok bool, check, detail, fix string) { r = append(r, Finding{ok, check, detail, fix}) }
	me, err := b.s.User("@me")
	if err != nil {
		if isUnauthorized(err) {
			add(false, "Token", "Discord refused the token (401 Unauthorized)",
				"copy a fresh token from https://discord.com/developers/applications → your application → Bot → Reset Token, and set DISCORD_TOKEN to it")
		} else {
			add(false, "Token", "Discord could not be reached: "+err.Error(), "check the network, and DISCORD_API_URL if it is set")
		}
		return r
	}
	app, err := b.s.Application("@me")
	if err != nil {
		add(false, "Application", err.Error(), "check that the token belongs to a bot of an application")
		return r
	}
	add(true, "Token", fmt.Sprintf("valid: bot %s (user %s) of application %s (%s)", me.Username, me.ID, app.Name, app.ID), "")
	invite := fmt.Sprintf("https://discord.com/oauth2/authorize?client_id=%s&scope=bot+applications.commands&permissions=%d", app.ID, InvitePermissions())
	if b.cfg.GuildID != "" {
		if g, err := b.s.Guild(b.cfg.GuildID); err != nil {
			add(false, "Server "+b.cfg.GuildID, "the bot is not in the server named by DISCORD_GUILD_ID ("+err.Error()+")", "invite the bot with "+invite)
		} else {
			add(true, "Server", g.Name+" ("+g.ID+"), from DISCORD_GUILD_ID", "")
		}
	}
	r = append(r, b.checkCommands(app.ID)...)
	if b.cfg.GuildID == "" || b.cfg.Activity {
		r = append(r, b.checkEntryPoint(app.ID))
	}
	if opts.ChannelID != "" {
		r = append(r, b.checkChannel(opts.ChannelID, me.ID, invite, opts.TestBoard)...)
	}
	return r
}

// checkCommands compares the registered commands with Conductor's.
func (b *Bot) checkCommands(appID string) Report {
	where := "globally"
	if b.cfg.GuildID != "" {
		where = "on server " + b.cfg.GuildID
	}
	registered, err := b.s.ApplicationCommands(appID, b.cfg.GuildID)
	if err != nil {
		return Report{{false, "Commands", "listing the commands registered " + where + ": " + err.Error(), ""}}
	}
	var missing []string
	for _, d := range b.cfg.Commands {
		if !slices.ContainsFunc(registered, func(c *discordgo.ApplicationCommand) bool { return c.Name == d.Name }) {
			missing = append(missing, "/"+d.Name)
		}
	}
	if len(missing) > 0 {
		fix := "start the bot once (conductor run registers its commands when it connects)"
		if b.cfg.GuildID == "" {
			fix += "; a Discord client may need a restart (Ctrl+R) to show new global commands"
		}
		return Report{{false, "Commands", fmt.Sprintf("%d of %d not registered %s: %s", len(missing), len(b.cfg.Commands), where, strings.Join(missing, " ")), fix}}
	}
	return Report{{true, "Commands", fmt.Sprintf("all %d registered %s", len(b.cfg.Commands), where), ""}}
}

// checkChannel checks each permission the bot needs in a channel (a
// thread's come from its parent channel), and optionally posts and deletes
// a test board there.
func (b *Bot) checkChannel(channelID, botID, invite string, board *commands.Message) Report {
	var r Report
	add := func(ok bool, check, detail, fix string) { r = append(r, Finding{ok, check, detail, fix}) }
	ch, err := b.s.Channel(channelID)
	if err != nil {
		add(false, "Channel "+channelID, "the bot cannot see it ("+err.Error()+")",
			"check the id (Developer Mode → right-click the channel → Copy Channel ID); if the bot is not in that server, invite it with "+invite+"; otherwise allow View Channel for the bot's role in the channel's settings → Permissions")
		return r
	}
	if ch.GuildID == "" {
		add(false, "Channel "+channelID, "a direct message, not a server channel", "give the id of a server text channel")
		return r
	}
	if b.cfg.GuildID != "" && ch.GuildID != b.cfg.GuildID {
		add(false, "Channel #"+ch.Name, "in server "+ch.GuildID+", but DISCORD_GUILD_ID registers the commands on server "+b.cfg.GuildID,
			"play in a channel of server "+b.cfg.GuildID+", or change DISCORD_GUILD_ID (empty: every server)")
	}
	settings := ch // a thread's permissions are its parent channel's
	if ch.IsThread() {
		if settings, err = b.s.Channel(ch.ParentID); err != nil {
			add(false, "Thread #"+ch.Name, "its channel cannot be read: "+err.Error(), "")
			return r
		}
	}
	guild, err := b.s.Guild(ch.GuildID)
	if err == nil {
		var member *discordgo.Member
		if member, err = b.s.GuildMember(ch.GuildID, botID); err == nil {
			r = append(r, permissionFindings(guild, ch, settings, member, botID)...)
		}
	}
	if err != nil {
		add(false, "Permissions in #"+ch.Name, "the server's roles could not be read: "+err.Error(), "")
	}
	if board != nil {
		id, err := b.Post(channelID, *board)
		switch {
		case err != nil:
			add(false, "Test board in #"+ch.Name, "posting failed: "+err.Error(), "grant the permissions marked ✗ above")
		default:
			if err := b.s.ChannelMessageDelete(channelID, id); err != nil {
				add(false, "Test board in #"+ch.Name, "posted, but deleting it failed: "+err.Error(), "delete the test message by hand")
			} else {
				add(true, "Test board in #"+ch.Name, "posted and deleted", "")
			}
		}
	}
	return r
}

// permissionFindings computes the bot's permissions in a channel with
// discordgo's own rules (roles, owner, administrator, then the overwrites of
// @everyone, the bot's roles and the bot) and explains each missing one.
func permissionFindings(guild *discordgo.Guild, ch, settings *discordgo.Channel, member *discordgo.Member, botID string) Report {
	state := discordgo.NewState()
	state.GuildAdd(guild)
	in := *settings
	in.GuildID = guild.ID
	state.ChannelAdd(&in)
	member.GuildID = guild.ID
	state.MemberAdd(member)
	perms, err := state.UserChannelPermissions(botID, in.ID)
	if err != nil {
		return Report{{false, "Permissions in #" + ch.Name, err.Error(), ""}}
	}
	roleName := map[string]string{}
	for _, role := range guild.Roles {
		roleName[role.ID] = role.Name
	}
	var r Report
	if ch.Type == discordgo.ChannelTypeGuildPrivateThread {
		r = append(r, Finding{false, "Thread #" + ch.Name, "a private thread: the bot is not among its members, so it holds no table there",
			"play in a text channel (each game gets a public thread) or in a public thread"})
	}
	for _, n := range neededPermissions {
		if ch.IsThread() && n.bit == discordgo.PermissionSendMessages || ch.IsThread() && n.bit == discordgo.PermissionCreatePublicThreads {
			continue // in a thread the table plays there: Send Messages in Threads is what it posts with
		}
		check := n.name + " in #" + ch.Name
		if perms&n.bit != 0 {
			r = append(r, Finding{true, check, "allowed (to " + n.what + ")", ""})
			continue
		}
		// Say which of the channel's overwrites take it away, if any.
		var by []string
		for _, o := range settings.PermissionOverwrites {
			applies := o.ID == guild.ID || o.ID == botID || slices.Contains(member.Roles, o.ID)
			if applies && o.Deny&n.bit != 0 {
				name := roleName[o.ID]
				if o.Type == discordgo.PermissionOverwriteTypeMember {
					name = "the bot itself"
				}
				by = append(by, name)
			}
		}
		detail := "missing: Conductor cannot " + n.what
		fix := fmt.Sprintf("Server Settings → Roles → the bot's role (or @everyone) → turn on %q", n.name)
		if len(by) > 0 {
			detail += "; #" + settings.Name + "'s permissions deny it for " + strings.Join(by, ", ")
			fix = fmt.Sprintf("Edit Channel #%s → Permissions → %s → set %q to allow (✓), or remove that denial", settings.Name, by[0], n.name)
		}
		r = append(r, Finding{false, check, detail, fix})
	}
	if !ch.IsThread() {
		r = append(r, threadFinding(ch.Name, perms))
	}
	return r
}

// threadFinding says where games typed in a channel are played: in a thread
// of their own only with both thread permissions; with one alone, or
// none, in the channel itself.
func threadFinding(channel string, perms int64) Finding {
	check := "Games in #" + channel
	switch perms & threadPermissions {
	case threadPermissions:
		return Finding{true, check, "each game gets a thread of its own", ""}
	case discordgo.PermissionCreatePublicThreads:
		return Finding{false, check, "played in #" + channel + " itself: the bot may open a thread but not post in it (Send Messages in Threads is missing), so it opens none",
			"allow Send Messages in Threads for the bot's role, or keep games in the channel"}
	case discordgo.PermissionSendMessagesInThreads:
		return Finding{false, check, "played in #" + channel + " itself: the bot may not open a thread (Create Public Threads is missing)",
			"allow Create Public Threads for the bot's role, or keep games in the channel"}
	}
	return Finding{false, check, "played in #" + channel + " itself: the bot needs both Create Public Threads and Send Messages in Threads to give each game a thread",
		"allow both for the bot's role, or keep games in the channel"}
}
