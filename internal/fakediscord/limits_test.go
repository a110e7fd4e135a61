package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// limitCase is one documented limit: a body at the limit that Discord takes, and one past it
// that Discord refuses with code at pointer (see docs/discord-limits.md).
type limitCase struct {
	name, method, path string
	good, bad          string
	pointer, code      string
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func repeat(n int, f func(i int) any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func btn(id string, extra ...any) map[string]any {
	b := map[string]any{"type": 2, "style": 1, "label": "Go", "custom_id": id}
	for i := 0; i+1 < len(extra); i += 2 {
		b[extra[i].(string)] = extra[i+1]
	}
	return b
}

func actionRow(cs ...any) map[string]any { return map[string]any{"type": 1, "components": cs} }

func components(rows ...any) string { return jsonOf(map[string]any{"components": rows}) }

func text(content string) map[string]any { return map[string]any{"type": 10, "content": content} }

func container(cs ...any) map[string]any { return map[string]any{"type": 17, "components": cs} }

func gallery(items ...any) map[string]any {
	if items == nil {
		items = []any{}
	}
	return map[string]any{"type": 12, "items": items}
}

func item(url, alt string) map[string]any {
	it := map[string]any{"media": map[string]any{"url": url}}
	if alt != "" {
		it["description"] = alt
	}
	return it
}

// v2 is a components v2 message body.
func v2(cs ...any) string { return v2With(nil, cs...) }

func v2With(extra map[string]any, cs ...any) string {
	body := map[string]any{"flags": FlagComponentsV2, "components": cs}
	for k, v := range extra {
		body[k] = v
	}
	return jsonOf(body)
}

func selectOf(options []any) map[string]any {
	return map[string]any{"type": 3, "custom_id": "pick", "options": options}
}

func option(label, value, description string) map[string]any {
	o := map[string]any{"label": label, "value": value}
	if description != "" {
		o["description"] = description
	}
	return o
}

func embeds(es ...any) string { return jsonOf(map[string]any{"embeds": es}) }

func choices(n int, name, value string) string {
	return jsonOf(map[string]any{"type": 8, "data": map[string]any{"choices": repeat(n, func(i int) any {
		return map[string]any{"name": name, "value": value}
	})}})
}

// command is a chat input command; set overrides or adds fields.
func command(set map[string]any) string {
	c := map[string]any{"name": "ttr", "description": "Play Ticket to Ride"}
	for k, v := range set {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return jsonOf([]any{c})
}

func strOption(name string, set map[string]any) map[string]any {
	o := map[string]any{"type": 3, "name": name, "description": "An option"}
	for k, v := range set {
		o[k] = v
	}
	return o
}

func x(n int) string { return strings.Repeat("x", n) }

const commandsPath = "/applications/1/guilds/2/commands"

var limitCases = []limitCase{
	// Emoji: a Unicode emoji must be a real one (U+1F0A0 PLAYING CARD BACK is not).
	{"button emoji is a Unicode emoji", "POST", "/channels/1/messages",
		components(actionRow(btn("a", "emoji", map[string]any{"name": "🃏"}), btn("b", "emoji", map[string]any{"name": "👨‍👩‍👧"}),
			btn("c", "emoji", map[string]any{"name": "🏳️‍🌈"}), btn("d", "emoji", map[string]any{"name": "1️⃣"}), btn("e", "emoji", map[string]any{"name": "👍🏽"}))),
		components(actionRow(btn("a", "emoji", map[string]any{"name": "🂠"}))),
		"/components/0/components/0/emoji/name", "BUTTON_COMPONENT_INVALID_EMOJI"},
	{"button emoji is not text", "POST", "/channels/1/messages",
		components(actionRow(btn("a", "emoji", map[string]any{"name": "🚂"}))),
		components(actionRow(btn("a", "emoji", map[string]any{"name": "deck"}))),
		"/components/0/components/0/emoji/name", "BUTTON_COMPONENT_INVALID_EMOJI"},
	{"select option emoji is a Unicode emoji", "POST", "/channels/1/messages",
		components(actionRow(selectOf([]any{map[string]any{"label": "Red", "value": "red", "emoji": map[string]any{"name": "🟥"}}}))),
		components(actionRow(selectOf([]any{map[string]any{"label": "Red", "value": "red", "emoji": map[string]any{"name": "🂠"}}}))),
		"/components/0/components/0/options/0/emoji/name", "BUTTON_COMPONENT_INVALID_EMOJI"},
	// Components.
	{"at most 5 action rows", "POST", "/channels/1/messages",
		components(repeat(5, func(i int) any { return actionRow(btn(fmt.Sprint(i))) })...),
		components(repeat(6, func(i int) any { return actionRow(btn(fmt.Sprint(i))) })...),
		"/components", "BASE_TYPE_BAD_LENGTH"},
	{"at most 5 buttons a row", "POST", "/channels/1/messages",
		components(actionRow(repeat(5, func(i int) any { return btn(fmt.Sprint(i)) })...)),
		components(actionRow(repeat(6, func(i int) any { return btn(fmt.Sprint(i)) })...)),
		"/components/0/components", "BASE_TYPE_MAX_LENGTH"},
	{"button label at most 80", "POST", "/channels/1/messages",
		components(actionRow(btn("a", "label", x(80)))), components(actionRow(btn("a", "label", x(81)))),
		"/components/0/components/0/label", "BASE_TYPE_MAX_LENGTH"},
	{"custom_id at most 100", "POST", "/channels/1/messages",
		components(actionRow(btn(x(100)))), components(actionRow(btn(x(101)))),
		"/components/0/components/0/custom_id", "BASE_TYPE_MAX_LENGTH"},
	{"custom ids unique in a message", "POST", "/channels/1/messages",
		components(actionRow(btn("go")), actionRow(btn("stop"))), components(actionRow(btn("go")), actionRow(btn("go"))),
		"/components/1/components/0/custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED"},
	{"a select is alone in its row", "POST", "/channels/1/messages",
		components(actionRow(selectOf([]any{option("a", "a", "")}))), components(actionRow(btn("go"), selectOf([]any{option("a", "a", "")}))),
		"/components/0/components/1", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"},
	{"a link button has a url and no custom_id", "POST", "/channels/1/messages",
		components(actionRow(map[string]any{"type": 2, "style": 5, "label": "Rules", "url": "https://example.org"})),
		components(actionRow(map[string]any{"type": 2, "style": 5, "label": "Rules", "url": "https://example.org", "custom_id": "r"})),
		"/components/0/components/0", "BUTTON_COMPONENT_URL_REQUIRED"},
	{"layout components need the components v2 flag", "POST", "/channels/1/messages",
		jsonOf(map[string]any{"flags": FlagComponentsV2, "components": []any{map[string]any{"type": 10, "content": "hi"}}}),
		components(map[string]any{"type": 10, "content": "hi"}),
		"/components/0/type", "UNION_TYPE_CHOICES"},
	// Components V2 (flag 1<<15).
	{"components v2: no content beside the flag", "POST", "/channels/1/messages",
		v2(text("hi")), v2With(map[string]any{"content": "hi"}, text("hi")),
		"/content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
	{"components v2: no embeds beside the flag", "POST", "/channels/1/messages",
		v2With(map[string]any{"embeds": []any{}}, text("hi")), v2With(map[string]any{"embeds": []any{map[string]any{"title": "t"}}}, text("hi")),
		"/embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
	{"components v2: no poll beside the flag", "POST", "/channels/1/messages",
		v2(text("hi")), v2With(map[string]any{"poll": map[string]any{"question": map[string]any{"text": "q"}, "answers": []any{map[string]any{"poll_media": map[string]any{"text": "a"}}}}}, text("hi")),
		"/poll", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
	{"components v2: no stickers beside the flag", "POST", "/channels/1/messages",
		v2(text("hi")), v2With(map[string]any{"sticker_ids": []any{"1"}}, text("hi")),
		"/sticker_ids", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
	{"components v2: no content in an interaction reply with the flag", "POST", callbackPath,
		jsonOf(map[string]any{"type": 4, "data": map[string]any{"flags": FlagComponentsV2, "components": []any{text("hi")}}}),
		jsonOf(map[string]any{"type": 4, "data": map[string]any{"flags": FlagComponentsV2, "content": "hi", "components": []any{text("hi")}}}),
		"/data/content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"},
	{"components v2: a container needs the flag", "POST", "/channels/1/messages",
		v2(container(text("hi"))), components(container(text("hi"))),
		"/components/0/type", "UNION_TYPE_CHOICES"},
	{"components v2: at most 40 components, nested ones counted", "POST", "/channels/1/messages",
		v2(container(repeat(37, func(int) any { return text("t") })...), actionRow(btn("a"))),
		v2(container(repeat(38, func(int) any { return text("t") })...), actionRow(btn("a"))),
		"/components", "BASE_TYPE_MAX_LENGTH"},
	{"components v2: at most 4000 characters of text displays in all", "POST", "/channels/1/messages",
		v2(container(text(x(2000)), text(strings.Repeat("é", 2000)))), v2(container(text(x(2000))), text(x(2001))),
		"/components", "BASE_TYPE_MAX_LENGTH"},
	{"components v2: a media gallery has at least one item", "POST", "/channels/1/messages",
		v2(gallery(item("https://example.org/a.png", ""))), v2(gallery()),
		"/components/0/items", "BASE_TYPE_MIN_LENGTH"},
	{"components v2: a media gallery has at most 10 items", "POST", "/channels/1/messages",
		v2(gallery(repeat(10, func(int) any { return item("https://example.org/a.png", "") })...)),
		v2(gallery(repeat(11, func(int) any { return item("https://example.org/a.png", "") })...)),
		"/components/0/items", "BASE_TYPE_MAX_LENGTH"},
	{"components v2: a media item's alt text at most 1024", "POST", "/channels/1/messages",
		v2(gallery(item("https://example.org/a.png", x(1024)))), v2(gallery(item("https://example.org/a.png", x(1025)))),
		"/components/0/items/0/description", "BASE_TYPE_MAX_LENGTH"},
	{"components v2: a deferred reply takes only the ephemeral flag", "POST", callbackPath,
		jsonOf(map[string]any{"type": 5, "data": map[string]any{"flags": FlagEphemeral}}),
		jsonOf(map[string]any{"type": 5, "data": map[string]any{"flags": FlagComponentsV2}}),
		"/data/flags", "INTERACTION_DEFERRED_FLAGS_INVALID"},
	{"select options at most 25", "POST", "/channels/1/messages",
		components(actionRow(selectOf(repeat(25, func(i int) any { return option("o", fmt.Sprint(i), "") })))),
		components(actionRow(selectOf(repeat(26, func(i int) any { return option("o", fmt.Sprint(i), "") })))),
		"/components/0/components/0/options", "BASE_TYPE_MAX_LENGTH"},
	{"select option label at most 100", "POST", "/channels/1/messages",
		components(actionRow(selectOf([]any{option(x(100), "v", "")}))), components(actionRow(selectOf([]any{option(x(101), "v", "")}))),
		"/components/0/components/0/options/0/label", "BASE_TYPE_MAX_LENGTH"},
	{"select option value at most 100", "POST", "/channels/1/messages",
		components(actionRow(selectOf([]any{option("l", x(100), "")}))), components(actionRow(selectOf([]any{option("l", x(101), "")}))),
		"/components/0/components/0/options/0/value", "BASE_TYPE_MAX_LENGTH"},
	{"select option description at most 100", "POST", "/channels/1/messages",
		components(actionRow(selectOf([]any{option("l", "v", x(100))}))), components(actionRow(selectOf([]any{option("l", "v", x(101))}))),
		"/components/0/components/0/options/0/description", "BASE_TYPE_MAX_LENGTH"},
	{"select placeholder at most 150", "POST", "/channels/1/messages",
		components(actionRow(map[string]any{"type": 3, "custom_id": "p", "placeholder": x(150), "options": []any{option("a", "a", "")}})),
		components(actionRow(map[string]any{"type": 3, "custom_id": "p", "placeholder": x(151), "options": []any{option("a", "a", "")}})),
		"/components/0/components/0/placeholder", "BASE_TYPE_MAX_LENGTH"},
	// Content and embeds.
	{"content at most 2000", "POST", "/channels/1/messages",
		jsonOf(map[string]any{"content": strings.Repeat("é", 2000)}), jsonOf(map[string]any{"content": strings.Repeat("é", 2001)}),
		"/content", "BASE_TYPE_MAX_LENGTH"},
	{"content of an interaction reply at most 2000", "POST", callbackPath,
		jsonOf(map[string]any{"type": 4, "data": map[string]any{"content": x(2000)}}), jsonOf(map[string]any{"type": 4, "data": map[string]any{"content": x(2001)}}),
		"/data/content", "BASE_TYPE_MAX_LENGTH"},
	{"content of an edit at most 2000", "PATCH", "/channels/1/messages/2",
		jsonOf(map[string]any{"content": x(2000)}), jsonOf(map[string]any{"content": x(2001)}),
		"/content", "BASE_TYPE_MAX_LENGTH"},
	{"at most 10 embeds", "POST", "/channels/1/messages",
		embeds(repeat(10, func(int) any { return map[string]any{"title": "t"} })...), embeds(repeat(11, func(int) any { return map[string]any{"title": "t"} })...),
		"/embeds", "BASE_TYPE_MAX_LENGTH"},
	{"embeds hold at most 6000 characters", "POST", "/channels/1/messages",
		embeds(map[string]any{"description": x(3000)}, map[string]any{"description": x(3000)}),
		embeds(map[string]any{"description": x(3000)}, map[string]any{"description": x(3000), "footer": map[string]any{"text": "!"}}),
		"/embeds", "MAX_EMBED_SIZE_EXCEEDED"},
	{"embed title at most 256", "POST", "/channels/1/messages",
		embeds(map[string]any{"title": x(256)}), embeds(map[string]any{"title": x(257)}), "/embeds/0/title", "BASE_TYPE_MAX_LENGTH"},
	{"embed description at most 4096", "POST", "/channels/1/messages",
		embeds(map[string]any{"description": x(4096)}), embeds(map[string]any{"description": x(4097)}), "/embeds/0/description", "BASE_TYPE_MAX_LENGTH"},
	{"embed fields at most 25", "POST", "/channels/1/messages",
		embeds(map[string]any{"fields": repeat(25, func(int) any { return map[string]any{"name": "n", "value": "v"} })}),
		embeds(map[string]any{"fields": repeat(26, func(int) any { return map[string]any{"name": "n", "value": "v"} })}),
		"/embeds/0/fields", "BASE_TYPE_MAX_LENGTH"},
	{"embed field name at most 256", "POST", "/channels/1/messages",
		embeds(map[string]any{"fields": []any{map[string]any{"name": x(256), "value": "v"}}}),
		embeds(map[string]any{"fields": []any{map[string]any{"name": x(257), "value": "v"}}}), "/embeds/0/fields/0/name", "BASE_TYPE_MAX_LENGTH"},
	{"embed field value at most 1024", "POST", "/channels/1/messages",
		embeds(map[string]any{"fields": []any{map[string]any{"name": "n", "value": x(1024)}}}),
		embeds(map[string]any{"fields": []any{map[string]any{"name": "n", "value": x(1025)}}}), "/embeds/0/fields/0/value", "BASE_TYPE_MAX_LENGTH"},
	{"embed footer at most 2048", "POST", "/channels/1/messages",
		embeds(map[string]any{"footer": map[string]any{"text": x(2048)}}), embeds(map[string]any{"footer": map[string]any{"text": x(2049)}}),
		"/embeds/0/footer/text", "BASE_TYPE_MAX_LENGTH"},
	{"embed author name at most 256", "POST", "/channels/1/messages",
		embeds(map[string]any{"author": map[string]any{"name": x(256)}}), embeds(map[string]any{"author": map[string]any{"name": x(257)}}),
		"/embeds/0/author/name", "BASE_TYPE_MAX_LENGTH"},
	// Autocomplete.
	{"autocomplete at most 25 choices", "POST", callbackPath, choices(25, "Paris", "par"), choices(26, "Paris", "par"),
		"/data/choices", "BASE_TYPE_MAX_LENGTH"},
	{"autocomplete choice name at most 100", "POST", callbackPath, choices(1, x(100), "v"), choices(1, x(101), "v"),
		"/data/choices/0/name", "BASE_TYPE_MAX_LENGTH"},
	{"autocomplete choice name at least 1", "POST", callbackPath, choices(1, "a", "v"), choices(1, "", "v"),
		"/data/choices/0/name", "BASE_TYPE_MIN_LENGTH"},
	{"autocomplete choice value at most 100", "POST", callbackPath, choices(1, "n", x(100)), choices(1, "n", x(101)),
		"/data/choices/0/value", "BASE_TYPE_MAX_LENGTH"},
	// Modals.
	{"a modal has at most 5 components", "POST", callbackPath,
		jsonOf(map[string]any{"type": 9, "data": map[string]any{"custom_id": "m", "title": "T", "components": repeat(5, func(i int) any {
			return actionRow(map[string]any{"type": 4, "custom_id": fmt.Sprint(i), "style": 1, "label": "L"})
		})}}),
		jsonOf(map[string]any{"type": 9, "data": map[string]any{"custom_id": "m", "title": "T", "components": repeat(6, func(i int) any {
			return actionRow(map[string]any{"type": 4, "custom_id": fmt.Sprint(i), "style": 1, "label": "L"})
		})}}),
		"/data/components", "BASE_TYPE_BAD_LENGTH"},
	{"a modal title at most 45", "POST", callbackPath,
		jsonOf(map[string]any{"type": 9, "data": map[string]any{"custom_id": "m", "title": x(45), "components": []any{actionRow(map[string]any{"type": 4, "custom_id": "t", "style": 1, "label": "L"})}}}),
		jsonOf(map[string]any{"type": 9, "data": map[string]any{"custom_id": "m", "title": x(46), "components": []any{actionRow(map[string]any{"type": 4, "custom_id": "t", "style": 1, "label": "L"})}}}),
		"/data/title", "BASE_TYPE_MAX_LENGTH"},
	// Application commands.
	{"command name follows the naming rule", "PUT", commandsPath,
		command(map[string]any{"name": "défausser-2_x"}), command(map[string]any{"name": "draw card"}),
		"/0/name", "APPLICATION_COMMAND_INVALID_NAME"},
	{"command name is lower case", "PUT", commandsPath,
		command(map[string]any{"name": "नमस्ते"}), command(map[string]any{"name": "Draw"}),
		"/0/name", "APPLICATION_COMMAND_INVALID_NAME"},
	{"a partial command update checks what it changes", "PATCH", "/applications/1/commands/2",
		jsonOf(map[string]any{"name_localizations": map[string]any{"fr": "piocher"}}), jsonOf(map[string]any{"name": "Draw"}),
		"/name", "APPLICATION_COMMAND_INVALID_NAME"},
	{"command name at most 32", "PUT", commandsPath,
		command(map[string]any{"name": x(32)}), command(map[string]any{"name": x(33)}),
		"/0/name", "BASE_TYPE_MAX_LENGTH"},
	{"command name translations follow the naming rule", "PUT", commandsPath,
		command(map[string]any{"name_localizations": map[string]any{"fr": "piocher", "de": "ziehen"}}),
		command(map[string]any{"name_localizations": map[string]any{"fr": "Piocher", "de": "ziehen"}}),
		"/0/name_localizations/fr", "APPLICATION_COMMAND_INVALID_NAME"},
	{"command description at least 1", "PUT", commandsPath,
		command(map[string]any{"description": "d"}), command(map[string]any{"description": nil}),
		"/0/description", "BASE_TYPE_BAD_LENGTH"},
	{"command description at most 100", "PUT", commandsPath,
		command(map[string]any{"description": x(100)}), command(map[string]any{"description": x(101)}),
		"/0/description", "BASE_TYPE_MAX_LENGTH"},
	{"command description translations at most 100", "PUT", commandsPath,
		command(map[string]any{"description_localizations": map[string]any{"fr": x(100)}}),
		command(map[string]any{"description_localizations": map[string]any{"fr": x(101)}}),
		"/0/description_localizations/fr", "BASE_TYPE_MAX_LENGTH"},
	{"command description translations at least 1", "PUT", commandsPath,
		command(map[string]any{"description_localizations": map[string]any{"fr": "d"}}),
		command(map[string]any{"description_localizations": map[string]any{"fr": ""}}),
		"/0/description_localizations/fr", "BASE_TYPE_MIN_LENGTH"},
	{"option name follows the naming rule", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("route", nil)}}), command(map[string]any{"options": []any{strOption("Route", nil)}}),
		"/0/options/0/name", "APPLICATION_COMMAND_INVALID_NAME"},
	{"option name translations follow the naming rule", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("route", map[string]any{"name_localizations": map[string]any{"it": "tratta"}})}}),
		command(map[string]any{"options": []any{strOption("route", map[string]any{"name_localizations": map[string]any{"it": "la tratta"}})}}),
		"/0/options/0/name_localizations/it", "APPLICATION_COMMAND_INVALID_NAME"},
	{"option description at most 100", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("route", map[string]any{"description": x(100)})}}),
		command(map[string]any{"options": []any{strOption("route", map[string]any{"description": x(101)})}}),
		"/0/options/0/description", "BASE_TYPE_MAX_LENGTH"},
	{"at most 25 options", "PUT", commandsPath,
		command(map[string]any{"options": repeat(25, func(i int) any { return strOption(fmt.Sprint("o", i), nil) })}),
		command(map[string]any{"options": repeat(26, func(i int) any { return strOption(fmt.Sprint("o", i), nil) })}),
		"/0/options", "BASE_TYPE_MAX_LENGTH"},
	{"option names unique", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("a", nil), strOption("b", nil)}}),
		command(map[string]any{"options": []any{strOption("a", nil), strOption("a", nil)}}),
		"/0/options/1/name", "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"},
	{"required options first", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("a", map[string]any{"required": true}), strOption("b", nil)}}),
		command(map[string]any{"options": []any{strOption("a", nil), strOption("b", map[string]any{"required": true})}}),
		"/0/options/1/required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"},
	{"at most 25 choices", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": repeat(25, func(i int) any { return map[string]any{"name": "n", "value": fmt.Sprint(i)} })})}}),
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": repeat(26, func(i int) any { return map[string]any{"name": "n", "value": fmt.Sprint(i)} })})}}),
		"/0/options/0/choices", "BASE_TYPE_MAX_LENGTH"},
	{"choice name at most 100", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": []any{map[string]any{"name": x(100), "value": "v"}}})}}),
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": []any{map[string]any{"name": x(101), "value": "v"}}})}}),
		"/0/options/0/choices/0/name", "BASE_TYPE_MAX_LENGTH"},
	{"choice name translations at most 100", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": []any{map[string]any{"name": "n", "value": "v", "name_localizations": map[string]any{"de": x(100)}}}})}}),
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": []any{map[string]any{"name": "n", "value": "v", "name_localizations": map[string]any{"de": x(101)}}}})}}),
		"/0/options/0/choices/0/name_localizations/de", "BASE_TYPE_MAX_LENGTH"},
	{"choice value at most 100", "PUT", commandsPath,
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": []any{map[string]any{"name": "n", "value": x(100)}}})}}),
		command(map[string]any{"options": []any{strOption("map", map[string]any{"choices": []any{map[string]any{"name": "n", "value": x(101)}}})}}),
		"/0/options/0/choices/0/value", "BASE_TYPE_MAX_LENGTH"},
	{"a command holds at most 8000 characters, counting each field's longest translation", "PUT", commandsPath,
		sizedCommand(8000, 0), sizedCommand(8000, 1), "/0", "APPLICATION_COMMAND_TOO_LARGE"},
}

