package bot

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// manageBits are the member permissions that let someone run a channel's
// table without being its host.
const manageBits = discordgo.PermissionManageChannels | discordgo.PermissionAdministrator

// toRequest reads an interaction into a transport-neutral request, and
// returns the type of the option being typed for autocomplete (its choices
// must have that type). ok is false for interactions Conductor does not
// handle (pings, modal submissions).
func toRequest(i *discordgo.Interaction) (req *commands.Request, focused discordgo.ApplicationCommandOptionType, ok bool) {
	req = &commands.Request{ID: i.ID, Guild: i.GuildID, Channel: i.ChannelID, Locale: string(i.Locale), DM: i.GuildID == ""}
	// In a server, Discord says what the bot may do where the request was
	// made (in a DM its app_permissions list only a few extras).
	req.AppPermissions, req.KnownPermissions = commands.Permissions(i.AppPermissions), !req.DM
	if i.GuildLocale != nil {
		req.GuildLocale = string(*i.GuildLocale)
	}
	var u *discordgo.User
	switch {
	case i.Member != nil && i.Member.User != nil:
		u = i.Member.User
		req.UserName = i.Member.Nick
		req.CanManage = i.Member.Permissions&manageBits != 0
		req.CanManageServer = i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
	case i.User != nil:
		u = i.User
	default:
		return nil, 0, false
	}
	req.User = u.ID
	if req.UserName == "" {
		req.UserName = u.GlobalName
	}
	if req.UserName == "" {
		req.UserName = u.Username
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		req.Type = commands.CommandRequest
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			req.Type = commands.AutocompleteRequest
		}
		d := i.ApplicationCommandData()
		req.Name = d.Name
		if d.CommandType == commandTypeEntryPoint {
			req.Name = commands.EntryPointName // whatever the operator named it
		}
		req.Options = map[string]string{}
		opts := d.Options
		// A subcommand (or a group holding one) carries the real options.
		for len(opts) == 1 && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			if req.Sub != "" {
				req.Sub += " "
			}
			req.Sub += opts[0].Name
			opts = opts[0].Options
		}
		for _, o := range opts {
			req.Options[o.Name] = optionString(o)
			if o.Focused {
				req.Focused, focused = o.Name, o.Type
			}
		}
	case discordgo.InteractionMessageComponent:
		req.Type = commands.ComponentRequest
		d := i.MessageComponentData()
		req.CustomID = d.CustomID
		req.Values = d.Values
	default:
		return nil, 0, false
	}
	return req, focused, true
}

// channelKind reads the kind of the request's channel from the raw
// INTERACTION_CREATE payload, whose "channel" discordgo does not decode.
func channelKind(raw []byte) commands.ChannelKind {
	var p struct {
		Channel *struct {
			Type discordgo.ChannelType `json:"type"`
		} `json:"channel"`
	}
	if json.Unmarshal(raw, &p) != nil || p.Channel == nil {
		return commands.ChannelUnknown
	}
	switch p.Channel.Type {
	case discordgo.ChannelTypeGuildText:
		return commands.ChannelText
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildNewsThread:
		return commands.ChannelPublicThread
	case discordgo.ChannelTypeGuildPrivateThread:
		return commands.ChannelPrivateThread
	case discordgo.ChannelTypeDM, discordgo.ChannelTypeGroupDM:
		return commands.ChannelDM
	}
	return commands.ChannelOther
}

// optionString is an option's value as text: booleans "true"/"false",
// integers in decimal, users and channels by id.
func optionString(o *discordgo.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		if o.Type == discordgo.ApplicationCommandOptionInteger || v == float64(int64(v)) {
			return strconv.FormatInt(int64(v), 10)
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	default:
		return fmt.Sprint(v)
	}
}
