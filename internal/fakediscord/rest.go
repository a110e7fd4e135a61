package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// call is one REST request being answered.
type call struct {
	w       *responseRecorder
	r       *http.Request
	rec     *RecordedRequest
	params  map[string]string
	body    *Body
	invalid []SchemaError
}

type handler func(s *Server, c *call)

// routes maps "METHOD /openapi/template" to the fake's implementation. Templates are the
// OpenAPI description's own, so fault injection and records use the same names.
var routes = map[string]handler{}

func route(key string, h handler) { routes[key] = h }

func init() {
	route("GET /gateway", handleGateway)
	route("GET /gateway/bot", handleGatewayBot)
	route("GET /users/@me", handleMe)
	route("GET /oauth2/applications/@me", handleMyApplication)
	route("GET /users/{user_id}", handleUser)
	route("POST /users/@me/channels", handleCreateDM)
	route("GET /channels/{channel_id}", handleGetChannel)
	route("GET /channels/{channel_id}/messages", handleListMessages)
	route("POST /channels/{channel_id}/messages", handleCreateMessage)
	route("GET /channels/{channel_id}/messages/{message_id}", handleGetMessage)
	route("PATCH /channels/{channel_id}/messages/{message_id}", handleEditMessage)
	route("DELETE /channels/{channel_id}/messages/{message_id}", handleDeleteMessage)
	route("GET /guilds/{guild_id}", handleGetGuild)
	route("GET /guilds/{guild_id}/channels", handleGuildChannels)
	route("GET /guilds/{guild_id}/members/{user_id}", handleGuildMember)
}

// newMux routes the gateway websocket (/ws), attachment downloads and every operation of
// Discord's description under /api/v10, by net/http patterns: a literal segment wins over a
// wildcard, so /users/@me is not /users/{user_id}. Anything else is answered 404 and listed
// by UnhandledRequests.
//
// A few of Discord's templates overlap without one being more specific (.../messages/pins/{id}
// and .../messages/{id}/reactions), which one ServeMux refuses: such an operation goes to a
// further ServeMux, tried when the ones before match nothing.
func (s *Server) newMux() http.Handler {
	muxes := []*http.ServeMux{http.NewServeMux()}
	muxes[0].HandleFunc("GET /ws", s.serveGateway)
	muxes[0].HandleFunc("GET /ws/{$}", s.serveGateway)
	muxes[0].HandleFunc("GET /resume", s.serveGateway)
	muxes[0].HandleFunc("GET /resume/{$}", s.serveGateway)
	muxes[0].HandleFunc("GET /attachments/{channel_id}/{attachment_id}/{filename}", s.serveAttachment)
	muxes[0].HandleFunc("POST /api/v10/oauth2/token", s.serveOAuthToken)
	for _, op := range s.spec.Operations() {
		h := func(w http.ResponseWriter, r *http.Request) { s.serveOperation(op, w, r) }
		for i := 0; !register(muxes[i], op.Pattern(), h); i++ {
			if i == len(muxes)-1 {
				muxes = append(muxes, http.NewServeMux())
			}
		}
	}
	for i, mux := range muxes[:len(muxes)-1] {
		mux.Handle("/", muxes[i+1])
	}
	muxes[len(muxes)-1].HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		c := s.newCall(w, r)
		defer s.finish(c)
		c.rec.Unhandled = true
		c.fail(http.StatusNotFound, 0, "404: Not Found")
	})
	return muxes[0]
}

// register adds a pattern to mux unless it conflicts with one already there.
func register(mux *http.ServeMux, pattern string, h http.HandlerFunc) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	mux.HandleFunc(pattern, h)
	return true
}

