package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// multipartBody is a message body with files, as the bot sends a board.
func multipartBody(t *testing.T, payload string, files map[string][]byte) (string, []byte) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("payload_json", payload)
	i := 0
	for name, data := range files {
		part, _ := w.CreateFormFile(fmt.Sprintf("files[%d]", i), name)
		part.Write(data)
		i++
	}
	w.Close()
	return w.FormDataContentType(), body.Bytes()
}

// boardV2 is a board laid out as components v2: a container with words, the picture with its
// alt text, and a row of buttons.
func boardV2(alt string, rows ...any) map[string]any {
	cs := []any{text("Ann claimed Denver – Omaha."), gallery(item("attachment://board.png", alt)), text("Ben's turn · Ann 12 · Ben 9")}
	cs = append(cs, rows...)
	return map[string]any{"flags": FlagComponentsV2, "components": []any{container(cs...)},
		"attachments": []any{map[string]any{"id": "0", "filename": "board.png", "description": alt}}}
}

func postV2(t *testing.T, srv *Server, channel string, body map[string]any, files map[string][]byte) RecordedRequest {
	t.Helper()
	if files == nil {
		return send(t, srv, "POST", "/channels/"+channel+"/messages", "application/json", []byte(jsonOf(body)))
	}
	ct, data := multipartBody(t, jsonOf(body), files)
	return send(t, srv, "POST", "/channels/"+channel+"/messages", ct, data)
}

// A components v2 message is kept and answered as Discord does: components get ids, the
// picture's attachment:// becomes the attachment's URL and id, the attachment leaves the
// message's "attachments" (it is shown by a component), and tests read the text displays and
// the gallery's alt text.
func TestComponentsV2MessageIsKeptInDiscordsShape(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	rec := postV2(t, srv, table.ID, boardV2("The map of the USA", actionRow(btn("draw"))), map[string][]byte{"board.png": testPNG(t)})
	if rec.Status != http.StatusOK {
		t.Fatalf("a board as components v2: %d %s", rec.Status, rec.Response)
	}
	var answer struct {
		ID          string            `json:"id"`
		Flags       int               `json:"flags"`
		Content     string            `json:"content"`
		Attachments []json.RawMessage `json:"attachments"`
		Components  []Component       `json:"components"`
	}
	if err := json.Unmarshal(rec.Response, &answer); err != nil {
		t.Fatal(err)
	}
	if answer.Flags&FlagComponentsV2 == 0 || answer.Content != "" || len(answer.Attachments) != 0 {
		t.Fatalf("answer: flags %d, content %q, attachments %s", answer.Flags, answer.Content, answer.Attachments)
	}
	m, _ := srv.Message(answer.ID)
	if !m.IsComponentsV2() || len(m.Attachments) != 1 {
		t.Fatalf("kept: flags %d, %d attachments", m.Flags, len(m.Attachments))
	}
	if got := m.TextDisplays(); len(got) != 2 || got[1] != "Ben's turn · Ann 12 · Ben 9" {
		t.Errorf("text displays %q", got)
	}
	items := m.MediaItems()
	if len(items) != 1 || items[0].Description != "The map of the USA" || items[0].Media.AttachmentID != m.Attachments[0].ID ||
		items[0].Media.URL != m.Attachments[0].URL || items[0].Media.Width != 4 {
		t.Fatalf("gallery %+v, attachment %+v", items, m.Attachments[0])
	}
	ids := map[int]bool{}
	m.Walk(func(c Component) {
		if c.ID <= 0 || ids[c.ID] {
			t.Errorf("component %d has id %d", c.Type, c.ID)
		}
		ids[c.ID] = true
	})
	if _, ok := m.Component("draw"); !ok || !strings.Contains(m.Body(), "Denver") {
		t.Errorf("the button inside the container, the words: %q", m.Body())
	}
	// discordgo, as the bot, reads the answer.
	var dm discordgo.Message
	if err := json.Unmarshal(rec.Response, &dm); err != nil || len(dm.Components) != 1 {
		t.Fatalf("discordgo reads %d components: %v", len(dm.Components), err)
	}
}

