package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forPelevin/gomoji"
)

// Limits Discord documents and enforces although its OpenAPI description allows more or does
// not say (docs/discord-limits.md lists each with its documentation page). The description's
// own limits (label 80, custom_id 100, 25 options, ...) are checked by the JSON Schema.
const (
	maxContent         = 2000     // a bot's message content; the description allows 4000
	maxActionRows      = 5        // top-level components without the components v2 flag
	maxEmbedTotal      = 6000     // characters of all embeds of a message
	maxFiles           = 10       // files of one message
	maxUploadBytes     = 10 << 20 // one file, in a server without boosts (attachment_size_limit)
	maxModalComponents = 5        // rows or labels of a modal
	maxChoiceValue     = 100      // a string choice's value (the description allows 6000)
	minDescription     = 1        // a chat input command's description
	maxCommandTotal    = 8000     // names, descriptions and values of a command, all together
	maxChannelName     = 100      // a channel's or thread's name
	chatInputCommand   = 1
)

// commandName is Discord's naming rule for chat input commands and options (names must also
// be lower case where a letter has a lower case form).
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// Operations whose JSON document is a message (create, edit, follow-up).
var messageOperations = map[string]bool{
	"create_message":                  true,
	"update_message":                  true,
	"execute_webhook":                 true,
	"update_original_webhook_message": true,
	"update_webhook_message":          true,
}

// checkDiscordRules checks what Discord refuses although its OpenAPI description allows it.
func checkDiscordRules(op *Operation, b *Body) []SchemaError {
	var errs []SchemaError
	if len(b.Files) > maxFiles {
		errs = append(errs, SchemaError{Code: "BASE_TYPE_MAX_LENGTH", Message: fmt.Sprintf("%d files uploaded; Discord takes at most %d", len(b.Files), maxFiles)})
	}
	for _, f := range b.Files {
		if !isFileField(f.Field) {
			errs = append(errs, SchemaError{Message: fmt.Sprintf("file field %q; Discord expects files[n]", f.Field)})
		}
	}
	switch doc := b.Value.(type) {
	case map[string]any:
		switch {
		case messageOperations[op.ID]:
			errs = append(errs, checkMessage(doc, "")...)
		case op.ID == "create_interaction_response":
			errs = append(errs, checkCallback(doc)...)
		case strings.HasSuffix(op.ID, "application_command"):
			errs = append(errs, checkCommand(doc, "", op.Method == http.MethodPatch)...)
		case op.ID == "update_channel":
			errs = append(errs, checkChannelUpdate(doc)...)
		}
	case []any:
		if strings.HasPrefix(op.ID, "bulk_set_") && strings.HasSuffix(op.ID, "application_commands") {
			for i, c := range doc {
				if cm, ok := c.(map[string]any); ok {
					errs = append(errs, checkCommand(cm, "/"+strconv.Itoa(i), false)...)
				}
			}
		}
	}
	return errs
}

// tooLarge is Discord's answer to a file over the upload limit: 413 with code 40005.
func tooLarge(files []File) *apiError {
	for i, f := range files {
		if len(f.Data) > maxUploadBytes {
			return &apiError{http.StatusRequestEntityTooLarge, 40005, "Request entity too large", []SchemaError{{
				Pointer: fmt.Sprintf("/files[%d]", i), Code: "FILE_TOO_LARGE",
				Message: fmt.Sprintf("%s has %d bytes; Discord takes at most %d per file", f.Filename, len(f.Data), maxUploadBytes)}}}
		}
	}
	return nil
}

func isFileField(name string) bool {
	inner, ok := strings.CutPrefix(name, "files[")
	if !ok || !strings.HasSuffix(inner, "]") {
		return false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(inner, "]"))
	return err == nil && n >= 0 && n < maxFiles
}

func intValue(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}

func runes(v any) int {
	s, _ := v.(string)
	return utf8.RuneCountInString(s)
}