// newCall records a request as it arrives.
func (s *Server) newCall(w http.ResponseWriter, r *http.Request) *call {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	rec := &RecordedRequest{
		Time: time.Now(), Method: r.Method, Query: r.URL.Query(), Header: r.Header.Clone(),
		ContentType: r.Header.Get("Content-Type"), Body: body, Path: r.URL.Path,
	}
	if version, rest, ok := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/api/v"), "/"); ok && strings.HasPrefix(r.URL.Path, "/api/v") {
		rec.APIVersion, rec.Path = version, "/"+rest
	}
	s.dateHeader(w)
	return &call{w: &responseRecorder{ResponseWriter: w}, r: r, rec: rec}
}

// serveOperation checks a REST call against its operation (path parameters, body, Discord's
// limits, token) and answers it with an injected fault or the fake's implementation.
func (s *Server) serveOperation(op *Operation, w http.ResponseWriter, r *http.Request) {
	c := s.newCall(w, r)
	defer s.finish(c)
	rec := c.rec
	rec.Route, rec.OperationID = op.Template, op.ID
	c.params = map[string]string{}
	for name := range op.pathParams {
		c.params[name] = r.PathValue(name)
	}
	rec.Params = c.params
	parsed, err := ParseBody(rec.ContentType, rec.Body)
	if err == nil {
		c.body = parsed
		rec.JSON, rec.Files = parsed.JSON, parsed.Files
	}
	// Discord authenticates first, then reads the body.
	if !s.authorized(op, r.Header.Get("Authorization")) && !s.otherAppEmojiCall(op, r.Header.Get("Authorization")) {
		c.fail(http.StatusUnauthorized, 0, "401: Unauthorized")
		return
	}
	if !s.rateLimit(c, op) {
		return
	}
	if err != nil {
		c.invalid = append(c.invalid, SchemaError{Message: err.Error()})
		c.fail(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
		return
	}
	c.invalid = append(c.invalid, op.ValidateParams(c.params)...)
	c.invalid = append(c.invalid, op.ValidateBody(parsed)...)
	c.invalid = append(c.invalid, checkDiscordRules(op, parsed)...)
	c.invalid = append(c.invalid, s.checkCustomEmojis(op, parsed)...)
	if len(c.invalid) > 0 {
		c.invalidFormBody(c.invalid)
		return
	}
	if e := tooLarge(parsed.Files); e != nil {
		c.failWith(e)
		return
	}
	h, ok := routes[op.Method+" "+op.Template]
	serve := func(w http.ResponseWriter) {
		if ok {
			real := c.w
			c.w = &responseRecorder{ResponseWriter: w}
			h(s, c)
			c.w = real
		}
	}
	if s.injectFault(c, op.Template, rec.Path, serve) {
		return
	}
	if !ok {
		rec.Unhandled = true
		c.fail(http.StatusNotFound, 0, "404: Not Found (not implemented by fakediscord)")
		return
	}
	h(s, c)
}

// finish files the request, its answer and its validation failures.
func (s *Server) finish(c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c.rec.Status = c.w.status
	c.rec.Response = c.w.body
	s.countInvalidLocked(c.w.status, c.w.Header().Get("X-RateLimit-Scope"))
	s.recordLocked(c.rec)
	s.recordInvalidLocked(c.rec, c.invalid)
	s.changedLocked()
}

func (s *Server) authorized(op *Operation, header string) bool {
	if header == "" {
		return !op.botTokenOnly
	}
	if token, ok := strings.CutPrefix(header, "Bearer "); ok {
		// A user's OAuth2 token, where the operation allows one (oauth.go).
		return op.oauth && s.bearerUser(token) != nil
	}
	return header == "Bot "+s.opts.Token && !s.tokenReset.Load()
}

func (c *call) json(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		c.fail(http.StatusInternalServerError, 0, "fakediscord: "+err.Error())
		return
	}
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(status)
	c.w.Write(b)
}

func (c *call) noContent() { c.w.WriteHeader(http.StatusNoContent) }

// fail answers with Discord's error body {"message", "code"}.
func (c *call) fail(status, code int, message string) {
	c.json(status, map[string]any{"message": message, "code": code})
}