// sizedCommand is a command of n characters as Discord counts them, plus extra: every
// option's description is translated twice (only the longest counts, so the translations
// together hold far more than n), and the command's description has a translation extra
// characters longer than itself.
func sizedCommand(n, extra int) string {
	desc := "Play Ticket to Ride"
	left := n - len("ttr") - len(desc)
	var opts []any
	for i := 0; i < 25 && left > 3; i++ {
		d := min(100, left-3)
		o := strOption(fmt.Sprintf("o%02d", i), map[string]any{"description": x(d),
			"description_localizations": map[string]any{"de": x(d), "fr": x(max(1, d-10))}})
		left -= 3 + d
		var choices []any
		for j := 0; j < 25 && left >= 2; j++ {
			v := min(100, left-1)
			choices = append(choices, map[string]any{"name": "n", "value": x(v), "name_localizations": map[string]any{"de": "m"}})
			left -= 1 + v
		}
		if len(choices) > 0 {
			o["choices"] = choices
		}
		opts = append(opts, o)
	}
	c := map[string]any{"options": opts}
	if extra > 0 {
		c["description_localizations"] = map[string]any{"fr": x(len(desc) + extra)}
	}
	return command(c)
}

// The 8000 characters are counted as Discord documents.
func TestCommandSizeCountsTheLongestTranslation(t *testing.T) {
	for _, extra := range []int{0, 1} {
		var list []map[string]any
		if err := json.Unmarshal([]byte(sizedCommand(8000, extra)), &list); err != nil {
			t.Fatal(err)
		}
		if got := commandSize(list[0]); got != 8000+extra {
			t.Errorf("sizedCommand(8000, %d) counts %d characters", extra, got)
		}
	}
}