// attachment:// must name a file of the message.
func TestComponentsV2MediaMustNameAFileOfTheMessage(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	unnamed := boardV2("alt")
	delete(unnamed, "attachments") // which would name the upload board.png
	rec := postV2(t, srv, table.ID, unnamed, map[string][]byte{"other.png": testPNG(t)})
	refusedAt(t, rec, "/components/0/components/1/items/0/media/url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")
	rec = postV2(t, srv, table.ID, boardV2("alt"), nil)
	refusedAt(t, rec, "/components/0/components/1/items/0/media/url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")
	if msgs := srv.Messages(table.ID); len(msgs) != 0 {
		t.Fatalf("a refused post was kept: %d", len(msgs))
	}
}

// Once a message has the flag, an edit cannot take it off nor bring content or embeds back;
// an edit that lays it out again keeps its picture only by listing the attachment by id.
func TestComponentsV2Edits(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	rec := postV2(t, srv, table.ID, boardV2("The map", actionRow(btn("draw"))), map[string][]byte{"board.png": testPNG(t)})
	var posted struct{ ID string }
	json.Unmarshal(rec.Response, &posted)
	path := "/channels/" + table.ID + "/messages/" + posted.ID
	m, _ := srv.Message(posted.ID)
	att := m.Attachments[0].ID
	edit := func(body map[string]any) RecordedRequest {
		return send(t, srv, "PATCH", path, "application/json", []byte(jsonOf(body)))
	}
	t.Run("the flag stays", func(t *testing.T) {
		refusedAt(t, edit(map[string]any{"flags": 0, "components": []any{}}), "/flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG")
	})
	t.Run("no content", func(t *testing.T) {
		refusedAt(t, edit(map[string]any{"content": "hi"}), "/content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	})
	t.Run("no embeds", func(t *testing.T) {
		refusedAt(t, edit(map[string]any{"embeds": []any{map[string]any{"title": "t"}}}), "/embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	})
	t.Run("the picture dropped by the attachments list", func(t *testing.T) {
		body := boardV2("The map")
		body["attachments"] = []any{}
		refusedAt(t, edit(body), "/components/0/components/1/items/0/media/url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")
	})
	if got, _ := srv.Message(posted.ID); got.Version != 0 {
		t.Fatalf("a refused edit changed the message: version %d", got.Version)
	}
	t.Run("the layout again without buttons, the picture kept by id", func(t *testing.T) {
		body := boardV2("The map")
		body["attachments"] = []any{map[string]any{"id": att}}
		if rec := edit(body); rec.Status != http.StatusOK {
			t.Fatalf("%d %s", rec.Status, rec.Response)
		}
		got, _ := srv.Message(posted.ID)
		if len(got.Buttons()) != 0 || len(got.Attachments) != 1 || got.Attachments[0].ID != att || !got.IsComponentsV2() {
			t.Fatalf("after the edit: %d buttons, attachments %+v, flags %d", len(got.Buttons()), got.Attachments, got.Flags)
		}
		if items := got.MediaItems(); len(items) != 1 || items[0].Media.AttachmentID != att || items[0].Description != "The map" {
			t.Fatalf("gallery after the edit: %+v", items)
		}
	})
}

// A message without the flag can take it on an edit only with its content and embeds emptied
// ("for content and poll this is null; for embeds and sticker_ids this is []").
func TestComponentsV2UpgradeEmptiesLegacyFields(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	rec := send(t, srv, "POST", "/channels/"+table.ID+"/messages", "application/json", []byte(`{"content": "old board"}`))
	var posted struct{ ID string }
	json.Unmarshal(rec.Response, &posted)
	path := "/channels/" + table.ID + "/messages/" + posted.ID
	rec = send(t, srv, "PATCH", path, "application/json", []byte(v2(text("new"))))
	refusedAt(t, rec, "/content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
	rec = send(t, srv, "PATCH", path, "application/json", []byte(v2With(map[string]any{"content": nil}, text("new"))))
	if rec.Status != http.StatusOK {
		t.Fatalf("with content null: %d %s", rec.Status, rec.Response)
	}
	if m, _ := srv.Message(posted.ID); !m.IsComponentsV2() || m.Content != "" || m.Body() != "new" {
		t.Fatalf("upgraded: %+v", m)
	}
}

// An interaction's update of a components v2 message follows the same rule.
func TestComponentsV2UpdateCallbackKeepsTheFlag(t *testing.T) {
	srv := New(t)
	carol := srv.CreateUser("carol")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	rec := postV2(t, srv, table.ID, map[string]any{"flags": FlagComponentsV2, "components": []any{container(text("board"), actionRow(btn("draw")))}}, nil)
	var posted struct{ ID string }
	json.Unmarshal(rec.Response, &posted)
	must[*InteractionHandle](t)(srv.ClickButton(carol.ID, posted.ID, "draw"))
	in := receive(t, got)
	err := dg.InteractionRespond(in, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "done"}})
	if err == nil {
		t.Fatal("an update with content of a components v2 message was taken")
	}
	reqs := srv.Requests()
	refusedAt(t, reqs[len(reqs)-1], "/data/content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2")
}

// An edit that shows a file it uploads in a media gallery is refused, as reported
// (discord-api-docs#7529); the same body posted as a new message is taken.
func TestComponentsV2EditCannotShowANewUpload(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	rec := send(t, srv, "POST", "/channels/"+table.ID+"/messages", "application/json", []byte(v2(text("thinking"))))
	var posted struct{ ID string }
	json.Unmarshal(rec.Response, &posted)
	ct, data := multipartBody(t, jsonOf(boardV2("The map")), map[string][]byte{"board.png": testPNG(t)})
	rec = send(t, srv, "PATCH", "/channels/"+table.ID+"/messages/"+posted.ID, ct, data)
	refusedAt(t, rec, "/components/0/components/1/items/0/media/url", "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND")
	if rec := postV2(t, srv, table.ID, boardV2("The map"), map[string][]byte{"board.png": testPNG(t)}); rec.Status != http.StatusOK {
		t.Fatalf("as a new message: %d %s", rec.Status, rec.Response)
	}
}

// The other components v2 types are taken: a separator, a section with a thumbnail, a file
// component naming an upload, an action row outside the container.
func TestComponentsV2TypesAreTaken(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	body := map[string]any{"flags": FlagComponentsV2, "components": []any{
		container(text("words"), map[string]any{"type": 14, "divider": true, "spacing": 2},
			map[string]any{"type": 9, "components": []any{text("beside")}, "accessory": map[string]any{"type": 11, "media": map[string]any{"url": "attachment://board.png"}, "description": "thumb"}},
			map[string]any{"type": 13, "file": map[string]any{"url": "attachment://rules.txt"}}),
		actionRow(btn("go")),
	}}
	rec := postV2(t, srv, table.ID, body, map[string][]byte{"board.png": testPNG(t), "rules.txt": []byte("rules")})
	if rec.Status != http.StatusOK || len(rec.Invalid) != 0 {
		t.Fatalf("%d %s %v", rec.Status, rec.Response, rec.Invalid)
	}
	m, _ := srv.LatestMessage(table.ID, nil)
	var thumb, file *UnfurledMedia
	m.Walk(func(c Component) {
		if c.Type == ComponentThumbnail {
			thumb = c.Media
		}
		if c.Type == ComponentFile {
			file = c.File
		}
	})
	if thumb == nil || thumb.AttachmentID == "" || file == nil || file.AttachmentID == "" {
		t.Fatalf("thumbnail %+v, file %+v", thumb, file)
	}
	if _, ok := m.Component("go"); !ok {
		t.Error("the row outside the container is lost")
	}
}
