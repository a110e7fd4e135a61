package present

import "strings"

// Player is a seat as people see it: a person, a bot, or a bot playing
// the seat a person left (For names that person).
type Player struct {
	Name string
	Bot  bool
	// Level is a bot's level ("hard"), as /ttr addbot takes it.
	Level string
	// For is the person whose seat a bot took over ("" for a bot seated
	// from the start).
	For string
}

// PlayerName is how a seat is named in the language of loc, without
// markup: "Alice", "Vera (difficile)", "bot normal pour bob". A bot is
// always named as a bot, with its level in that language.
func PlayerName(loc string, p Player) string {
	if !p.Bot {
		return p.Name
	}
	level := LevelName(loc, p.Level)
	if p.For != "" {
		return T(loc, "seat.bot_for", "level", level, "player", p.For)
	}
	name := BotBaseName(p.Name, p.Level)
	if level == "" {
		return name
	}
	return T(loc, "seat.bot", "name", name, "level", level)
}

// PlayerLabel is PlayerName for text, where a bot also carries 🤖.
func PlayerLabel(loc string, p Player) string {
	if p.Bot {
		return "🤖 " + PlayerName(loc, p)
	}
	return p.Name
}

// LevelName is a bot level's word in the language of loc ("difficile");
// a level the catalogues do not know keeps its own name.
func LevelName(loc, level string) string {
	if level == "" {
		return ""
	}
	if _, ok := Lookup("en", "bot.level."+level); ok {
		return T(loc, "bot.level."+level)
	}
	return level
}

// BotBaseName is a bot's name without the " (level)" earlier versions
// stored with it: "Vera" for "Vera (hard)".
func BotBaseName(name, level string) string {
	if level != "" {
		name = strings.TrimSuffix(name, " ("+level+")")
	}
	return name
}
