package fakediscord

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
)

// Application emojis (Emoji Resource → List/Get/Create/Modify/Delete Application Emoji): an
// application owns up to 2,000 emojis that only it may use, managed with its bot token. The
// fake keeps them per application; AddApplication makes another application (with a token of
// its own) whose emojis are apart, so that tests can use another application's id or token.

const (
	maxAppEmojis     = 2000      // "An application can own up to 2000 emojis"
	maxEmojiBytes    = 256 << 10 // "Emojis and animated emojis have a maximum file size of 256 KiB"
	appEmojiRoute    = "/applications/{application_id}/emojis"
	appEmojiOneRoute = "/applications/{application_id}/emojis/{emoji_id}"
)

// emojiName is what Discord takes as an emoji's name: 2 to 32 letters, digits and underscores
// (the description gives the length; names with other characters are refused by Discord with
// STRING_TYPE_REGEX, as developers report).
var emojiName = regexp.MustCompile(`^[A-Za-z0-9_]{2,32}$`)

// emojiImageTypes are the data URI types Discord takes for an emoji (Emoji Formats: JPEG, PNG,
// GIF, WebP and AVIF), with the bytes each format starts with.
var emojiImageTypes = map[string]func([]byte) bool{
	"image/png":  func(b []byte) bool { return bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) },
	"image/jpeg": func(b []byte) bool { return bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}) },
	"image/gif": func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("GIF87a")) || bytes.HasPrefix(b, []byte("GIF89a"))
	},
	"image/webp": func(b []byte) bool {
		return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
	},
	"image/avif": func(b []byte) bool { return len(b) >= 12 && string(b[4:12]) == "ftypavif" },
}

// AppEmoji is an emoji an application owns.
type AppEmoji struct {
	ID, Name    string
	Application string
	// ContentType and Image are the uploaded picture.
	ContentType string
	Image       []byte
	Animated    bool
}

// application is an application other than the bot's (AddApplication).
type application struct {
	id, token string
	bot       User
}

func init() {
	route("GET "+appEmojiRoute, handleListAppEmojis)
	route("POST "+appEmojiRoute, handleCreateAppEmoji)
	route("GET "+appEmojiOneRoute, handleGetAppEmoji)
	route("PATCH "+appEmojiOneRoute, handleModifyAppEmoji)
	route("DELETE "+appEmojiOneRoute, handleDeleteAppEmoji)
}

// AddApplication makes another application with a bot of its own: its token (without the
// "Bot " prefix) is taken by the application emoji routes only, for its own emojis.
func (s *Server) AddApplication(name string) (appID, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := User{ID: s.ids.next(), Username: name, Bot: true}
	s.users[u.ID] = &u
	a := &application{id: u.ID, token: "other-app-token-" + u.ID, bot: u}
	if s.otherApps == nil {
		s.otherApps = map[string]*application{}
	}
	s.otherApps[a.token] = a
	return a.id, a.token
}

// AddAppEmoji gives the bot's application an emoji as if uploaded in the developer portal
// (no request): tests fill the application up to its limit with it.
func (s *Server) AddAppEmoji(name string) AppEmoji {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := &AppEmoji{ID: s.ids.next(), Name: name, Application: s.bot.ID, ContentType: "image/png", Image: []byte("\x89PNG\r\n\x1a\n")}
	s.appEmojisLocked(s.bot.ID)[e.ID] = e
	return *e
}

// AppEmojis lists the bot's application's emojis, by name.
func (s *Server) AppEmojis() []AppEmoji {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listAppEmojisLocked(s.bot.ID)
}

func (s *Server) appEmojisLocked(app string) map[string]*AppEmoji {
	if s.appEmojis == nil {
		s.appEmojis = map[string]map[string]*AppEmoji{}
	}
	m := s.appEmojis[app]
	if m == nil {
		m = map[string]*AppEmoji{}
		s.appEmojis[app] = m
	}
	return m
}

func (s *Server) listAppEmojisLocked(app string) []AppEmoji {
	var out []AppEmoji
	for _, e := range s.appEmojis[app] {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Name < out[j].Name || out[i].Name == out[j].Name && out[i].ID < out[j].ID
	})
	return out
}

// appEmojiExists: id names an emoji of the bot's application.
func (s *Server) appEmojiExists(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.appEmojis[s.bot.ID][id]
	return ok
}

// otherAppToken is the application whose token the header carries, other than the bot's.
func (s *Server) otherAppToken(header string) *application {
	token, ok := strings.CutPrefix(header, "Bot ")
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.otherApps[token]
}

