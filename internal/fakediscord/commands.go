package fakediscord

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Application command option types (Discord's numbering).
const (
	OptionSubcommand      = 1
	OptionSubcommandGroup = 2
	OptionString          = 3
	OptionInteger         = 4
	OptionBoolean         = 5
	OptionUser            = 6
	OptionChannel         = 7
	OptionRole            = 8
	OptionMentionable     = 9
	OptionNumber          = 10
	OptionAttachment      = 11
)

// Command is an application command the bot registered.
type Command struct {
	ID          string
	GuildID     string // empty for a global command
	Version     string
	Type        int // 1 chat input, 2 user, 3 message, 4 primary entry point
	Name        string
	Description string
	Options     []CommandOptionSpec
	Raw         json.RawMessage // as the bot sent it
	// Handler is an Entry Point's: 1 the app answers, 2 Discord launches
	// the Activity itself.
	Handler int
}

// CommandOptionSpec is an option of a registered command.
type CommandOptionSpec struct {
	Type         int                 `json:"type"`
	Name         string              `json:"name"`
	Description  string              `json:"description"`
	Required     bool                `json:"required"`
	Autocomplete bool                `json:"autocomplete"`
	Choices      []OptionChoice      `json:"choices"`
	Options      []CommandOptionSpec `json:"options"`
	MinValue     *float64            `json:"min_value"`
	MaxValue     *float64            `json:"max_value"`
	MinLength    *int                `json:"min_length"`
	MaxLength    *int                `json:"max_length"`
}

// OptionChoice is a fixed choice of an option, or an autocomplete suggestion.
type OptionChoice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

func init() {
	route("GET /applications/{application_id}/commands", handleListCommands)
	route("PUT /applications/{application_id}/commands", handleBulkOverwriteCommands)
	route("GET /applications/{application_id}/guilds/{guild_id}/commands", handleListCommands)
	route("PUT /applications/{application_id}/guilds/{guild_id}/commands", handleBulkOverwriteCommands)
}

// Commands lists the registered commands of a guild, or the global ones for guildID "".
func (s *Server) Commands(guildID string) []Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Command(nil), s.commands[guildID]...)
}

// commandScopeLocked checks the application and guild of a commands route; it answers the
// call and returns false when they are wrong.
func (s *Server) commandScopeLocked(c *call) (string, bool) {
	if c.params["application_id"] != s.bot.ID {
		c.fail(http.StatusForbidden, 50001, "Missing Access")
		return "", false
	}
	gid := c.params["guild_id"]
	if gid != "" {
		if _, ok := s.guilds[gid]; !ok {
			c.fail(http.StatusForbidden, 50001, "Missing Access")
			return "", false
		}
	}
	return gid, true
}

func (s *Server) commandJSON(cmd Command) map[string]any {
	out := map[string]any{}
	json.Unmarshal(cmd.Raw, &out)
	out["id"] = cmd.ID
	out["application_id"] = s.bot.ID
	out["version"] = cmd.Version
	out["type"] = cmd.Type
	// An Entry Point's handler is the one stored ("handler ... can only be
	// set for application commands of type PRIMARY_ENTRY_POINT").
	delete(out, "handler")
	if cmd.Type == CommandTypeEntryPoint && cmd.Handler != 0 {
		out["handler"] = cmd.Handler
	}
	if cmd.GuildID != "" {
		out["guild_id"] = cmd.GuildID
	} else {
		delete(out, "guild_id")
	}
	return out
}

