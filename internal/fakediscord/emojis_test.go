package fakediscord

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// apiCall sends a JSON request with a bot token and decodes the answer.
func apiCall(t *testing.T, srv *Server, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, srv.APIURL()+strings.TrimPrefix(path, "/"), rd)
	req.Header.Set("Authorization", "Bot "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func pngURI(t *testing.T) string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(testPNG(t))
}

// errorCode is the first string code of Discord's nested errors under the field, "" if none.
func errorCode(out map[string]any, field string) string {
	errs, _ := out["errors"].(map[string]any)
	node, _ := errs[field].(map[string]any)
	list, _ := node["_errors"].([]any)
	if len(list) == 0 {
		return ""
	}
	first, _ := list[0].(map[string]any)
	s, _ := first["code"].(string)
	return s
}

// The application emoji routes as Discord's pages give them: the list under "items", create
// 201, get, rename, delete 204; the answers match the description's schemas.
func TestApplicationEmojis(t *testing.T) {
	srv := New(t)
	token, app := "fake-bot-token", srv.AppID()
	status, out := apiCall(t, srv, token, "GET", "/applications/"+app+"/emojis", nil)
	if items, ok := out["items"].([]any); status != 200 || !ok || len(items) != 0 {
		t.Fatalf("empty list: %d %v", status, out)
	}
	status, created := apiCall(t, srv, token, "POST", "/applications/"+app+"/emojis", map[string]any{"name": "ttr_pink", "image": pngURI(t)})
	id, _ := created["id"].(string)
	if status != http.StatusCreated || id == "" || created["name"] != "ttr_pink" || created["require_colons"] != true || created["available"] != true {
		t.Fatalf("create: %d %v", status, created)
	}
	if user, _ := created["user"].(map[string]any); user["id"] != srv.Bot().ID {
		t.Errorf("an emoji uploaded with the API names the bot as its user: %v", created["user"])
	}
	matches := func(schema string, v any) {
		t.Helper()
		raw, _ := json.Marshal(v)
		if errs, err := srv.Spec().Schema(schema, raw); err != nil || len(errs) > 0 {
			t.Errorf("%s: %v %v in %s", schema, err, errs, raw)
		}
	}
	matches("EmojiResponse", created)
	_, out = apiCall(t, srv, token, "GET", "/applications/"+app+"/emojis", nil)
	matches("ListApplicationEmojisResponse", out)
	if items, _ := out["items"].([]any); len(items) != 1 || items[0].(map[string]any)["id"] != id {
		t.Fatalf("list after create: %v", out)
	}
	if status, got := apiCall(t, srv, token, "GET", "/applications/"+app+"/emojis/"+id, nil); status != 200 || got["name"] != "ttr_pink" {
		t.Fatalf("get: %d %v", status, got)
	}
	if status, got := apiCall(t, srv, token, "PATCH", "/applications/"+app+"/emojis/"+id, map[string]any{"name": "ttr_rose"}); status != 200 || got["name"] != "ttr_rose" {
		t.Fatalf("rename: %d %v", status, got)
	}
	if got := srv.AppEmojis(); len(got) != 1 || got[0].Name != "ttr_rose" || !bytes.Equal(got[0].Image, testPNG(t)) {
		t.Fatalf("stored: %+v", got)
	}
	if status, _ := apiCall(t, srv, token, "DELETE", "/applications/"+app+"/emojis/"+id, nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d", status)
	}
	if status, got := apiCall(t, srv, token, "GET", "/applications/"+app+"/emojis/"+id, nil); status != 404 || got["code"] != float64(10014) {
		t.Fatalf("get after delete: %d %v", status, got)
	}
	srv.CheckClean(t)
}