// emojiApp checks the path's application against the token's: another application's emojis
// are answered 403 Missing Access, an unknown application 404 Unknown Application. It returns
// the application id and its bot user.
func (s *Server) emojiApp(c *call) (string, User, bool) {
	app, user := s.bot.ID, s.bot
	if a := s.otherAppToken(c.r.Header.Get("Authorization")); a != nil {
		app, user = a.id, a.bot
	}
	want := c.params["application_id"]
	if want == app {
		return app, user, true
	}
	s.mu.Lock()
	known := want == s.bot.ID
	for _, a := range s.otherApps {
		known = known || a.id == want
	}
	s.mu.Unlock()
	if known {
		c.fail(http.StatusForbidden, 50001, "Missing Access")
	} else {
		c.fail(http.StatusNotFound, 10002, "Unknown Application")
	}
	return "", User{}, false
}

func appEmojiJSON(e *AppEmoji, by User) map[string]any {
	user := userJSON(&by)
	user["primary_guild"] = nil // the description's UserResponse requires it
	return map[string]any{"id": e.ID, "name": e.Name, "roles": []any{}, "user": user,
		"require_colons": true, "managed": false, "animated": e.Animated, "available": true}
}

func handleListAppEmojis(s *Server, c *call) {
	app, user, ok := s.emojiApp(c)
	if !ok {
		return
	}
	s.mu.Lock()
	items := []any{}
	for _, e := range s.listAppEmojisLocked(app) {
		items = append(items, appEmojiJSON(&e, user))
	}
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]any{"items": items})
}

func handleGetAppEmoji(s *Server, c *call) {
	app, user, ok := s.emojiApp(c)
	if !ok {
		return
	}
	s.mu.Lock()
	e, found := s.appEmojis[app][c.params["emoji_id"]]
	var out map[string]any
	if found {
		out = appEmojiJSON(e, user)
	}
	s.mu.Unlock()
	if !found {
		c.fail(http.StatusNotFound, 10014, "Unknown Emoji")
		return
	}
	c.json(http.StatusOK, out)
}

// nameTaken is Discord's answer to a name the application already uses: 400/50035 with
// APPLICATION_EMOJI_NAME_ALREADY_TAKEN on name, as developers report it. It is not recorded
// as a validation failure: several processes of a fleet that start at once meet it by design.
func nameTaken(c *call, name string) {
	c.json(http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": map[string]any{
		"name": map[string]any{"_errors": []any{map[string]any{"code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
			"message": fmt.Sprintf("Application emoji name %q is already taken.", name)}}}}})
}

// checkEmojiName refuses a name of other characters than letters, digits and underscores
// (its length is the schema's).
func checkEmojiName(name string) []SchemaError {
	if emojiName.MatchString(name) || len(name) < 2 || len(name) > 32 {
		return nil
	}
	return []SchemaError{{Pointer: "/name", Code: "STRING_TYPE_REGEX", Message: fmt.Sprintf("String value did not match validation regex: %q may hold only letters, digits and _.", name)}}
}

// decodeEmojiImage reads image data (Reference → Image Data): a data URI of a picture Discord
// takes, base64, at most 256 KiB.
func decodeEmojiImage(uri string) (contentType string, data []byte, errs []SchemaError) {
	invalid := func(why string) []SchemaError {
		return []SchemaError{{Pointer: "/image", Code: "IMAGE_INVALID", Message: "Invalid image data: " + why}}
	}
	meta, payload, ok := strings.Cut(uri, ",")
	ct, isBase64 := strings.CutSuffix(strings.TrimPrefix(meta, "data:"), ";base64")
	if !ok || !strings.HasPrefix(meta, "data:") || !isBase64 {
		return "", nil, invalid("not a data URI (data:image/png;base64,...)")
	}
	magic, known := emojiImageTypes[ct]
	if !known {
		return "", nil, invalid(fmt.Sprintf("%q is not JPEG, PNG, GIF, WebP or AVIF", ct))
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", nil, invalid("the base64 does not decode: " + err.Error())
	}
	if !magic(data) {
		return "", nil, invalid(fmt.Sprintf("the bytes are not %s", ct))
	}
	if len(data) > maxEmojiBytes {
		return "", nil, []SchemaError{{Pointer: "/image", Code: "BINARY_TYPE_MAX_SIZE", Message: fmt.Sprintf("File cannot be larger than 256.0 kb (got %d bytes).", len(data))}}
	}
	return ct, data, nil
}