func TestDocumentedLimits(t *testing.T) {
	srv := New(t)
	for _, c := range limitCases {
		t.Run(c.name, func(t *testing.T) {
			if errs := check(t, srv, c.method, c.path, c.good); len(errs) != 0 {
				t.Errorf("at the limit: refused %v", errs)
			}
			rec := send(t, srv, c.method, c.path, "application/json", []byte(c.bad))
			if !hasError(rec.Invalid, c.pointer, c.code) {
				t.Fatalf("past the limit: want %s at %q, got %v", c.code, c.pointer, rec.Invalid)
			}
			refusedAt(t, rec, c.pointer, c.code)
		})
	}
}

// refusedAt checks Discord's answer: 400, code 50035 and the error under the field path.
func refusedAt(t *testing.T, rec RecordedRequest, pointer, code string) {
	t.Helper()
	var answer struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Errors  map[string]any `json:"errors"`
	}
	if err := json.Unmarshal(rec.Response, &answer); err != nil || rec.Status != http.StatusBadRequest || answer.Code != 50035 || answer.Message != "Invalid Form Body" {
		t.Fatalf("answer %d %s", rec.Status, rec.Response)
	}
	var node any = answer.Errors
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if tok != "" {
			m, _ := node.(map[string]any)
			node = m[tok]
		}
	}
	m, _ := node.(map[string]any)
	list, _ := m["_errors"].([]any)
	for _, e := range list {
		if em, _ := e.(map[string]any); em["code"] == code && em["message"] != "" {
			return
		}
	}
	t.Errorf("no %s under %s in %s", code, pointer, rec.Response)
}

