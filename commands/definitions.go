package commands

import "conductor/present"

// OptionType is the kind of value a command option takes.
type OptionType uint8

const (
	SubCommand OptionType = iota + 1
	StringOption
	IntegerOption
	BooleanOption
	UserOption
)

// CommandDef describes a slash command for registration. Names and
// descriptions come in every language Conductor speaks.
type CommandDef struct {
	Name         string
	Description  string
	Names        map[string]string // language -> localised name
	Descriptions map[string]string // language -> localised description
	Options      []OptionDef
	// GuildOnly commands cannot be used in DMs.
	GuildOnly bool
}

// OptionDef is one option of a command or subcommand.
type OptionDef struct {
	Type         OptionType
	Name         string
	Description  string
	Names        map[string]string
	Descriptions map[string]string
	Required     bool
	Autocomplete bool
	Choices      []Choice
	MinValue     *float64
	MaxValue     *float64
	Options      []OptionDef // for subcommands
}

// Definitions lists every slash command, localised.
func Definitions(mapIDs []string) []CommandDef {
	var maps []Choice
	for _, id := range mapIDs {
		maps = append(maps, mapChoice(id))
	}
	zero, week, five := 0.0, float64(MaxTurnTimer), 5.0
	sub := func(name string, opts ...OptionDef) OptionDef {
		return opt(SubCommand, "ttr."+name, name, false, opts...)
	}
	defs := []CommandDef{
		{Name: "ttr", GuildOnly: true, Options: []OptionDef{
			sub("new",
				withChoices(opt(StringOption, "ttr.new.map", "map", false), maps),
				auto(opt(StringOption, "ttr.new.variant", "variant", false)),
				opt(BooleanOption, "ttr.new.bonus_tickets", "bonus_tickets", false),
				withRange(opt(IntegerOption, "ttr.new.turn_timer", "turn_timer", false), &zero, &week),
				opt(BooleanOption, "ttr.new.confirm", "confirm", false),
				opt(BooleanOption, "ttr.new.hints", "hints", false),
				opt(BooleanOption, "ttr.new.thread", "thread", false),
				withChoices(opt(StringOption, "ttr.new.language", "language", false), languageChoices())),
			sub("join"), sub("leave"), sub("start"),
			sub("addbot", auto(opt(StringOption, "ttr.addbot.level", "level", false))),
			sub("kick", auto(opt(StringOption, "ttr.kick.seat", "seat", false)), opt(UserOption, "ttr.kick.player", "player", false)),
			sub("end"), sub("help"),
			sub("rules", auto(opt(StringOption, "ttr.rules.topic", "topic", false))),
			sub("stats", opt(UserOption, "ttr.stats.player", "player", false)),
			sub("forget", opt(BooleanOption, "ttr.forget.confirm", "confirm", false), opt(UserOption, "ttr.forget.player", "player", false)),
			sub("rating", opt(UserOption, "ttr.rating.player", "player", false)),
			sub("leaderboard", withChoices(opt(StringOption, "ttr.leaderboard.edition", "edition", false), maps)),
			sub("season", withChoices(opt(StringOption, "ttr.season.length", "length", false), seasonChoices())),
			sub("notify", opt(BooleanOption, "ttr.notify.on", "on", false)),
			sub("undo"), sub("hint"),
		}},
		{Name: "draw", GuildOnly: true, Options: []OptionDef{auto(opt(StringOption, "draw.card", "card", false))}},
		{Name: "claim", GuildOnly: true, Options: []OptionDef{
			auto(opt(StringOption, "claim.route", "route", true)),
			auto(opt(StringOption, "claim.color", "color", false)),
			withRange(opt(IntegerOption, "claim.locomotives", "locomotives", false), &zero, nil),
			auto(opt(StringOption, "claim.passenger", "passenger", false)),
		}},
		{Name: "tickets", GuildOnly: true, Options: []OptionDef{withRange(auto(opt(IntegerOption, "tickets.long", "long", false)), &zero, &five)}},
		{Name: "station", GuildOnly: true, Options: []OptionDef{
			auto(opt(StringOption, "station.city", "city", true)),
			auto(opt(StringOption, "station.color", "color", false)),
			withRange(opt(IntegerOption, "station.locomotives", "locomotives", false), &zero, nil),
		}},
		{Name: "passenger", GuildOnly: true, Options: []OptionDef{
			auto(opt(StringOption, "passenger.from", "from", true)),
			auto(opt(StringOption, "passenger.path", "path", false)),
		}},
		{Name: "hand", GuildOnly: true, Options: []OptionDef{opt(BooleanOption, "hand.dm", "dm", false)}},
		{Name: "board", GuildOnly: true},
		{Name: "score", GuildOnly: true},
		{Name: "log", GuildOnly: true},
	}
	for i := range defs {
		d := &defs[i]
		d.Description, d.Names, d.Descriptions = localized("cmd." + d.Name)
	}
	return defs
}

