package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func discordSpec(t *testing.T) *Spec {
	t.Helper()
	s, err := DiscordSpec()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// check validates a JSON body plus Discord's extra rules, as the server does.
func check(t *testing.T, s *Spec, method, path, body string) []SchemaError {
	t.Helper()
	op, errs, err := s.Validate(method, path, "application/json", []byte(body))
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	parsed, _ := ParseBody("application/json", []byte(body))
	return append(errs, checkDiscordRules(op, parsed)...)
}

const callbackPath = "/interactions/1234/aW50ZXJhY3Rpb24/callback"

func row(components ...string) string {
	return `{"type": 1, "components": [` + strings.Join(components, ",") + `]}`
}

func button(id string) string {
	return fmt.Sprintf(`{"type": 2, "style": 1, "label": "Go", "custom_id": %q}`, id)
}

func TestDiscordSpecCompilesAndRoutes(t *testing.T) {
	s := discordSpec(t)
	for _, c := range []struct{ method, path, route string }{
		{"GET", "/users/@me", "/users/@me"},
		{"GET", "/users/42", "/users/{user_id}"},
		{"PATCH", "/webhooks/1/tok/messages/@original", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"},
		{"PATCH", "/webhooks/1/tok/messages/9", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"},
		{"POST", callbackPath, "/interactions/{interaction_id}/{interaction_token}/callback"},
		{"PUT", "/applications/1/guilds/2/commands", "/applications/{application_id}/guilds/{guild_id}/commands"},
		{"GET", "/gateway/bot", "/gateway/bot"},
	} {
		op, _ := s.Match(c.method, c.path)
		if op == nil || op.Template != c.route {
			t.Errorf("%s %s matched %+v, want %s", c.method, c.path, op, c.route)
		}
	}
}

func TestDiscordSpecAcceptsGoodBodies(t *testing.T) {
	s := discordSpec(t)
	good := map[string][3]string{
		"message with embed, buttons and select": {"POST", callbackPath, `{"type": 4, "data": {
			"content": "Your turn", "flags": 64,
			"embeds": [{"title": "Board", "color": 16711680, "fields": [{"name": "Score", "value": "12", "inline": true}], "image": {"url": "attachment://board.png"}}],
			"attachments": [{"id": "0", "filename": "board.png"}],
			"components": [` + row(button("draw"), button("claim")) + `, ` + row(`{"type": 3, "custom_id": "pick", "options": [{"label": "Red", "value": "red"}]}`) + `]}}`},
		"deferred":        {"POST", callbackPath, `{"type": 5}`},
		"modal":           {"POST", callbackPath, `{"type": 9, "data": {"custom_id": "m", "title": "Name", "components": [` + row(`{"type": 4, "custom_id": "t", "style": 1, "label": "Title"}`) + `]}}`},
		"autocomplete":    {"POST", callbackPath, `{"type": 8, "data": {"choices": [{"name": "Paris", "value": "par"}]}}`},
		"channel message": {"POST", "/channels/1/messages", `{"content": "hello", "embeds": []}`},
		"dm":              {"POST", "/users/@me/channels", `{"recipient_id": "42"}`},
		"commands": {"PUT", "/applications/1/commands", `[{"name": "ttr", "description": "Play", "options": [
			{"type": 1, "name": "new", "description": "Start", "options": [{"type": 3, "name": "map", "description": "Board", "required": true, "choices": [{"name": "USA", "value": "usa"}]}]}]}]`},
	}
	for name, c := range good {
		if errs := check(t, s, c[0], c[1], c[2]); len(errs) != 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
}

func TestDiscordSpecCatchesBadBodies(t *testing.T) {
	s := discordSpec(t)
	cases := []struct {
		name, method, path, body, pointer, message string
	}{
		{"component of an unknown type", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(`{"type": 99, "custom_id": "x", "style": 1}`) + `]}}`,
			"/data/components/0/components/0/type", "99 matches none of the oneOf alternatives"},
		{"content over 2000 characters", "POST", callbackPath,
			`{"type": 4, "data": {"content": "` + strings.Repeat("é", 2001) + `"}}`,
			"/data/content", "more than maxLength 2000"},
		{"six buttons in a row", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(button("a"), button("b"), button("c"), button("d"), button("e"), button("f")) + `]}}`,
			"/data/components/0/components", "more than maxItems 5"},
		{"button without its required style", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(`{"type": 2, "custom_id": "x"}`) + `]}}`,
			"/data/components/0/components/0", `required property "style" is missing (ButtonComponentForMessageRequest)`},
		{"custom_id over 100 characters", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(button(strings.Repeat("x", 101))) + `]}}`,
			"/data/components/0/components/0/custom_id", "more than maxLength 100"},
		{"modal without a title", "POST", callbackPath,
			`{"type": 9, "data": {"custom_id": "m", "components": [` + row(`{"type": 4, "custom_id": "t", "style": 1, "label": "T"}`) + `]}}`,
			"/data", `required property "title" is missing`},
		{"unknown callback type", "POST", callbackPath, `{"type": 3}`,
			"/type", "3 matches none of the anyOf alternatives"},
		{"26 autocomplete choices", "POST", callbackPath,
			`{"type": 8, "data": {"choices": [` + strings.TrimSuffix(strings.Repeat(`{"name": "a", "value": "a"},`, 26), ",") + `]}}`,
			"/data/choices", "more than maxItems 25"},
		{"embed colour out of range", "POST", "/channels/1/messages", `{"embeds": [{"color": 16777216}]}`,
			"/embeds/0/color", "more than maximum 16777215"},
		{"content as a number", "POST", "/channels/1/messages", `{"content": 5}`,
			"/content", "want string or null"},
		{"channel id that is not a snowflake", "POST", "/channels/general/messages", `{"content": "hi"}`,
			"{channel_id}", "does not match pattern"},
		{"command name over 32 characters", "PUT", "/applications/1/commands", `[{"name": "` + strings.Repeat("n", 33) + `"}]`,
			"/0/name", "more than maxLength 32"},
		{"recipient as a number", "POST", "/users/@me/channels", `{"recipient_id": 42}`,
			"/recipient_id", "got integer 42"},
		// Rules Discord enforces beyond its OpenAPI description.
		{"bot content over 2000 characters in a channel", "POST", "/channels/1/messages", `{"content": "` + strings.Repeat("x", 2001) + `"}`,
			"/content", "a bot may send at most 2000"},
		{"duplicate custom_id", "POST", "/channels/1/messages", `{"components": [` + row(button("go")) + `,` + row(button("go")) + `]}`,
			"/components/1/components/0/custom_id", `custom_id "go" is already used`},
		{"select sharing its row", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(button("go"), `{"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}`) + `]}}`,
			"/data/components/0/components/1", "must be alone in its action row"},
		{"link button with a custom_id", "POST", "/channels/1/messages",
			`{"components": [` + row(`{"type": 2, "style": 5, "label": "Rules", "url": "https://example.org", "custom_id": "r"}`) + `]}`,
			"/components/0/components/0", "needs a url and no custom_id"},
		{"six action rows", "POST", "/channels/1/messages",
			`{"components": [` + strings.Join([]string{row(button("a")), row(button("b")), row(button("c")), row(button("d")), row(button("e")), row(button("f"))}, ",") + `]}`,
			"/components", "at most 5 action rows"},
		{"layout component without the v2 flag", "POST", "/channels/1/messages",
			`{"components": [{"type": 10, "content": "hi"}]}`,
			"/components/0/type", "needs the components v2 flag"},
	}
	for _, c := range cases {
		errs := check(t, s, c.method, c.path, c.body)
		if !hasError(errs, c.pointer, c.message) {
			t.Errorf("%s: want %q at %q, got %v", c.name, c.message, c.pointer, errs)
		}
	}
}

func TestMultipartBodiesAreValidatedThroughPayloadJSON(t *testing.T) {
	s := discordSpec(t)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: strings.Repeat("x", 2001)}}
	files := []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader([]byte("PNG"))}}
	ctype, body, err := discordgo.MultipartBodyWithJSON(resp, files)
	if err != nil {
		t.Fatal(err)
	}
	_, errs, err := s.Validate("POST", callbackPath, ctype, body)
	if err != nil || !hasError(errs, "/data/content", "maxLength 2000") {
		t.Errorf("multipart callback: %v %v", errs, err)
	}
	parsed, err := ParseBody(ctype, body)
	if err != nil || len(parsed.Files) != 1 || parsed.Files[0].Field != "files[0]" || string(parsed.Files[0].Data) != "PNG" {
		t.Fatalf("parsed %+v %v", parsed, err)
	}
}

