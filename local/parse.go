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
		return nil, say("term.unknown", "command", "/"+fields[0])
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
			return nil, say("term.unknown", "command", "/"+fields[0]+" "+rest[0])
		}
		req.Sub, rest, opts = sub.Name, rest[1:], sub.Options
		if req.Sub == "rules" && len(rest) > 0 && !strings.Contains(rest[0], "=") {
			req.Options["topic"], rest = strings.Join(rest, " "), nil
		}
	}
	var free []string
	for _, f := range rest {
		if k, v, ok := strings.Cut(f, "="); ok && k != "" {
			name := strings.ToLower(k)
			if o, ok := n.option(opts, k); ok {
				name = o.Name
			}
			req.Options[name] = v
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

// parseCommand reads a line typed at an English terminal.
func parseCommand(line string) (*commands.Request, error) { return newCommandNames("en").parse(line) }