// newCommandLocked builds a stored command from the bot's JSON, keeping the id of a command
// with the same name and type, as Discord does on overwrite.
func (s *Server) newCommandLocked(guildID string, raw json.RawMessage, previous []Command) (Command, error) {
	var body struct {
		Type        int                 `json:"type"`
		Handler     int                 `json:"handler"`
		Name        string              `json:"name"`
		Description string              `json:"description"`
		Options     []CommandOptionSpec `json:"options"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return Command{}, err
	}
	if body.Type == 0 {
		body.Type = 1
	}
	cmd := Command{GuildID: guildID, Version: s.ids.next(), Type: body.Type, Handler: body.Handler, Name: body.Name,
		Description: body.Description, Options: body.Options, Raw: append(json.RawMessage(nil), raw...)}
	for _, p := range previous {
		if p.Name == cmd.Name && p.Type == cmd.Type {
			cmd.ID = p.ID
		}
	}
	if cmd.ID == "" {
		cmd.ID = s.ids.next()
	}
	return cmd, nil
}

func handleListCommands(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gid, ok := s.commandScopeLocked(c)
	if !ok {
		return
	}
	out := []any{}
	for _, cmd := range s.commands[gid] {
		out = append(out, s.commandJSON(cmd))
	}
	c.json(http.StatusOK, out)
}

func handleBulkOverwriteCommands(s *Server, c *call) {
	var list []json.RawMessage
	if err := json.Unmarshal(c.body.JSON, &list); err != nil {
		c.fail(http.StatusBadRequest, 50035, "Invalid Form Body")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	gid, ok := s.commandScopeLocked(c)
	if !ok {
		return
	}
	if gid == "" && dropsEntryPoint(s.commands[""], list) {
		c.fail(http.StatusBadRequest, errCodeEntryPointDropped, "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry Point command in your update request or delete it separately.")
		return
	}
	var cmds []Command
	out := []any{}
	seen := map[string]bool{}
	for i, raw := range list {
		cmd, err := s.newCommandLocked(gid, raw, s.commands[gid])
		if err != nil {
			c.fail(http.StatusBadRequest, 50035, "Invalid Form Body")
			return
		}
		key := strconv.Itoa(cmd.Type) + "/" + cmd.Name
		if seen[key] {
			c.invalid = append(c.invalid, SchemaError{Pointer: fmt.Sprintf("/%d/name", i), Message: "Application command names must be unique"})
			c.fail(http.StatusBadRequest, 50035, "Invalid Form Body")
			return
		}
		seen[key] = true
		cmds = append(cmds, cmd)
		out = append(out, s.commandJSON(cmd))
	}
	s.commands[gid] = cmds
	s.changedLocked()
	c.json(http.StatusOK, out)
}

// Interaction context types (Receiving and Responding → Interaction Context Types).
const (
	ContextGuild          = 0
	ContextBotDM          = 1
	ContextPrivateChannel = 2
)

// interactionContext is the context of an interaction in ch: a server, or the DM with the bot.
func interactionContext(ch *Channel) int {
	if ch.GuildID == "" {
		return ContextBotDM
	}
	return ContextGuild
}

// contexts are the interaction contexts a global command may be used in: its "contexts",
// else (the deprecated "dm_permission": false) servers only, else all of them. Guild
// commands have no contexts of their own: they live in their guild.
func (c Command) contexts() []int {
	var raw struct {
		Contexts     *[]int `json:"contexts"`
		DMPermission *bool  `json:"dm_permission"`
	}
	json.Unmarshal(c.Raw, &raw)
	switch {
	case raw.Contexts != nil:
		return *raw.Contexts
	case raw.DMPermission != nil && !*raw.DMPermission:
		return []int{ContextGuild, ContextPrivateChannel}
	}
	return []int{ContextGuild, ContextBotDM, ContextPrivateChannel}
}

// usableIn: a Discord client offers the command in ch ("contexts [...] where the command
// can be used, only for globally-scoped commands", Application Commands).
func (c Command) usableIn(ch *Channel) bool {
	return c.GuildID != "" || slices.Contains(c.contexts(), interactionContext(ch))
}

// findCommandLocked resolves a chat-input command name as a Discord client would: the
// guild's commands first, then the global ones.
func (s *Server) findCommandLocked(guildID, name string) (Command, bool) {
	scopes := []string{""}
	if guildID != "" {
		scopes = []string{guildID, ""}
	}
	for _, scope := range scopes {
		for _, cmd := range s.commands[scope] {
			if cmd.Name == name && cmd.Type == 1 {
				return cmd, true
			}
		}
	}
	return Command{}, false
}

// checkInvocation refuses option values a Discord client would not let a user send: unknown
// names, wrong types, missing required options, values outside choices or bounds, and focus
// on an option without autocomplete.
func checkInvocation(specs []CommandOptionSpec, given []CommandOption, autocomplete bool, at string) (focused int, err error) {
	bySpec := map[string]CommandOptionSpec{}
	hasSub := false
	for _, sp := range specs {
		bySpec[sp.Name] = sp
		if sp.Type == OptionSubcommand || sp.Type == OptionSubcommandGroup {
			hasSub = true
		}
	}
	if hasSub && len(given) != 1 {
		return 0, fmt.Errorf("%s: exactly one subcommand must be given, got %d options", at, len(given))
	}
	seen := map[string]bool{}
	for _, o := range given {
		sp, ok := bySpec[o.Name]
		if !ok {
			return 0, fmt.Errorf("%s: no option %q is registered", at, o.Name)
		}
		if sp.Type != o.Type {
			return 0, fmt.Errorf("%s %s: registered with type %d, given type %d", at, o.Name, sp.Type, o.Type)
		}
		if seen[o.Name] {
			return 0, fmt.Errorf("%s: option %q given twice", at, o.Name)
		}
		seen[o.Name] = true
		if o.Type == OptionSubcommand || o.Type == OptionSubcommandGroup {
			n, err := checkInvocation(sp.Options, o.Options, autocomplete, at+" "+o.Name)
			if err != nil {
				return 0, err
			}
			focused += n
			continue
		}
		if o.Focused {
			if !autocomplete || !sp.Autocomplete {
				return 0, fmt.Errorf("%s %s: only an autocomplete option can be focused, in an autocomplete interaction", at, o.Name)
			}
			focused++
			continue // a value being typed need not be complete or valid
		}
		if err := checkOptionValue(sp, o.Value); err != nil {
			return 0, fmt.Errorf("%s %s: %w", at, o.Name, err)
		}
	}
	if !autocomplete {
		for _, sp := range specs {
			if sp.Required && !seen[sp.Name] {
				return 0, fmt.Errorf("%s: required option %q is missing", at, sp.Name)
			}
		}
	}
	return focused, nil
}

func checkOptionValue(sp CommandOptionSpec, v any) error {
	switch sp.Type {
	case OptionString:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("value %v is not a string", v)
		}
		n := utf8.RuneCountInString(s)
		if sp.MinLength != nil && n < *sp.MinLength || sp.MaxLength != nil && *sp.MaxLength > 0 && n > *sp.MaxLength {
			return fmt.Errorf("length %d outside the registered bounds", n)
		}
	case OptionInteger, OptionNumber:
		f, ok := toFloat(v)
		if !ok || (sp.Type == OptionInteger && f != math.Trunc(f)) {
			return fmt.Errorf("value %v is not a valid option of type %d", v, sp.Type)
		}
		if sp.MinValue != nil && f < *sp.MinValue || sp.MaxValue != nil && *sp.MaxValue != 0 && f > *sp.MaxValue {
			return fmt.Errorf("value %v outside the registered bounds", v)
		}
	case OptionBoolean:
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("value %v is not a boolean", v)
		}
	case OptionUser, OptionChannel, OptionRole, OptionMentionable, OptionAttachment:
		s, ok := v.(string)
		if _, err := strconv.ParseUint(s, 10, 64); !ok || err != nil {
			return fmt.Errorf("value %v is not a snowflake", v)
		}
	}
	if len(sp.Choices) > 0 {
		for _, ch := range sp.Choices {
			if a, ok := toFloat(ch.Value); ok {
				if b, ok := toFloat(v); ok && a == b {
					return nil
				}
			} else if ch.Value == v {
				return nil
			}
		}
		return fmt.Errorf("value %v is not one of the registered choices", v)
	}
	return nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}