func handleCreateAppEmoji(s *Server, c *call) {
	app, user, ok := s.emojiApp(c)
	if !ok {
		return
	}
	var req struct {
		Name  string `json:"name"`
		Image string `json:"image"`
	}
	json.Unmarshal(c.body.JSON, &req)
	errs := checkEmojiName(req.Name)
	ct, data, imgErrs := decodeEmojiImage(req.Image)
	if errs = append(errs, imgErrs...); len(errs) > 0 {
		c.invalid = append(c.invalid, errs...)
		c.invalidFormBody(errs)
		return
	}
	s.mu.Lock()
	emojis := s.appEmojisLocked(app)
	for _, e := range emojis {
		if e.Name == req.Name {
			s.mu.Unlock()
			nameTaken(c, req.Name)
			return
		}
	}
	if len(emojis) >= maxAppEmojis {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 30008, fmt.Sprintf("Maximum number of emojis reached (%d)", maxAppEmojis))
		return
	}
	e := &AppEmoji{ID: s.ids.next(), Name: req.Name, Application: app, ContentType: ct, Image: data, Animated: ct == "image/gif"}
	emojis[e.ID] = e
	out := appEmojiJSON(e, user)
	s.mu.Unlock()
	c.json(http.StatusCreated, out)
}

func handleModifyAppEmoji(s *Server, c *call) {
	app, user, ok := s.emojiApp(c)
	if !ok {
		return
	}
	var req struct {
		Name *string `json:"name"`
	}
	json.Unmarshal(c.body.JSON, &req)
	if req.Name != nil {
		if errs := checkEmojiName(*req.Name); len(errs) > 0 {
			c.invalid = append(c.invalid, errs...)
			c.invalidFormBody(errs)
			return
		}
	}
	s.mu.Lock()
	emojis := s.appEmojisLocked(app)
	e, found := emojis[c.params["emoji_id"]]
	if !found {
		s.mu.Unlock()
		c.fail(http.StatusNotFound, 10014, "Unknown Emoji")
		return
	}
	if req.Name != nil {
		for _, o := range emojis {
			if o != e && o.Name == *req.Name {
				s.mu.Unlock()
				nameTaken(c, *req.Name)
				return
			}
		}
		e.Name = *req.Name
	}
	out := appEmojiJSON(e, user)
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

func handleDeleteAppEmoji(s *Server, c *call) {
	app, _, ok := s.emojiApp(c)
	if !ok {
		return
	}
	s.mu.Lock()
	emojis := s.appEmojisLocked(app)
	_, found := emojis[c.params["emoji_id"]]
	delete(emojis, c.params["emoji_id"])
	s.mu.Unlock()
	if !found {
		c.fail(http.StatusNotFound, 10014, "Unknown Emoji")
		return
	}
	c.noContent()
}

// checkCustomEmojis refuses a button or select option whose emoji is given by id when no
// emoji of the application has that id (the fake's servers have no emojis of their own): 400
// with BUTTON_COMPONENT_INVALID_EMOJI on emoji.id, for options too, as Discord answers a
// deleted or unknown emoji.
func (s *Server) checkCustomEmojis(op *Operation, b *Body) []SchemaError {
	doc, _ := b.Value.(map[string]any)
	if doc == nil {
		return nil
	}
	var components any
	at := "/components"
	switch {
	case messageOperations[op.ID]:
		components = doc["components"]
	case op.ID == "create_interaction_response":
		data, _ := doc["data"].(map[string]any)
		components, at = data["components"], "/data/components"
	default:
		return nil
	}
	var errs []SchemaError
	check := func(v any, p string) {
		e, _ := v.(map[string]any)
		id, hasID := e["id"].(string)
		if e == nil || !hasID || s.appEmojiExists(id) {
			return
		}
		errs = append(errs, SchemaError{Pointer: p + "/id", Code: "BUTTON_COMPONENT_INVALID_EMOJI", Message: fmt.Sprintf("Invalid emoji: no emoji has the id %s.", id)})
	}
	walkJSONComponents(components, at, func(m map[string]any, p string) {
		check(m["emoji"], p+"/emoji")
		options, _ := m["options"].([]any)
		for i, o := range options {
			om, _ := o.(map[string]any)
			check(om["emoji"], fmt.Sprintf("%s/options/%d/emoji", p, i))
		}
	})
	return errs
}

// otherAppEmojiCall: another application's bot token, on an application emoji route (the only
// routes where the fake takes it).
func (s *Server) otherAppEmojiCall(op *Operation, header string) bool {
	return (op.Template == appEmojiRoute || op.Template == appEmojiOneRoute) && s.otherAppToken(header) != nil
}
