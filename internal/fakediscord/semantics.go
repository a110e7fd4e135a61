package fakediscord

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Operations whose JSON document is a message (create, edit, follow-up).
var messageOperations = map[string]bool{
	"create_message":                  true,
	"update_message":                  true,
	"execute_webhook":                 true,
	"update_original_webhook_message": true,
	"update_webhook_message":          true,
}

// checkDiscordRules checks what Discord refuses although its OpenAPI description allows it:
// duplicate custom ids, a select sharing its row, more than five rows without components v2,
// link buttons with custom ids, embeds over 6000 characters, content over 2000 characters,
// file fields and counts.
func checkDiscordRules(op *Operation, b *Body) []SchemaError {
	var errs []SchemaError
	if len(b.Files) > 10 {
		errs = append(errs, SchemaError{Message: fmt.Sprintf("%d files uploaded; Discord takes at most 10", len(b.Files))})
	}
	for _, f := range b.Files {
		if !isFileField(f.Field) {
			errs = append(errs, SchemaError{Message: fmt.Sprintf("file field %q; Discord expects files[n]", f.Field)})
		}
	}
	doc, _ := b.Value.(map[string]any)
	if doc == nil {
		return errs
	}
	switch {
	case messageOperations[op.ID]:
		errs = append(errs, checkMessageRules(doc, "")...)
	case op.ID == "create_interaction_response":
		data, _ := doc["data"].(map[string]any)
		if data == nil {
			break
		}
		switch typ, _ := intValue(doc["type"]); typ {
		case CallbackMessage, CallbackDeferredMessage, CallbackUpdateMessage:
			errs = append(errs, checkMessageRules(data, "/data")...)
		case CallbackModal:
			errs = append(errs, checkUniqueCustomIDs(data["components"], "/data/components")...)
		}
	}
	return errs
}

func isFileField(name string) bool {
	inner, ok := strings.CutPrefix(name, "files[")
	if !ok || !strings.HasSuffix(inner, "]") {
		return false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(inner, "]"))
	return err == nil && n >= 0 && n < 10
}

func intValue(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}

// maxContent is Discord's documented limit for a bot's message content; the OpenAPI
// description allows 4000 (the limit of Nitro users) for channel messages.
const maxContent = 2000

func checkMessageRules(doc map[string]any, at string) []SchemaError {
	var errs []SchemaError
	if content, ok := doc["content"].(string); ok {
		if n := len([]rune(content)); n > maxContent {
			errs = append(errs, SchemaError{Pointer: at + "/content", Message: fmt.Sprintf("content has %d characters; a bot may send at most %d", n, maxContent)})
		}
	}
	flags, _ := intValue(doc["flags"])
	components, _ := doc["components"].([]any)
	if flags&FlagComponentsV2 == 0 {
		if len(components) > 5 {
			errs = append(errs, SchemaError{Pointer: at + "/components", Message: fmt.Sprintf("%d top-level components; without the components v2 flag Discord takes at most 5 action rows", len(components))})
		}
		for i, c := range components {
			cm, _ := c.(map[string]any)
			if t, _ := intValue(cm["type"]); t != ComponentActionRow {
				errs = append(errs, SchemaError{Pointer: fmt.Sprintf("%s/components/%d/type", at, i), Message: fmt.Sprintf("top-level component of type %d needs the components v2 flag (1<<15); only action rows are allowed without it", t)})
			}
		}
	}
	for i, c := range components {
		errs = append(errs, checkRow(c, fmt.Sprintf("%s/components/%d", at, i))...)
	}
	errs = append(errs, checkUniqueCustomIDs(doc["components"], at+"/components")...)
	if embeds, ok := doc["embeds"].([]any); ok {
		total := 0
		for _, e := range embeds {
			total += embedLength(e)
		}
		if total > 6000 {
			errs = append(errs, SchemaError{Pointer: at + "/embeds", Message: fmt.Sprintf("embeds hold %d characters in all; Discord allows 6000", total)})
		}
	}
	return errs
}

// checkRow checks an action row's children, and buttons anywhere below it.
func checkRow(c any, at string) []SchemaError {
	var errs []SchemaError
	cm, _ := c.(map[string]any)
	if cm == nil {
		return nil
	}
	children, _ := cm["components"].([]any)
	if t, _ := intValue(cm["type"]); t == ComponentActionRow && len(children) > 1 {
		for i, ch := range children {
			chm, _ := ch.(map[string]any)
			if ct, _ := intValue(chm["type"]); ct != ComponentButton {
				errs = append(errs, SchemaError{Pointer: fmt.Sprintf("%s/components/%d", at, i), Message: fmt.Sprintf("a component of type %d must be alone in its action row", ct)})
			}
		}
	}
	walkJSONComponents(c, at, func(m map[string]any, p string) {
		if t, _ := intValue(m["type"]); t != ComponentButton {
			return
		}
		style, _ := intValue(m["style"])
		_, hasURL := m["url"].(string)
		_, hasCustomID := m["custom_id"].(string)
		switch {
		case style == 5 && (!hasURL || hasCustomID):
			errs = append(errs, SchemaError{Pointer: p, Message: "a link button (style 5) needs a url and no custom_id"})
		case style >= 1 && style <= 4 && (!hasCustomID || hasURL):
			errs = append(errs, SchemaError{Pointer: p, Message: fmt.Sprintf("a button of style %d needs a custom_id and no url", style)})
		}
	})
	return errs
}

// checkUniqueCustomIDs reports custom ids used twice in one message or modal.
func checkUniqueCustomIDs(components any, at string) []SchemaError {
	var errs []SchemaError
	seen := map[string]string{}
	walkJSONComponents(components, at, func(m map[string]any, p string) {
		id, ok := m["custom_id"].(string)
		if !ok {
			return
		}
		if first, dup := seen[id]; dup {
			errs = append(errs, SchemaError{Pointer: p + "/custom_id", Message: fmt.Sprintf("custom_id %q is already used at %s; Discord requires unique custom ids", id, first)})
			return
		}
		seen[id] = p
	})
	return errs
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
	n := 0
	str := func(v any) int {
		s, _ := v.(string)
		return len([]rune(s))
	}
	n += str(m["title"]) + str(m["description"])
	if f, ok := m["footer"].(map[string]any); ok {
		n += str(f["text"])
	}
	if a, ok := m["author"].(map[string]any); ok {
		n += str(a["name"])
	}
	fields, _ := m["fields"].([]any)
	for _, f := range fields {
		fm, _ := f.(map[string]any)
		n += str(fm["name"]) + str(fm["value"])
	}
	return n
}