// invalidFormBody answers 400/50035 with Discord's nested "errors" object.
func (c *call) invalidFormBody(errs []SchemaError) {
	tree := map[string]any{}
	seen := map[SchemaError]bool{}
	for _, e := range errs {
		// A limit the description and Discord's rules both state is reported once.
		key := SchemaError{Pointer: e.Pointer, Code: e.Code}
		if seen[key] {
			continue
		}
		seen[key] = true
		node := tree
		for _, tok := range strings.Split(strings.TrimPrefix(e.Pointer, "/"), "/") {
			if tok == "" {
				continue
			}
			next, ok := node[tok].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[tok] = next
			}
			node = next
		}
		list, _ := node["_errors"].([]any)
		code := e.Code
		if code == "" {
			code = "INVALID"
		}
		node["_errors"] = append(list, map[string]any{"code": code, "message": e.Message})
	}
	c.json(http.StatusBadRequest, map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": tree})
}

// document is the JSON body as top-level fields ({} when the body has none).
func (c *call) document() map[string]json.RawMessage {
	doc := map[string]json.RawMessage{}
	if c.body != nil && c.body.JSON != nil {
		json.Unmarshal(c.body.JSON, &doc)
	}
	return doc
}

func (c *call) files() []File {
	if c.body == nil {
		return nil
	}
	return c.body.Files
}

func handleGateway(s *Server, c *call) {
	c.json(http.StatusOK, map[string]any{"url": s.GatewayURL()})
}

func handleGatewayBot(s *Server, c *call) {
	s.mu.Lock()
	left, resetAfter := s.sessionStartsLocked(s.Now())
	shards := s.opts.RecommendedShards
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]any{
		"url": s.GatewayURL(), "shards": shards,
		"session_start_limit": map[string]any{"total": s.opts.SessionStarts, "remaining": left,
			"reset_after": (resetAfter + time.Millisecond - 1).Milliseconds(), "max_concurrency": s.opts.MaxConcurrency},
	})
}

func handleMe(s *Server, c *call) {
	if token, ok := strings.CutPrefix(c.r.Header.Get("Authorization"), "Bearer "); ok {
		handleOAuthMe(s, c, token)
		return
	}
	s.mu.Lock()
	out := userJSON(&s.bot)
	s.mu.Unlock()
	out["verified"] = true
	out["mfa_enabled"] = false
	c.json(http.StatusOK, out)
}

func handleMyApplication(s *Server, c *call) {
	s.mu.Lock()
	bot := userJSON(&s.bot)
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]any{
		"id": s.bot.ID, "name": s.opts.BotName, "icon": nil, "description": "", "type": nil,
		"bot": bot, "bot_public": true, "bot_require_code_grant": false, "verify_key": "0", "flags": 0,
	})
}

func handleUser(s *Server, c *call) {
	s.mu.Lock()
	u, ok := s.users[c.params["user_id"]]
	var out map[string]any
	if ok {
		out = userJSON(u)
	}
	s.mu.Unlock()
	if !ok {
		c.fail(http.StatusNotFound, 10013, "Unknown User")
		return
	}
	c.json(http.StatusOK, out)
}

func handleCreateDM(s *Server, c *call) {
	var req struct {
		RecipientID string `json:"recipient_id"`
	}
	json.Unmarshal(c.body.JSON, &req)
	s.mu.Lock()
	u, ok := s.users[req.RecipientID]
	if !ok || u.Bot {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 50033, "Invalid Recipient(s)")
		return
	}
	out := s.channelJSONLocked(s.dmChannelLocked(u.ID))
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

func handleGetChannel(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[c.params["channel_id"]]
	switch {
	case !ok:
		c.fail(http.StatusNotFound, 10003, "Unknown Channel")
	case ch.GuildID != "" && (s.permissionsLocked(ch, s.bot.ID)&PermViewChannel == 0 || !s.seesLocked(ch, s.bot.ID)):
		c.fail(http.StatusForbidden, 50001, "Missing Access")
	default:
		c.json(http.StatusOK, s.channelJSONLocked(ch))
	}
}