func checkCallback(doc map[string]any) []SchemaError {
	data, _ := doc["data"].(map[string]any)
	if data == nil {
		return nil
	}
	switch typ, _ := intValue(doc["type"]); typ {
	case CallbackDeferredMessage:
		// "the only valid message flag you may use is EPHEMERAL. If you'd like to create a
		// component based message with IS_COMPONENTS_V2 you must do that with the edit
		// original response endpoint" (Interaction Response Object, Messages).
		if flags, _ := intValue(data["flags"]); flags&^FlagEphemeral != 0 {
			return []SchemaError{{Pointer: "/data/flags", Code: "INTERACTION_DEFERRED_FLAGS_INVALID",
				Message: fmt.Sprintf("A deferred message takes only the EPHEMERAL flag (got %d).", flags)}}
		}
		return checkMessage(data, "/data")
	case CallbackMessage, CallbackUpdateMessage:
		return checkMessage(data, "/data")
	case CallbackAutocompleteResult:
		return checkChoices(data["choices"], "/data/choices")
	case CallbackModal:
		var errs []SchemaError
		if rows, _ := data["components"].([]any); len(rows) > maxModalComponents {
			errs = append(errs, SchemaError{Pointer: "/data/components", Code: "BASE_TYPE_BAD_LENGTH", Message: fmt.Sprintf("Must be between 1 and %d in length (got %d).", maxModalComponents, len(rows))})
		}
		return append(errs, checkComponents(data["components"], "/data/components")...)
	}
	return nil
}

func checkMessage(doc map[string]any, at string) []SchemaError {
	var errs []SchemaError
	if n := runes(doc["content"]); n > maxContent {
		errs = append(errs, SchemaError{Pointer: at + "/content", Code: "BASE_TYPE_MAX_LENGTH", Message: fmt.Sprintf("Must be %d or fewer in length (got %d).", maxContent, n)})
	}
	flags, _ := intValue(doc["flags"])
	components, _ := doc["components"].([]any)
	if flags&FlagComponentsV2 == 0 {
		if len(components) > maxActionRows {
			errs = append(errs, SchemaError{Pointer: at + "/components", Code: "BASE_TYPE_BAD_LENGTH", Message: fmt.Sprintf("Must be between 1 and %d in length (got %d): without the components v2 flag a message has at most %d action rows.", maxActionRows, len(components), maxActionRows)})
		}
		for i, c := range components {
			cm, _ := c.(map[string]any)
			if t, _ := intValue(cm["type"]); t != ComponentActionRow {
				errs = append(errs, SchemaError{Pointer: fmt.Sprintf("%s/components/%d/type", at, i), Code: "UNION_TYPE_CHOICES", Message: fmt.Sprintf("top-level component of type %d needs the components v2 flag (1<<15); only action rows are allowed without it", t)})
			}
		}
	}
	if flags&FlagComponentsV2 != 0 {
		errs = append(errs, checkComponentsV2(doc, at)...)
	}
	errs = append(errs, checkComponents(doc["components"], at+"/components")...)
	if embeds, ok := doc["embeds"].([]any); ok {
		total := 0
		for _, e := range embeds {
			total += embedLength(e)
		}
		if total > maxEmbedTotal {
			errs = append(errs, SchemaError{Pointer: at + "/embeds", Code: "MAX_EMBED_SIZE_EXCEEDED", Message: fmt.Sprintf("Embed size exceeds maximum size of %d (got %d).", maxEmbedTotal, total)})
		}
	}
	return errs
}

// checkComponents checks the components of a message or modal: a select or text input alone
// in its row, link buttons, unique custom ids, and emoji that are Unicode emoji or custom ones.
func checkComponents(components any, at string) []SchemaError {
	var errs []SchemaError
	seen := map[string]string{}
	walkJSONComponents(components, at, func(m map[string]any, p string) {
		typ, _ := intValue(m["type"])
		if children, _ := m["components"].([]any); typ == ComponentActionRow && len(children) > 1 {
			for i, ch := range children {
				chm, _ := ch.(map[string]any)
				if ct, _ := intValue(chm["type"]); ct != ComponentButton {
					errs = append(errs, SchemaError{Pointer: fmt.Sprintf("%s/components/%d", p, i), Code: "COMPONENT_LAYOUT_WIDTH_EXCEEDED", Message: fmt.Sprintf("The specified component exceeds the maximum width: a component of type %d must be alone in its action row.", ct)})
				}
			}
		}
		if typ == ComponentButton {
			style, _ := intValue(m["style"])
			_, hasURL := m["url"].(string)
			_, hasCustomID := m["custom_id"].(string)
			switch {
			case style == 5 && (!hasURL || hasCustomID):
				errs = append(errs, SchemaError{Pointer: p, Code: "BUTTON_COMPONENT_URL_REQUIRED", Message: "a link button (style 5) needs a url and no custom_id"})
			case style >= 1 && style <= 4 && (!hasCustomID || hasURL):
				errs = append(errs, SchemaError{Pointer: p, Code: "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", Message: fmt.Sprintf("a button of style %d needs a custom_id and no url", style)})
			}
		}
		errs = append(errs, checkEmoji(m["emoji"], p+"/emoji")...)
		options, _ := m["options"].([]any)
		for i, o := range options {
			om, _ := o.(map[string]any)
			errs = append(errs, checkEmoji(om["emoji"], fmt.Sprintf("%s/options/%d/emoji", p, i))...)
		}
		if id, ok := m["custom_id"].(string); ok {
			if first, dup := seen[id]; dup {
				errs = append(errs, SchemaError{Pointer: p + "/custom_id", Code: "COMPONENT_CUSTOM_ID_DUPLICATED", Message: fmt.Sprintf("Component custom id cannot be duplicated: %q is already used at %s.", id, first)})
			} else {
				seen[id] = p
			}
		}
	})
	return errs
}

