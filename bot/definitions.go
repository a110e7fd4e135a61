package bot

import (
	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// discordLocales maps the languages Conductor speaks to Discord's locale
// codes (English is the default text and needs none).
var discordLocales = map[string]discordgo.Locale{
	"fr": discordgo.French,
	"it": discordgo.Italian,
	"de": discordgo.German,
}

var optionTypes = map[commands.OptionType]discordgo.ApplicationCommandOptionType{
	commands.SubCommand:    discordgo.ApplicationCommandOptionSubCommand,
	commands.StringOption:  discordgo.ApplicationCommandOptionString,
	commands.IntegerOption: discordgo.ApplicationCommandOptionInteger,
	commands.BooleanOption: discordgo.ApplicationCommandOptionBoolean,
	commands.UserOption:    discordgo.ApplicationCommandOptionUser,
}

// ApplicationCommands converts Conductor's command definitions for
// registration. global says whether they are registered for every server
// (then guild-only commands say so with contexts) or for one server.
func ApplicationCommands(defs []commands.CommandDef, global bool) []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, 0, len(defs))
	for _, d := range defs {
		c := &discordgo.ApplicationCommand{
			Type:                     discordgo.ChatApplicationCommand,
			Name:                     d.Name,
			Description:              d.Description,
			NameLocalizations:        localizations(d.Names),
			DescriptionLocalizations: localizations(d.Descriptions),
			Options:                  options(d.Options),
		}
		if global && d.GuildOnly {
			// Contexts and installation types apply to global commands only.
			c.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
			c.IntegrationTypes = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
		}
		out = append(out, c)
	}
	return out
}

func options(defs []commands.OptionDef) []*discordgo.ApplicationCommandOption {
	if len(defs) == 0 {
		return nil
	}
	out := make([]*discordgo.ApplicationCommandOption, 0, len(defs))
	for _, d := range defs {
		o := &discordgo.ApplicationCommandOption{
			Type:         optionTypes[d.Type],
			Name:         d.Name,
			Description:  d.Description,
			Required:     d.Required,
			Autocomplete: d.Autocomplete,
			MinValue:     d.MinValue,
			Options:      options(d.Options),
		}
		if ls := localizations(d.Names); ls != nil {
			o.NameLocalizations = *ls
		}
		if ls := localizations(d.Descriptions); ls != nil {
			o.DescriptionLocalizations = *ls
		}
		if d.MaxValue != nil {
			o.MaxValue = *d.MaxValue
		}
		for _, c := range d.Choices {
			choice := &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value}
			if ls := localizations(c.Names); ls != nil {
				choice.NameLocalizations = *ls
			}
			o.Choices = append(o.Choices, choice)
		}
		out = append(out, o)
	}
	return out
}

func localizations(m map[string]string) *map[discordgo.Locale]string {
	out := map[discordgo.Locale]string{}
	for lang, text := range m {
		if loc, ok := discordLocales[lang]; ok && text != "" {
			out[loc] = text
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &out
}