func TestUploadLimits(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	post := func(sizes ...int) RecordedRequest {
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		w.WriteField("payload_json", `{"content": "board"}`)
		for i, n := range sizes {
			part, _ := w.CreateFormFile(fmt.Sprintf("files[%d]", i), fmt.Sprintf("f%d.bin", i))
			part.Write(make([]byte, n))
		}
		w.Close()
		return send(t, srv, "POST", "/channels/"+table.ID+"/messages", w.FormDataContentType(), body.Bytes())
	}
	t.Run("a file of at most 10 MiB", func(t *testing.T) {
		if rec := post(maxUploadBytes); rec.Status != http.StatusOK {
			t.Fatalf("10 MiB: %d %s", rec.Status, rec.Response)
		}
		rec := post(maxUploadBytes + 1)
		if rec.Status != http.StatusRequestEntityTooLarge || !bytes.Contains(rec.Response, []byte(`"code":40005`)) {
			t.Fatalf("10 MiB + 1: %d %s", rec.Status, rec.Response)
		}
	})
	t.Run("alt text of at most 1024 characters", func(t *testing.T) {
		describe := func(alt string) RecordedRequest {
			var body bytes.Buffer
			w := multipart.NewWriter(&body)
			w.WriteField("payload_json", jsonOf(map[string]any{"content": "board",
				"attachments": []any{map[string]any{"id": "0", "filename": "board.png", "description": alt}}}))
			part, _ := w.CreateFormFile("files[0]", "board.png")
			part.Write([]byte("png"))
			w.Close()
			return send(t, srv, "POST", "/channels/"+table.ID+"/messages", w.FormDataContentType(), body.Bytes())
		}
		alt := strings.Repeat("é", 1024) // characters, not bytes
		rec := describe(alt)
		if rec.Status != http.StatusOK {
			t.Fatalf("1024 characters: %d %s", rec.Status, rec.Response)
		}
		m, ok := srv.LatestMessage(table.ID, func(Message) bool { return true })
		if !ok || len(m.Attachments) != 1 || m.Attachments[0].Description != alt {
			t.Fatalf("the alt text is not kept: %+v", m.Attachments)
		}
		rec = describe(alt + "é")
		if rec.Status != http.StatusBadRequest {
			t.Fatalf("1025 characters: %d %s", rec.Status, rec.Response)
		}
		refusedAt(t, rec, "/attachments/0/description", "BASE_TYPE_MAX_LENGTH")
	})
	t.Run("at most 10 files", func(t *testing.T) {
		if rec := post(make([]int, 10)...); rec.Status != http.StatusOK {
			t.Fatalf("10 files: %d %s", rec.Status, rec.Response)
		}
		if rec := post(make([]int, 11)...); rec.Status != http.StatusBadRequest {
			t.Fatalf("11 files: %d %s", rec.Status, rec.Response)
		}
	})
}
