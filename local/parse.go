package local

import (
	"fmt"
	"strings"

	"conductor/commands"
)

// positional names the option that a command's free words fill.
var positional = map[string]string{
	"draw": "card", "claim": "route", "station": "city", "passenger": "from", "tickets": "long",
}

// optionAliases lets people type short option names.
var optionAliases = map[string]string{"locos": "locomotives", "loco": "locomotives", "colour": "color"}

// parseCommand reads "/claim Paris Frankfurt color=red locos=1" into a
// request, as Discord would deliver it.
func parseCommand(line string) (*commands.Request, error) {
	fields := strings.Fields(strings.TrimPrefix(line, "/"))
	if len(fields) == 0 {
		return nil, fmt.Errorf("type a command after /, e.g. /draw deck")
	}
	req := &commands.Request{Type: commands.CommandRequest, Name: strings.ToLower(fields[0]), Options: map[string]string{}}
	rest := fields[1:]
	if req.Name == "ttr" {
		if len(rest) == 0 {
			return nil, fmt.Errorf("/ttr needs a subcommand: rules, undo, help, score…")
		}
		req.Sub, rest = strings.ToLower(rest[0]), rest[1:]
		if req.Sub == "rules" && len(rest) > 0 && !strings.Contains(rest[0], "=") {
			req.Options["topic"], rest = rest[0], rest[1:]
		}
	}
	var free []string
	for _, f := range rest {
		if k, v, ok := strings.Cut(f, "="); ok && k != "" {
			k = strings.ToLower(k)
			if a, ok := optionAliases[k]; ok {
				k = a
			}
			req.Options[k] = v
			continue
		}
		if f == "dm" {
			req.Options["dm"] = "true"
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
			return nil, fmt.Errorf("/%s takes no words like %q", req.Name, text)
		}
	}
	return req, nil
}