func handleListMessages(s *Server, c *call) {
	limit := 50
	if l, err := strconv.Atoi(c.rec.Query.Get("limit")); err == nil && l > 0 && l <= 100 {
		limit = l
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[c.params["channel_id"]]
	if !ok {
		c.fail(http.StatusNotFound, 10003, "Unknown Channel")
		return
	}
	perms := ^int64(0) // a DM: nothing to check
	if ch.GuildID != "" {
		perms = s.permissionsLocked(ch, s.bot.ID)
	}
	if perms&PermViewChannel == 0 {
		c.fail(http.StatusForbidden, 50001, "Missing Access")
		return
	}
	out := []any{}
	if perms&PermReadMessageHistory == 0 {
		// Discord: without Read Message History, no messages are returned.
		c.json(http.StatusOK, out)
		return
	}
	// Ephemeral messages are not in a channel's history. Newest first; with
	// after, the oldest messages after that id (still newest first).
	var listed []*Message
	for _, id := range s.channelMsgs[ch.ID] {
		if m := s.messages[id]; !m.Deleted && !m.Ephemeral() {
			listed = append(listed, m)
		}
	}
	if after := c.rec.Query.Get("after"); after != "" {
		i := 0
		for i < len(listed) && !snowflakeAfter(listed[i].ID, after) {
			i++
		}
		listed = listed[i:min(len(listed), i+limit)]
	} else {
		listed = listed[max(0, len(listed)-limit):]
	}
	for i := len(listed) - 1; i >= 0; i-- {
		out = append(out, s.messageJSONLocked(listed[i]))
	}
	c.json(http.StatusOK, out)
}

// snowflakeAfter reports whether snowflake a is later than b.
func snowflakeAfter(a, b string) bool {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	return x > y
}

// isEmptyMessage reports a message Discord refuses to store (50006).
func isEmptyMessage(m *Message) bool {
	return m.Content == "" && len(m.Embeds) == 0 && len(m.Components) == 0 && len(m.Attachments) == 0
}

func handleCreateMessage(s *Server, c *call) {
	doc := c.document()
	s.mu.Lock()
	ch, ok := s.channels[c.params["channel_id"]]
	if !ok {
		s.mu.Unlock()
		c.fail(http.StatusNotFound, 10003, "Unknown Channel")
		return
	}
	if refusal := s.dmFailures[ch.RecipientID]; ch.Type == ChannelTypeDM && refusal != nil {
		s.mu.Unlock()
		c.failWith(refusal)
		return
	}
	if !s.canPostLocked(c, ch, len(c.files()) > 0) {
		s.mu.Unlock()
		return
	}
	if !s.threadOpenLocked(c, ch, true) {
		s.mu.Unlock()
		return
	}
	now := s.Now()
	nonce, enforce := messageNonce(doc)
	if enforce && nonce != "" {
		// Discord: with enforce_nonce, "if another message was created by the
		// same author with the same nonce, that message will be returned and
		// no new message will be created" (in the past few minutes): in any
		// channel, and even when that message was deleted since.
		if prev := s.messageByNonceLocked(s.bot.ID, nonce, now); prev != nil {
			out := s.messageJSONLocked(prev)
			s.mu.Unlock()
			c.json(http.StatusOK, out)
			return
		}
	}
	m := &Message{ID: s.ids.next(), ChannelID: ch.ID, GuildID: ch.GuildID, Author: s.bot, CreatedAt: now, Nonce: nonce}
	if err := s.applyPayloadLocked(m, doc, c.files(), false); err != nil {
		s.mu.Unlock()
		c.failWith(payloadRefusal(err, ""))
		return
	}
	if m.Ephemeral() {
		c.invalid = append(c.invalid, SchemaError{Pointer: "/flags", Message: "EPHEMERAL (64) is only for interaction responses; Discord ignores it on channel messages"})
		m.Flags &^= FlagEphemeral
	}
	if isEmptyMessage(m) {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, 50006, "Cannot send an empty message")
		return
	}
	unarchived := s.unarchiveLocked(ch)
	s.storeMessageLocked(m)
	if nonce != "" {
		s.nonces[m.Author.ID+"/"+nonce] = m.ID
	}
	out := s.messageJSONLocked(m)
	guildID := m.GuildID
	s.mu.Unlock()
	if unarchived != nil {
		s.dispatchGuildEvent(guildID, "THREAD_UPDATE", unarchived, intentGuilds)
	}
	s.dispatchMessageEvent(guildID, "MESSAGE_CREATE", out)
	c.json(http.StatusOK, out)
}