// What Discord refuses of a new application emoji, each with its answer.
func TestApplicationEmojiRefusals(t *testing.T) {
	srv := New(t)
	token, app := "fake-bot-token", srv.AppID()
	create := func(name, image string) (int, map[string]any) {
		return apiCall(t, srv, token, "POST", "/applications/"+app+"/emojis", map[string]any{"name": name, "image": image})
	}
	if status, _ := create("ttr_pink", pngURI(t)); status != http.StatusCreated {
		t.Fatal("the first emoji was refused")
	}
	big := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 256<<10)...)
	jpeg := append([]byte{0xff, 0xd8, 0xff, 0xe0}, make([]byte, 16)...)
	for _, c := range []struct {
		why, name, image string
		field, code      string
	}{
		{"a name of one character", "p", pngURI(t), "name", "BASE_TYPE_MIN_LENGTH"},
		{"a name of 33 characters", strings.Repeat("a", 33), pngURI(t), "name", "BASE_TYPE_MAX_LENGTH"},
		{"a name with a dash", "ttr-pink", pngURI(t), "name", "STRING_TYPE_REGEX"},
		{"a name with a letter outside A-Z", "ttr_rosé", pngURI(t), "name", "STRING_TYPE_REGEX"},
		{"a name the application uses", "ttr_pink", pngURI(t), "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN"},
		{"no data URI", "ttr_a", base64.StdEncoding.EncodeToString(testPNG(t)), "image", "IMAGE_INVALID"},
		{"an SVG", "ttr_b", "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte("<svg/>")), "image", "IMAGE_INVALID"},
		{"bytes that are not the type said", "ttr_c", "data:image/png;base64," + base64.StdEncoding.EncodeToString(jpeg), "image", "IMAGE_INVALID"},
		{"bad base64", "ttr_d", "data:image/png;base64,!!!", "image", "IMAGE_INVALID"},
		{"a picture over 256 KiB", "ttr_e", "data:image/png;base64," + base64.StdEncoding.EncodeToString(big), "image", "BINARY_TYPE_MAX_SIZE"},
	} {
		status, out := create(c.name, c.image)
		if status != http.StatusBadRequest || out["code"] != float64(50035) || errorCode(out, c.field) != c.code {
			t.Errorf("%s: %d %v, want 400/50035 with %s on %s", c.why, status, out, c.code, c.field)
		}
	}
	// A JPEG is taken.
	if status, out := create("ttr_jpeg", "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(jpeg)); status != http.StatusCreated {
		t.Errorf("a JPEG: %d %v", status, out)
	}
	// A rename onto a name in use is refused too.
	list := srv.AppEmojis()
	if status, out := apiCall(t, srv, token, "PATCH", "/applications/"+app+"/emojis/"+list[0].ID, map[string]any{"name": list[1].Name}); status != 400 || errorCode(out, "name") != "APPLICATION_EMOJI_NAME_ALREADY_TAKEN" {
		t.Errorf("rename onto a taken name: %d %v", status, out)
	}
	// 2,000 emojis at most.
	for i := len(srv.AppEmojis()); i < 2000; i++ {
		srv.AddAppEmoji("filler_" + strconv.Itoa(i))
	}
	if status, out := create("ttr_one_more", pngURI(t)); status != http.StatusBadRequest || out["code"] != float64(30008) {
		t.Errorf("the 2,001st emoji: %d %v", status, out)
	}
	// Another application's emojis, an unknown application, another application's token.
	other, otherToken := srv.AddApplication("Other")
	if status, out := apiCall(t, srv, token, "GET", "/applications/"+other+"/emojis", nil); status != http.StatusForbidden || out["code"] != float64(50001) {
		t.Errorf("another application's emojis: %d %v", status, out)
	}
	if status, out := apiCall(t, srv, token, "GET", "/applications/123456789012345678/emojis", nil); status != http.StatusNotFound || out["code"] != float64(10002) {
		t.Errorf("an unknown application: %d %v", status, out)
	}
	if status, out := apiCall(t, srv, otherToken, "POST", "/applications/"+app+"/emojis", map[string]any{"name": "stolen", "image": pngURI(t)}); status != http.StatusForbidden || out["code"] != float64(50001) {
		t.Errorf("another application's token: %d %v", status, out)
	}
	// That token manages its own application's emojis, apart from the bot's, and nothing else.
	if status, out := apiCall(t, srv, otherToken, "POST", "/applications/"+other+"/emojis", map[string]any{"name": "ttr_pink", "image": pngURI(t)}); status != http.StatusCreated {
		t.Errorf("another application's own emoji of a name the bot's uses: %d %v", status, out)
	}
	if status, _ := apiCall(t, srv, otherToken, "GET", "/gateway/bot", nil); status != http.StatusUnauthorized {
		t.Errorf("another application's token on another route: %d", status)
	}
	// A fault makes creation fail, for the bot's tests.
	srv.InjectFault(Fault{Method: "POST", Route: "/applications/{application_id}/emojis", Status: 503, Message: "Service Unavailable"})
	if status, _ := apiCall(t, srv, otherToken, "POST", "/applications/"+other+"/emojis", map[string]any{"name": "ttr_blue", "image": pngURI(t)}); status != 503 {
		t.Errorf("with a fault: %d", status)
	}
}

// A button or select option emoji given by id must be one of the application's: an unknown id
// is refused with BUTTON_COMPONENT_INVALID_EMOJI on emoji.id; a known one is taken.
func TestComponentEmojiMustExist(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	ch := srv.CreateTextChannel(guild.ID, "t")
	known := srv.AddAppEmoji("ttr_pink")
	post := func(emoji map[string]any, inOption bool) (int, map[string]any) {
		row := map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "style": 2, "custom_id": "b", "label": "Pink", "emoji": emoji}}}
		if inOption {
			row = map[string]any{"type": 1, "components": []any{map[string]any{"type": 3, "custom_id": "s",
				"options": []any{map[string]any{"label": "Pink", "value": "pink", "emoji": emoji}}}}}
		}
		return apiCall(t, srv, "fake-bot-token", "POST", "/channels/"+ch.ID+"/messages", map[string]any{"content": "x", "components": []any{row}})
	}
	for _, inOption := range []bool{false, true} {
		if status, out := post(map[string]any{"id": known.ID, "name": known.Name}, inOption); status != 200 {
			t.Errorf("the application's emoji (option %v): %d %v", inOption, status, out)
		}
		status, out := post(map[string]any{"id": "123456789012345678", "name": "ttr_pink"}, inOption)
		raw, _ := json.Marshal(out)
		if status != 400 || out["code"] != float64(50035) || !strings.Contains(string(raw), `"id":{"_errors":[{"code":"BUTTON_COMPONENT_INVALID_EMOJI"`) {
			t.Errorf("an unknown emoji id (option %v): %d %s", inOption, status, raw)
		}
	}
	// Another application's emoji is not the bot's to use.
	other, otherToken := srv.AddApplication("Other")
	_, out := apiCall(t, srv, otherToken, "POST", "/applications/"+other+"/emojis", map[string]any{"name": "theirs", "image": pngURI(t)})
	if status, _ := post(map[string]any{"id": out["id"], "name": "theirs"}, false); status != 400 {
		t.Errorf("another application's emoji on a button: %d", status)
	}
}