// discordgo is the client the bot uses: what it sends for ordinary calls must pass, or the
// fake would flag the bot for the library's habits.
func TestDiscordgoBodiesPass(t *testing.T) {
	s := discordSpec(t)
	min := 1
	content := "edited"
	components := []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Draw", Style: discordgo.PrimaryButton, CustomID: "draw"},
			discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.org/rules"},
		}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: "pick", MinValues: &min, MaxValues: 2, Options: []discordgo.SelectMenuOption{
				{Label: "Red", Value: "red", Default: true}, {Label: "Blue", Value: "blue"},
			}},
		}},
	}
	embeds := []*discordgo.MessageEmbed{{Title: "Board", Color: 0x336699, Footer: &discordgo.MessageEmbedFooter{Text: "turn 3"},
		Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}}
	bodies := []struct {
		method, path string
		v            any
	}{
		{"POST", callbackPath, discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "hi", Embeds: embeds, Components: components, Flags: discordgo.MessageFlagsEphemeral}}},
		{"POST", callbackPath, discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}},
		{"POST", callbackPath, discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}},
		{"POST", callbackPath, discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "updated", Components: components}}},
		{"POST", callbackPath, discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Paris", Value: "par"}}}}},
		{"POST", callbackPath, discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal,
			Data: &discordgo.InteractionResponseData{CustomID: "m", Title: "Name", Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.TextInput{CustomID: "t", Label: "Title", Style: discordgo.TextInputParagraph, Required: true, MaxLength: 100},
				}}}}}},
		{"PUT", "/applications/1/guilds/2/commands", []*discordgo.ApplicationCommand{ttrCommand}},
		{"POST", "/channels/1/messages", discordgo.MessageSend{Content: "hello", Embeds: embeds, Components: components}},
		{"PATCH", "/channels/1/messages/2", discordgo.NewMessageEdit("1", "2").SetContent("edited").SetEmbeds(embeds)},
		{"POST", "/webhooks/1/tok", discordgo.WebhookParams{Content: "follow-up", Flags: discordgo.MessageFlagsEphemeral, Components: components}},
		{"PATCH", "/webhooks/1/tok/messages/@original", discordgo.WebhookEdit{Content: &content, Embeds: &embeds}},
		{"POST", "/users/@me/channels", struct {
			RecipientID string `json:"recipient_id"`
		}{"42"}},
	}
	for _, b := range bodies {
		raw, err := json.Marshal(b.v)
		if err != nil {
			t.Fatal(err)
		}
		if errs := check(t, s, b.method, b.path, string(raw)); len(errs) != 0 {
			t.Errorf("%s %s %s:\n%v", b.method, b.path, raw, errs)
		}
	}
}
