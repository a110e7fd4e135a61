package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// send makes one REST call to the fake as the bot and returns its record.
func send(t *testing.T, srv *Server, method, path, contentType string, body []byte) RecordedRequest {
	t.Helper()
	req, err := http.NewRequest(method, srv.APIURL()+strings.TrimPrefix(path, "/"), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", srv.Token())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp := must[*http.Response](t)(http.DefaultClient.Do(req))
	resp.Body.Close()
	reqs := srv.Requests()
	return reqs[len(reqs)-1]
}

// check sends a JSON body and returns where it breaks Discord's rules.
func check(t *testing.T, srv *Server, method, path, body string) []SchemaError {
	t.Helper()
	return send(t, srv, method, path, "application/json", []byte(body)).Invalid
}

func hasError(errs []SchemaError, pointer, code string) bool {
	for _, e := range errs {
		if e.Pointer == pointer && e.Code == code {
			return true
		}
	}
	return false
}

const callbackPath = "/interactions/1234/aW50ZXJhY3Rpb24/callback"

func row(components ...string) string {
	return `{"type": 1, "components": [` + strings.Join(components, ",") + `]}`
}

func button(id string) string {
	return fmt.Sprintf(`{"type": 2, "style": 1, "label": "Go", "custom_id": %q}`, id)
}

func TestRoutesFollowDiscordsTemplates(t *testing.T) {
	srv := New(t)
	for _, c := range []struct{ method, path, route string }{
		{"GET", "/users/@me", "/users/@me"},
		{"GET", "/users/42", "/users/{user_id}"},
		{"PATCH", "/webhooks/1/tok/messages/@original", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"},
		{"PATCH", "/webhooks/1/tok/messages/9", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"},
		{"POST", callbackPath, "/interactions/{interaction_id}/{interaction_token}/callback"},
		{"PUT", "/applications/1/guilds/2/commands", "/applications/{application_id}/guilds/{guild_id}/commands"},
		{"GET", "/gateway/bot", "/gateway/bot"},
		// Overlapping templates, served by a second ServeMux.
		{"DELETE", "/channels/1/messages/pins/2", "/channels/{channel_id}/messages/pins/{message_id}"},
		{"DELETE", "/channels/1/messages/2/reactions", "/channels/{channel_id}/messages/{message_id}/reactions"},
	} {
		rec := send(t, srv, c.method, c.path, "", nil)
		if rec.Route != c.route {
			t.Errorf("%s %s routed to %q, want %s", c.method, c.path, rec.Route, c.route)
		}
	}
	if rec := send(t, srv, "GET", "/users/42", "", nil); rec.Params["user_id"] != "42" {
		t.Errorf("params %v", rec.Params)
	}
}

func TestDiscordSpecAcceptsGoodBodies(t *testing.T) {
	srv := New(t)
	good := map[string][3]string{
		"message with embed, buttons and select": {"POST", callbackPath, `{"type": 4, "data": {
			"content": "Your turn", "flags": 64,
			"embeds": [{"title": "Board", "color": 16711680, "fields": [{"name": "Score", "value": "12", "inline": true}], "image": {"url": "attachment://board.png"}}],
			"attachments": [{"id": "0", "filename": "board.png"}],
			"components": [` + row(button("draw"), button("claim")) + `, ` + row(`{"type": 3, "custom_id": "pick", "options": [{"label": "Red", "value": "red", "emoji": {"name": "🟥"}}]}`) + `]}}`},
		"deferred":        {"POST", callbackPath, `{"type": 5}`},
		"modal":           {"POST", callbackPath, `{"type": 9, "data": {"custom_id": "m", "title": "Name", "components": [` + row(`{"type": 4, "custom_id": "t", "style": 1, "label": "Title"}`) + `]}}`},
		"autocomplete":    {"POST", callbackPath, `{"type": 8, "data": {"choices": [{"name": "Paris", "value": "par"}]}}`},
		"channel message": {"POST", "/channels/1/messages", `{"content": "hello", "embeds": []}`},
		"dm":              {"POST", "/users/@me/channels", `{"recipient_id": "42"}`},
		"commands": {"PUT", "/applications/1/commands", `[{"name": "ttr", "description": "Play", "options": [
			{"type": 1, "name": "new", "description": "Start", "options": [{"type": 3, "name": "map", "description": "Board", "required": true, "choices": [{"name": "USA", "value": "usa"}]}]}]}]`},
	}
	for name, c := range good {
		if errs := check(t, srv, c[0], c[1], c[2]); len(errs) != 0 {
			t.Errorf("%s: %v", name, errs)
		}
	}
}

// The OpenAPI description's own constraints, reported where and as Discord does.
func TestDiscordSpecCatchesBadBodies(t *testing.T) {
	srv := New(t)
	cases := []struct {
		name, method, path, body, pointer, code string
	}{
		{"component of an unknown type", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(`{"type": 99, "custom_id": "x", "style": 1}`) + `]}}`,
			"/data/components/0/components/0/type", "UNION_TYPE_CHOICES"},
		{"button without its required style", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(`{"type": 2, "custom_id": "x"}`) + `]}}`,
			"/data/components/0/components/0/style", "BASE_TYPE_REQUIRED"},
		{"button style out of its enum", "POST", callbackPath,
			`{"type": 4, "data": {"components": [` + row(`{"type": 2, "custom_id": "x", "style": 9}`) + `]}}`,
			"/data/components/0/components/0/style", "ENUM_TYPE_COERCE"},
		{"modal without a title", "POST", callbackPath,
			`{"type": 9, "data": {"custom_id": "m", "components": [` + row(`{"type": 4, "custom_id": "t", "style": 1, "label": "T"}`) + `]}}`,
			"/data/title", "BASE_TYPE_REQUIRED"},
		{"unknown callback type", "POST", callbackPath, `{"type": 3}`, "/type", "UNION_TYPE_CHOICES"},
		{"embed colour out of range", "POST", "/channels/1/messages", `{"embeds": [{"color": 16777216}]}`,
			"/embeds/0/color", "NUMBER_TYPE_MAX"},
		{"content as a number", "POST", "/channels/1/messages", `{"content": 5}`,
			"/content", "BASE_TYPE_CONVERT"},
		{"channel id that is not a snowflake", "POST", "/channels/general/messages", `{"content": "hi"}`,
			"{channel_id}", "NUMBER_TYPE_COERCE"},
		{"recipient as a number", "POST", "/users/@me/channels", `{"recipient_id": 42}`,
			"/recipient_id", "BASE_TYPE_CONVERT"},
		{"emoji of the wrong type", "POST", "/channels/1/messages",
			`{"components": [` + row(`{"type": 2, "style": 1, "custom_id": "x", "emoji": 5}`) + `]}`,
			"/components/0/components/0/emoji", "BASE_TYPE_CONVERT"},
	}
	for _, c := range cases {
		errs := check(t, srv, c.method, c.path, c.body)
		if !hasError(errs, c.pointer, c.code) {
			t.Errorf("%s: want %s at %q, got %v", c.name, c.code, c.pointer, errs)
		}
	}
}

func TestMultipartBodiesAreValidatedThroughPayloadJSON(t *testing.T) {
	srv := New(t)
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: strings.Repeat("x", 2001)}}
	files := []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader([]byte("PNG"))}}
	ctype, body, err := discordgo.MultipartBodyWithJSON(resp, files)
	if err != nil {
		t.Fatal(err)
	}
	rec := send(t, srv, "POST", callbackPath, ctype, body)
	if !hasError(rec.Invalid, "/data/content", "BASE_TYPE_MAX_LENGTH") || rec.Status != http.StatusBadRequest {
		t.Errorf("multipart callback: %d %v", rec.Status, rec.Invalid)
	}
	if len(rec.Files) != 1 || rec.Files[0].Field != "files[0]" || string(rec.Files[0].Data) != "PNG" {
		t.Fatalf("files %+v", rec.Files)
	}
}