func opt(t OptionType, key, name string, required bool, sub ...OptionDef) OptionDef {
	o := OptionDef{Type: t, Name: name, Required: required, Options: sub}
	o.Description, o.Names, o.Descriptions = localized("opt." + key)
	return o
}

func auto(o OptionDef) OptionDef { o.Autocomplete = true; return o }

func withChoices(o OptionDef, c []Choice) OptionDef { o.Choices = c; return o }

func withRange(o OptionDef, lo, hi *float64) OptionDef { o.MinValue, o.MaxValue = lo, hi; return o }

// localized reads key+".name" and key+".desc" in every language. The
// English description is the default; English names are the canonical ones
// and are not repeated.
func localized(key string) (desc string, names, descs map[string]string) {
	names, descs = map[string]string{}, map[string]string{}
	desc = present.T("en", key+".desc")
	for _, l := range present.Languages {
		if l == "en" {
			continue
		}
		if n, ok := present.Lookup(l, key+".name"); ok {
			names[l] = n
		}
		if d, ok := present.Lookup(l, key+".desc"); ok && d != desc {
			descs[l] = d
		}
	}
	return desc, names, descs
}

// mapChoice is a board as /ttr new offers it: by its edition's name in
// each language ("Les Aventuriers du Rail — Europe"), its id as the value.
func mapChoice(id string) Choice {
	key := "edition." + id
	if _, ok := present.Lookup("en", key); !ok {
		return Choice{Name: id, Value: id}
	}
	c := Choice{Name: present.T("en", key), Value: id, Names: map[string]string{}}
	for _, l := range present.Languages {
		if n, ok := present.Lookup(l, key); ok && l != "en" && n != c.Name {
			c.Names[l] = n
		}
	}
	return c
}

// seasonChoices are the season lengths /ttr season offers.
func seasonChoices() []Choice {
	var out []Choice
	for _, v := range []string{"month", "quarter", "none"} {
		key := "choice.season." + v
		c := Choice{Name: present.T("en", key), Value: v, Names: map[string]string{}}
		for _, l := range present.Languages {
			if n, ok := present.Lookup(l, key); ok && l != "en" && n != c.Name {
				c.Names[l] = n
			}
		}
		out = append(out, c)
	}
	return out
}

// languageChoices are the languages a table can speak, each named in
// itself.
func languageChoices() []Choice {
	names := map[string]string{"en": "English", "fr": "Français", "it": "Italiano", "de": "Deutsch"}
	var out []Choice
	for _, l := range present.Languages {
		out = append(out, Choice{Name: names[l], Value: l})
	}
	return out
}

// SetCommandIDs records the ids Discord gave the slash commands when
// they were registered, by name ("ttr", "claim"…): texts then write each
// command as a mention, which every client shows in its own language and
// which starts the command when clicked. The ids belong to the
// application, so they hold for every table of the process.
func (s *Service) SetCommandIDs(ids map[string]string) { present.SetCommandIDs(ids) }