// checkEmoji refuses a Unicode emoji that is not one: without an id (a custom emoji), the
// name must be an emoji of Unicode's list, sequences included.
func checkEmoji(v any, at string) []SchemaError {
	e, _ := v.(map[string]any)
	if e == nil || e["id"] != nil {
		return nil
	}
	name, _ := e["name"].(string)
	if _, err := gomoji.GetInfo(name); err == nil {
		return nil
	}
	return []SchemaError{{Pointer: at + "/name", Code: "BUTTON_COMPONENT_INVALID_EMOJI", Message: fmt.Sprintf("Invalid emoji: %q (%U) is not a Unicode emoji.", name, []rune(name))}}
}

// walkJSONComponents visits every component object in decoded JSON, with its pointer.
func walkJSONComponents(v any, at string, visit func(map[string]any, string)) {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			walkJSONComponents(e, at+"/"+strconv.Itoa(i), visit)
		}
	case map[string]any:
		if _, ok := x["type"]; ok {
			visit(x, at)
		}
		for _, key := range []string{"components", "component", "accessory"} {
			if child, ok := x[key]; ok {
				walkJSONComponents(child, at+"/"+key, visit)
			}
		}
	}
}

// embedLength counts the characters Discord limits to 6000 per message.
func embedLength(e any) int {
	m, _ := e.(map[string]any)
	n := runes(m["title"]) + runes(m["description"])
	if f, ok := m["footer"].(map[string]any); ok {
		n += runes(f["text"])
	}
	if a, ok := m["author"].(map[string]any); ok {
		n += runes(a["name"])
	}
	fields, _ := m["fields"].([]any)
	for _, f := range fields {
		fm, _ := f.(map[string]any)
		n += runes(fm["name"]) + runes(fm["value"])
	}
	return n
}

// checkChoices checks fixed choices or autocomplete suggestions: string values at most 100
// characters (the description allows 6000).
func checkChoices(v any, at string) []SchemaError {
	var errs []SchemaError
	choices, _ := v.([]any)
	for i, c := range choices {
		cm, _ := c.(map[string]any)
		if s, ok := cm["value"].(string); ok && utf8.RuneCountInString(s) > maxChoiceValue {
			errs = append(errs, SchemaError{Pointer: fmt.Sprintf("%s/%d/value", at, i), Code: "BASE_TYPE_MAX_LENGTH", Message: fmt.Sprintf("Must be %d or fewer in length (got %d).", maxChoiceValue, utf8.RuneCountInString(s))})
		}
	}
	return errs
}

// checkCommand checks a chat input command: names (and their translations) by Discord's
// naming rule, a description of 1-100 characters, required options first, unique option
// names, choice values, and 4000 characters in all. A partial update need not repeat the
// description.
func checkCommand(cmd map[string]any, at string, partial bool) []SchemaError {
	if typ, ok := intValue(cmd["type"]); ok && typ != chatInputCommand {
		return nil // user and message commands may use any case and spaces
	}
	errs := checkNames(cmd, at)
	if _, given := cmd["description"]; (given || !partial) && runes(cmd["description"]) < minDescription {
		errs = append(errs, SchemaError{Pointer: at + "/description", Code: "BASE_TYPE_BAD_LENGTH", Message: "Must be between 1 and 100 in length (got 0): a chat input command needs a description."})
	}
	errs = append(errs, checkOptions(cmd["options"], at+"/options")...)
	if n := commandSize(cmd); n > maxCommandTotal {
		errs = append(errs, SchemaError{Pointer: at, Code: "APPLICATION_COMMAND_TOO_LARGE", Message: fmt.Sprintf("Command exceeds maximum size (%d): names, descriptions and values hold %d characters.", maxCommandTotal, n)})
	}
	return errs
}

