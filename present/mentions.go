package present

import (
	"regexp"
	"strings"
	"sync/atomic"
)

// Commands in messages. A catalogue writes a command the way Discord
// writes a command mention, without its id: "</ttr join>", "</claim>".
// Where Discord registered the commands and told their ids
// (SetCommandIDs), a message shows "</ttr join:123…>": every client then
// shows the command in its own language, clickable. Elsewhere (the
// terminal, or before the registration) it shows the command as it is
// typed in the message's language: "/rail rejoindre".

// commandIDs maps a top-level command's name to its id. Ids belong to the
// application, one per process: the Discord transport sets them once the
// commands are registered.
var commandIDs atomic.Pointer[map[string]string]

// SetCommandIDs records the ids Discord gave the slash commands, by name
// ("ttr", "claim"…); nil forgets them.
func SetCommandIDs(ids map[string]string) {
	if ids == nil {
		commandIDs.Store(nil)
		return
	}
	cp := make(map[string]string, len(ids))
	for k, v := range ids {
		cp[k] = v
	}
	commandIDs.Store(&cp)
}

// commandToken is a command as catalogues write it: "</name>" or
// "</name sub>", lowercase canonical (English) names.
var commandToken = regexp.MustCompile(`</([a-z_-]+)(?: ([a-z_-]+))?>`)

// renderCommands turns the command tokens of s into mentions, or into the
// commands as typed in the language of loc.
func renderCommands(loc, s string) string {
	if !strings.Contains(s, "</") {
		return s
	}
	ids := commandIDs.Load()
	return commandToken.ReplaceAllStringFunc(s, func(tok string) string {
		m := commandToken.FindStringSubmatch(tok)
		name, sub := m[1], m[2]
		if ids != nil {
			if id := (*ids)[name]; id != "" {
				return "</" + strings.TrimSpace(name+" "+sub) + ":" + id + ">"
			}
		}
		return CommandText(loc, name, sub)
	})
}

// CommandText is a command as it is typed in the language of loc: "/rail
// rejoindre" for /ttr join in French; sub may be empty.
func CommandText(loc, name, sub string) string {
	out := "/" + CommandWord(loc, "cmd."+name, name)
	if sub != "" {
		out += " " + CommandWord(loc, "opt."+name+"."+sub, sub)
	}
	return out
}

// CommandWord is a command's, a subcommand's or an option's name in the
// language of loc: the catalogue's key+".name", else the canonical
// (English) name.
func CommandWord(loc, key, canonical string) string {
	if w, ok := Lookup(loc, key+".name"); ok && w != "" {
		return w
	}
	return canonical
}