// discordgo is the client the bot uses: what it sends for ordinary calls must pass, or the
// fake would flag the bot for the library's habits.
func TestDiscordgoBodiesPass(t *testing.T) {
	srv := New(t)
	min := 1
	content := "edited"
	components := []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Draw", Style: discordgo.PrimaryButton, CustomID: "draw", Emoji: &discordgo.ComponentEmoji{Name: "🚂"}},
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
		if errs := check(t, srv, b.method, b.path, string(raw)); len(errs) != 0 {
			t.Errorf("%s %s %s:\n%v", b.method, b.path, raw, errs)
		}
	}
}

// boardPost is the body of a board post after a move, as the bot sends it (with the
// picture in files[0] of a multipart body).
const boardPost = `{"content": "🎫 **alice** kept 2 tickets\n🔴 <@1574427223971069976>, it's your turn!", "embeds": [],
 "components": [{"type": 1, "components": [
  {"type": 2, "custom_id": "draw:e6c1e2048cafce92:0:1", "style": 2, "label": "white", "emoji": {"name": "⬜"}},
  {"type": 2, "custom_id": "draw:e6c1e2048cafce92:0:2", "style": 2, "label": "pink", "emoji": {"name": "🟪"}},
  {"type": 2, "custom_id": "draw:e6c1e2048cafce92:0:3", "style": 2, "label": "orange", "emoji": {"name": "🟧"}},
  {"type": 2, "custom_id": "draw:e6c1e2048cafce92:0:4", "style": 2, "label": "red", "emoji": {"name": "🟥"}},
  {"type": 2, "custom_id": "draw:e6c1e2048cafce92:0:5", "style": 2, "label": "blue", "emoji": {"name": "🟦"}}]},
  {"type": 1, "components": [
  {"type": 2, "custom_id": "draw:e6c1e2048cafce92:0:deck", "style": 1, "label": "Deck (97)", "emoji": {"name": "🎴"}},
  {"type": 2, "custom_id": "tickets:e6c1e2048cafce92:0:", "style": 1, "label": "Tickets", "emoji": {"name": "🎫"}},
  {"type": 2, "custom_id": "hand:e6c1e2048cafce92:0:", "style": 2, "label": "My hand", "emoji": {"name": "🃏"}}]}],
 "allowed_mentions": {"parse": [], "users": ["1574427223971069976"]}}`

// BenchmarkValidateBoardPost is the fake's cost of checking one board post: the OpenAPI
// schema and Discord's limits.
func BenchmarkValidateBoardPost(b *testing.B) {
	spec, err := DiscordSpec()
	if err != nil {
		b.Fatal(err)
	}
	op, _ := spec.Operation("POST", "/channels/{channel_id}/messages")
	body, err := ParseBody("application/json", []byte(boardPost))
	if err != nil {
		b.Fatal(err)
	}
	body.MediaType, body.Files = "multipart/form-data", []File{{Field: "files[0]", Filename: "board.png"}}
	b.ReportAllocs()
	for b.Loop() {
		if errs := append(op.ValidateBody(body), checkDiscordRules(op, body)...); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
