package local

import (
	"strings"

	"conductor/commands"
	"conductor/data"
	"conductor/present"
)

// positional names the option that a command's free words fill.
var positional = map[string]string{
	"draw": "card", "claim": "route", "station": "city", "passenger": "from", "tickets": "long",
}

// optionAliases lets people type short option names.
var optionAliases = map[string]string{"locos": "locomotives", "loco": "locomotives", "colour": "color"}

// commandNames resolves what is typed at the terminal, in its language or
// in English, to the canonical names of the slash commands: the same
// localised names Discord shows ("/rail règles", "/prendre … couleur=rouge").
type commandNames struct {
	lang string
	defs []commands.CommandDef
}

func newCommandNames(locale string) *commandNames {
	return &commandNames{lang: present.Lang(locale), defs: commands.Definitions(nil)}
}

// same compares a typed name with a command's name, ignoring case and
// accents ("regles" is "règles").
func same(typed, name string) bool { return name != "" && data.Fold(typed) == data.Fold(name) }

// command is the canonical name of a top-level command typed as word.
func (n *commandNames) command(word string) (commands.CommandDef, bool) {
	for _, d := range n.defs {
		if same(word, d.Name) || same(word, d.Names[n.lang]) {
			return d, true
		}
	}
	return commands.CommandDef{}, false
}

// option finds an option (or a subcommand) of opts typed as word.
func (n *commandNames) option(opts []commands.OptionDef, word string) (commands.OptionDef, bool) {
	if a, ok := optionAliases[strings.ToLower(word)]; ok {
		word = a
	}
	for _, o := range opts {
		if same(word, o.Name) || same(word, o.Names[n.lang]) {
			return o, true
		}
	}
	return commands.OptionDef{}, false
}

// parseError is a command the terminal cannot read: what to type instead,
// in the terminal's language.
type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

// parse reads "/claim Paris Frankfurt color=red locos=1" (or, in French,
// "/prendre Paris Francfort couleur=rouge") into a request, as Discord
// would deliver it.
func (n *commandNames) parse(line string) (*commands.Request, error) {
	say := func(key string, kv ...any) error { return &parseError{present.T(n.lang, key, kv...)} }
	fields := strings.Fields(strings.TrimPrefix(line, "/"))
	if len(fields) == 0 {
		return nil, say("term.type_command", "deck", present.T(n.lang, "word.deck"))
	}
	def, ok := n.command(fields[0])
	if !ok {
		return nil, say("term.unknown", "command", "/"+fields[0], "did_you_mean", n.didYouMean(n.closestCommand(fields[0])))
	}
	req := &commands.Request{Type: commands.CommandRequest, Name: def.Name, Options: map[string]string{}}
	rest := fields[1:]
	opts := def.Options
	if def.Name == "ttr" {
		if len(rest) == 0 {
			return nil, say("term.need_sub")
		}
		sub, ok := n.option(def.Options, rest[0])
		if !ok || sub.Type != commands.SubCommand {
			suggestion := ""
			if s := n.closestOption(def.Options, rest[0]); s != "" {
				suggestion = "/" + fields[0] + " " + s
			}
			return nil, say("term.unknown", "command", "/"+fields[0]+" "+rest[0], "did_you_mean", n.didYouMean(suggestion))
		}
		req.Sub, rest, opts = sub.Name, rest[1:], sub.Options
		if req.Sub == "rules" && len(rest) > 0 && !strings.Contains(rest[0], "=") {
			req.Options["topic"], rest = strings.Join(rest, " "), nil
		}
	}
	var free []string
	for _, f := range rest {
		if k, v, ok := strings.Cut(f, "="); ok && k != "" {
			o, ok := n.option(opts, k)
			if !ok {
				// An option the command does not have would be dropped
				// without a word: "colr=red" would claim with another colour.
				var names []string
				for _, o := range opts {
					names = append(names, n.optionName(o))
				}
				return nil, say("term.bad_option", "command", "/"+strings.Join(fields[:len(fields)-len(rest)], " "), "option", k,
					"did_you_mean", n.didYouMean(n.closestOption(opts, k)), "options", strings.Join(names, ", "))
			}
			req.Options[o.Name] = v
			continue
		}
		// A true-or-false option is turned on by its name: "/hand dm".
		if o, ok := n.option(opts, f); ok && o.Type == commands.BooleanOption {
			req.Options[o.Name] = "true"
			continue
		}
		free = append(free, f)
	}
	if len(free) > 0 {
		text := strings.Join(free, " ")
		if req.Name == "passenger" && strings.Contains(text, ">") {
			from, _, _ := strings.Cut(text, ">")
			req.Options["from"] = strings.TrimSpace(from)
			req.Options["path"] = text
		} else if opt, ok := positional[req.Name]; ok {
			req.Options[opt] = text
		} else {
			return nil, say("term.no_words", "command", "/"+fields[0], "text", text)
		}
	}
	return req, nil
}

// optionName is an option's (or a subcommand's) name as the language types it.
func (n *commandNames) optionName(o commands.OptionDef) string {
	if l := o.Names[n.lang]; l != "" {
		return l
	}
	return o.Name
}

// closestCommand is the command closest to a word typed wrong, as the
// language names it ("" when none is close).
func (n *commandNames) closestCommand(word string) string {
	var names []string
	say := map[string]string{}
	for _, d := range n.defs {
		local := d.Name
		if l := d.Names[n.lang]; l != "" {
			local = l
		}
		names = append(names, d.Name, local)
		say[d.Name], say[local] = "/"+local, "/"+local
	}
	return say[data.Nearest(word, names)]
}

// closestOption is the option (or subcommand) of opts closest to a word
// typed wrong, as the language names it.
func (n *commandNames) closestOption(opts []commands.OptionDef, word string) string {
	var names []string
	say := map[string]string{}
	for _, o := range opts {
		local := n.optionName(o)
		names = append(names, o.Name, local)
		say[o.Name], say[local] = local, local
	}
	return say[data.Nearest(word, names)]
}

// didYouMean is " Did you mean …?" in the language, "" for no suggestion.
func (n *commandNames) didYouMean(name string) string { return didYouMean(n.lang, name) }

// didYouMean is " Did you mean name?" in the language of loc, "" for no
// name.
func didYouMean(loc, name string) string {
	if name == "" {
		return ""
	}
	return " " + present.T(loc, "term.did_you_mean", "name", name)
}

// parseCommand reads a line typed at an English terminal.
func parseCommand(line string) (*commands.Request, error) { return newCommandNames("en").parse(line) }