// nonceWindow is how long Discord remembers a nonce for enforce_nonce.
const nonceWindow = 5 * time.Minute

// messageNonce reads a create-message body's nonce (a string or an
// integer) and enforce_nonce.
func messageNonce(doc map[string]json.RawMessage) (string, bool) {
	raw, ok := doc["nonce"]
	if !ok {
		return "", false
	}
	var nonce string
	if json.Unmarshal(raw, &nonce) != nil {
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return "", false
		}
		nonce = n.String()
	}
	var enforce bool
	if e, ok := doc["enforce_nonce"]; ok {
		json.Unmarshal(e, &enforce)
	}
	return nonce, enforce
}

// messageByNonceLocked finds the message an author created with this nonce
// within Discord's window, in any channel, deleted or not.
func (s *Server) messageByNonceLocked(author, nonce string, now time.Time) *Message {
	if m := s.messages[s.nonces[author+"/"+nonce]]; m != nil && now.Sub(m.CreatedAt) < nonceWindow {
		return m
	}
	return nil
}

// channelMessageLocked finds a live message of a channel or answers 404.
func (s *Server) channelMessageLocked(c *call) (*Message, bool) {
	if _, ok := s.channels[c.params["channel_id"]]; !ok {
		c.fail(http.StatusNotFound, 10003, "Unknown Channel")
		return nil, false
	}
	m, ok := s.messages[c.params["message_id"]]
	// Ephemeral messages exist only for their user: channel routes cannot reach them.
	if !ok || m.Deleted || m.Ephemeral() || m.ChannelID != c.params["channel_id"] {
		c.fail(http.StatusNotFound, 10008, "Unknown Message")
		return nil, false
	}
	return m, true
}

// handleGetMessage: "If operating on a guild channel, this endpoint requires the current user
// to have the VIEW_CHANNEL and READ_MESSAGE_HISTORY permissions" (Get Channel Message).
func handleGetMessage(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.channels[c.params["channel_id"]]; ok && ch.GuildID != "" {
		perms := s.permissionsLocked(ch, s.bot.ID)
		switch {
		case perms&PermViewChannel == 0:
			c.fail(http.StatusForbidden, 50001, "Missing Access")
			return
		case perms&PermReadMessageHistory == 0:
			c.fail(http.StatusForbidden, 50013, "Missing Permissions")
			return
		}
	}
	if m, ok := s.channelMessageLocked(c); ok {
		c.json(http.StatusOK, s.messageJSONLocked(m))
	}
}

func handleEditMessage(s *Server, c *call) {
	s.mu.Lock()
	m, ok := s.channelMessageLocked(c)
	if !ok {
		s.mu.Unlock()
		return
	}
	if m.Author.ID != s.bot.ID {
		s.mu.Unlock()
		c.fail(http.StatusForbidden, 50005, "Cannot edit a message authored by another user")
		return
	}
	if !s.threadOpenLocked(c, s.channels[m.ChannelID], false) {
		s.mu.Unlock()
		return
	}
	out, apiErr := s.editMessageLocked(m, c.document(), c.files())
	guildID := m.GuildID
	s.mu.Unlock()
	if apiErr != nil {
		c.failWith(apiErr)
		return
	}
	s.dispatchMessageEvent(guildID, "MESSAGE_UPDATE", out)
	c.json(http.StatusOK, out)
}