// checkNames checks a command's or option's name and its translations.
func checkNames(m map[string]any, at string) []SchemaError {
	var errs []SchemaError
	bad := func(name any) bool {
		s, _ := name.(string)
		return !commandName.MatchString(s) || strings.ToLower(s) != s
	}
	if name, given := m["name"]; given && bad(name) { // a missing name is the schema's to report
		errs = append(errs, SchemaError{Pointer: at + "/name", Code: "APPLICATION_COMMAND_INVALID_NAME", Message: fmt.Sprintf("Command name is invalid: %q must be 1-32 lower case letters, digits, - _ or '.", m["name"])})
	}
	locs, _ := m["name_localizations"].(map[string]any)
	for _, loc := range sortedKeys(locs) {
		if bad(locs[loc]) {
			errs = append(errs, SchemaError{Pointer: pointerJoin(at, "name_localizations", loc), Code: "APPLICATION_COMMAND_INVALID_NAME", Message: fmt.Sprintf("Command name is invalid: %q (%s) must be 1-32 lower case letters, digits, - _ or '.", locs[loc], loc)})
		}
	}
	return errs
}

func checkOptions(v any, at string) []SchemaError {
	var errs []SchemaError
	options, _ := v.([]any)
	seen := map[string]bool{}
	optional := false
	for i, o := range options {
		om, _ := o.(map[string]any)
		p := at + "/" + strconv.Itoa(i)
		errs = append(errs, checkNames(om, p)...)
		name, _ := om["name"].(string)
		if seen[name] {
			errs = append(errs, SchemaError{Pointer: p + "/name", Code: "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS", Message: fmt.Sprintf("Option name %q is already used.", name)})
		}
		seen[name] = true
		required, _ := om["required"].(bool)
		if required && optional {
			errs = append(errs, SchemaError{Pointer: p + "/required", Code: "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", Message: "Required options must be placed before non-required options."})
		}
		optional = optional || !required
		errs = append(errs, checkChoices(om["choices"], p+"/choices")...)
		errs = append(errs, checkOptions(om["options"], p+"/options")...)
	}
	return errs
}

// commandSize counts the characters Discord limits to 8000 per command: names, descriptions
// and choice values, of the command and every option and choice. "When localization fields
// are present, only the longest localization for each field (including the default value)
// is counted" (Application Commands → Application Command Structure).
func commandSize(m map[string]any) int {
	longest := func(field string) int {
		n := runes(m[field])
		locs, _ := m[field+"_localizations"].(map[string]any)
		for _, l := range locs {
			n = max(n, runes(l))
		}
		return n
	}
	n := longest("name") + longest("description")
	if s, ok := m["value"].(string); ok {
		n += utf8.RuneCountInString(s)
	}
	for _, key := range []string{"options", "choices"} {
		list, _ := m[key].([]any)
		for _, x := range list {
			xm, _ := x.(map[string]any)
			n += commandSize(xm)
		}
	}
	return n
}

// autoArchiveDurations are the minutes a thread's auto_archive_duration may be.
var autoArchiveDurations = map[int]bool{60: true, 1440: true, 4320: true, 10080: true}

// checkChannelUpdate checks a Modify Channel body where Discord's description is a union
// loose enough to let anything through: a name of 1-100 characters (the thread alternative
// allows ""), and a thread's auto_archive_duration among 60, 1440, 4320 and 10080 (the guild
// channel alternative does not know the field, so it takes any value).
func checkChannelUpdate(doc map[string]any) []SchemaError {
	var errs []SchemaError
	if name, ok := doc["name"].(string); ok {
		if n := utf8.RuneCountInString(name); n < 1 || n > maxChannelName {
			errs = append(errs, SchemaError{Pointer: "/name", Code: "BASE_TYPE_BAD_LENGTH", Message: fmt.Sprintf("Must be between 1 and %d in length (got %d).", maxChannelName, n)})
		}
	}
	if v, ok := doc["auto_archive_duration"]; ok && v != nil {
		if d, ok := intValue(v); !ok || !autoArchiveDurations[d] {
			errs = append(errs, SchemaError{Pointer: "/auto_archive_duration", Code: "ENUM_TYPE_COERCE", Message: fmt.Sprintf("Value %s is not a valid enum value: a thread archives after 60, 1440, 4320 or 10080 minutes.", brief(v))})
		}
	}
	return errs
}
