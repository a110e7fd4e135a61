package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

func TestApplicationCommands(t *testing.T) {
	t.Parallel()
	defs := commands.Definitions([]string{"usa", "europe"})
	global := ApplicationCommands(defs, true)
	guild := ApplicationCommands(defs, false)
	if len(global) != len(defs) {
		t.Fatalf("%d commands for %d definitions", len(global), len(defs))
	}
	var ttr *discordgo.ApplicationCommand
	for i, c := range global {
		if c.Type != discordgo.ChatApplicationCommand || c.Description == "" {
			t.Errorf("/%s: type %d description %q", c.Name, c.Type, c.Description)
		}
		if c.Contexts == nil || len(*c.Contexts) != 1 || (*c.Contexts)[0] != discordgo.InteractionContextGuild {
			t.Errorf("global /%s is not limited to servers", c.Name)
		}
		if guild[i].Contexts != nil {
			t.Errorf("server-scoped /%s sends contexts", c.Name)
		}
		if c.Name == "ttr" {
			ttr = c
		}
	}
	if ttr == nil {
		t.Fatal("no /ttr")
	}
	for _, loc := range []discordgo.Locale{discordgo.French, discordgo.Italian, discordgo.German} {
		if ttr.NameLocalizations == nil || (*ttr.NameLocalizations)[loc] == "" {
			t.Errorf("/ttr has no %s name", loc)
		}
	}
	var newSub *discordgo.ApplicationCommandOption
	for _, o := range ttr.Options {
		if o.Name == "new" {
			newSub = o
		}
	}
	if newSub == nil || newSub.Type != discordgo.ApplicationCommandOptionSubCommand {
		t.Fatal("no /ttr new subcommand")
	}
	for _, o := range newSub.Options {
		switch o.Name {
		case "map":
			if len(o.Choices) != 2 || o.Choices[1].Value != "europe" {
				t.Errorf("map choices = %+v", o.Choices)
			}
			if o.NameLocalizations[discordgo.French] == "" {
				t.Error("the map option has no French name")
			}
		case "turn_timer":
			if o.Type != discordgo.ApplicationCommandOptionInteger || o.MinValue == nil || *o.MinValue != 0 || o.MaxValue != 7*24*60 {
				t.Errorf("turn_timer = %+v", o)
			}
		}
	}
}