// apiError is a Discord error answer, with the validation failure behind it if any.
type apiError struct {
	status  int
	code    int
	message string
	invalid []SchemaError
}

func (c *call) failWith(e *apiError) {
	if e.code == 50035 {
		c.invalid = append(c.invalid, e.invalid...)
		c.invalidFormBody(e.invalid)
		return
	}
	c.invalid = append(c.invalid, e.invalid...)
	c.fail(e.status, e.code, e.message)
}

// editMessageLocked applies an edit body to m, refusing edits that would leave it empty.
func (s *Server) editMessageLocked(m *Message, doc map[string]json.RawMessage, files []File) (map[string]any, *apiError) {
	edited := m.clone()
	if err := s.applyPayloadLocked(&edited, doc, files, true); err != nil {
		return nil, payloadRefusal(err, "")
	}
	edited.Flags &^= FlagLoading
	if isEmptyMessage(&edited) {
		return nil, &apiError{status: http.StatusBadRequest, code: 50006, message: "Cannot send an empty message"}
	}
	edited.Version++
	edited.EditedAt = s.Now()
	*m = edited
	s.logPublicLocked(m)
	s.changedLocked()
	return s.messageJSONLocked(m), nil
}

func handleDeleteMessage(s *Server, c *call) {
	s.mu.Lock()
	m, ok := s.channelMessageLocked(c)
	if !ok {
		s.mu.Unlock()
		return
	}
	m.Deleted = true
	s.changedLocked()
	guildID := m.GuildID
	event := map[string]any{"id": m.ID, "channel_id": m.ChannelID}
	if guildID != "" {
		event["guild_id"] = guildID
	}
	s.mu.Unlock()
	s.dispatchMessageEvent(guildID, "MESSAGE_DELETE", event)
	c.noContent()
}

func handleGetGuild(s *Server, c *call) {
	s.mu.Lock()
	g, ok := s.guilds[c.params["guild_id"]]
	var out map[string]any
	if ok {
		out = s.guildJSONLocked(g)
	}
	s.mu.Unlock()
	if !ok {
		c.fail(http.StatusNotFound, 10004, "Unknown Guild")
		return
	}
	c.json(http.StatusOK, out)
}

func handleGuildChannels(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.guilds[c.params["guild_id"]]; !ok {
		c.fail(http.StatusNotFound, 10004, "Unknown Guild")
		return
	}
	out := []any{}
	for _, ch := range s.channelsOfGuildLocked(c.params["guild_id"]) {
		out = append(out, s.channelJSONLocked(ch))
	}
	c.json(http.StatusOK, out)
}

func handleGuildMember(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gid, uid := c.params["guild_id"], c.params["user_id"]
	if _, ok := s.guilds[gid]; !ok {
		c.fail(http.StatusNotFound, 10004, "Unknown Guild")
		return
	}
	if !s.members[gid][uid] {
		c.fail(http.StatusNotFound, 10007, "Unknown Member")
		return
	}
	c.json(http.StatusOK, s.memberJSONLocked(gid, s.users[uid]))
}

// serveAttachment returns an uploaded file's bytes: /attachments/{channel}/{id}/{name}.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	channelID, attachmentID := r.PathValue("channel_id"), r.PathValue("attachment_id")
	s.mu.Lock()
	var found bool
	var data []byte
	var ctype string
	for _, id := range s.channelMsgs[channelID] {
		for _, a := range s.messages[id].Attachments {
			if a.ID == attachmentID {
				found, data, ctype = true, a.Data, a.ContentType
			}
		}
	}
	s.mu.Unlock()
	if !found {
		http.NotFound(w, r)
		return
	}
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	w.Write(data)
}
