package fakediscord

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Activities: the OAuth2 code exchange and /users/@me with a user's
// Bearer token, activity instances (opened by LAUNCH_ACTIVITY callbacks
// or by a test, read with the bot token), the application's Entry Point
// command, and what Discord refuses about them (docs/discord-limits.md):
//
//	code := srv.OAuthCode(alice.ID)             // what the SDK's authorize gives the page
//	inst := srv.CreateActivityInstance(guild, channel, alice.ID)
//	srv.JoinActivity(bob.ID, inst)
//	srv.CreateEntryPoint(HandlerApp)            // as Discord does when Activities are turned on
//	h, err := srv.RunEntryPoint(alice.ID, channel)

// Entry Point handlers (Discord's numbering).
const (
	HandlerApp            = 1 // the app answers the interaction (with LAUNCH_ACTIVITY)
	HandlerDiscordLaunch  = 2 // Discord launches the Activity itself
	CommandTypeEntryPoint = 4
)

// errCodeEntryPointDropped is Discord's refusal of a bulk overwrite of the
// global commands that leaves out the Entry Point command.
const errCodeEntryPointDropped = 50240

// oauthGrant is a code issued for a user, and the token it became.
type oauthGrant struct {
	user  string
	token string
	used  bool
}

// ActivityInstance is an activity instance as Discord describes it.
type ActivityInstance struct {
	ID, LaunchID     string
	GuildID, Channel string
	Users            []string
}

func init() {
	route("GET /applications/{application_id}/activity-instances/{instance_id}", handleActivityInstance)
}

// ClientSecret is the application's OAuth2 client secret the fake accepts.
func (s *Server) ClientSecret() string { return s.opts.ClientSecret }

// OAuthCode issues an authorisation code for a user, as the Discord
// client gives one to an Activity's authorize (scope identify). It can be
// exchanged once.
func (s *Server) OAuthCode(userID string) string {
	code := randomToken(30)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthCodes()[code] = &oauthGrant{user: userID}
	return code
}

// oauthCodes is the codes issued, made on first use. Callers hold s.mu.
func (s *Server) oauthCodes() map[string]*oauthGrant {
	if s.grants == nil {
		s.grants = map[string]*oauthGrant{}
		s.bearers = map[string]string{}
		s.instances = map[string]*ActivityInstance{}
	}
	return s.grants
}

// bearerUser is the user an OAuth2 access token belongs to, nil when none.
func (s *Server) bearerUser(token string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthCodes()
	if uid, ok := s.bearers[token]; ok {
		return s.users[uid]
	}
	return nil
}

// serveOAuthToken is POST /api/v10/oauth2/token, the code exchange. It is
// not in Discord's OpenAPI description; Discord documents that it accepts
// only application/x-www-form-urlencoded, never JSON. Errors have OAuth2's
// shape ({"error", "error_description"}).
func (s *Server) serveOAuthToken(w http.ResponseWriter, r *http.Request) {
	c := s.newCall(w, r)
	defer s.finish(c)
	c.rec.Route = "/oauth2/token"
	oauthFail := func(status int, code, desc string) {
		c.json(status, map[string]any{"error": code, "error_description": desc})
	}
	mt, _, _ := mime.ParseMediaType(c.rec.ContentType)
	if mt != "application/x-www-form-urlencoded" {
		c.invalid = append(c.invalid, SchemaError{Message: "the token URL accepts only application/x-www-form-urlencoded, got " + c.rec.ContentType})
		oauthFail(http.StatusBadRequest, "invalid_request", "Content-Type must be application/x-www-form-urlencoded")
		return
	}
	form, err := url.ParseQuery(string(c.rec.Body))
	if err != nil {
		oauthFail(http.StatusBadRequest, "invalid_request", "malformed body")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	grants := s.oauthCodes()
	if form.Get("client_id") != s.bot.ID || form.Get("client_secret") != s.opts.ClientSecret {
		oauthFail(http.StatusUnauthorized, "invalid_client", "Invalid client")
		return
	}
	if form.Get("grant_type") != "authorization_code" {
		oauthFail(http.StatusBadRequest, "unsupported_grant_type", "Unsupported grant type")
		return
	}
	g, ok := grants[form.Get("code")]
	if !ok || g.used {
		oauthFail(http.StatusBadRequest, "invalid_grant", `Invalid "code" in request.`)
		return
	}
	g.used = true
	g.token = randomToken(30)
	s.bearers[g.token] = g.user
	s.changedLocked()
	c.json(http.StatusOK, map[string]any{"access_token": g.token, "token_type": "Bearer", "expires_in": 604800,
		"refresh_token": randomToken(30), "scope": "identify"})
}

// handleOAuthMe is GET /users/@me with a user's Bearer token: that user.
func handleOAuthMe(s *Server, c *call, token string) {
	u := s.bearerUser(token)
	if u == nil {
		c.fail(http.StatusUnauthorized, 0, "401: Unauthorized")
		return
	}
	s.mu.Lock()
	out := userJSON(u)
	out["locale"] = u.Locale
	out["mfa_enabled"] = false
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

// CreateActivityInstance opens an activity instance in a channel with
// users in it, as a launch through Discord's own handler would.
func (s *Server) CreateActivityInstance(guildID, channelID string, users ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newInstanceLocked(guildID, channelID, users)
}

func (s *Server) newInstanceLocked(guildID, channelID string, users []string) string {
	s.oauthCodes()
	id := "i-" + s.ids.next() + "-gc-" + guildID + "-" + channelID
	s.instances[id] = &ActivityInstance{ID: id, LaunchID: s.ids.next(), GuildID: guildID, Channel: channelID, Users: slices.Clone(users)}
	s.changedLocked()
	return id
}

// TurnOffActivities turns the application's Activities off, as the
// Developer Portal's "Enable Activities" unticked: LAUNCH_ACTIVITY is "only
// available for apps with Activities enabled" (Receiving and Responding →
// Interaction Callback Type), so the fake then refuses it with HTTP 400 and
// Discord's error shape. Discord's pages name no code for this refusal: the
// fake answers with the one it gives any callback type not valid for the
// interaction (40043). The Entry Point command, if any, is left as it is.
func (s *Server) TurnOffActivities() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.activitiesOff = true
	s.changedLocked()
}

// LaunchNames is where the answer to LAUNCH_ACTIVITY with with_response
// names the instance opened. Discord's pages make both places optional:
// the Interaction Callback Object's activity_instance_id ("Instance ID of
// the Activity if one was launched or joined") and the resource's
// activity_instance ("Only present if type is LAUNCH_ACTIVITY"; the
// resource itself is optional). The OpenAPI description requires
// activity_instance whenever the resource is there.
type LaunchNames int

const (
	// LaunchNamesBoth names it in both places (the default).
	LaunchNamesBoth LaunchNames = iota
	// LaunchNamesInteraction names it in interaction.activity_instance_id
	// only, with no resource.
	LaunchNamesInteraction
	// LaunchNamesResource names it in resource.activity_instance.id only.
	LaunchNamesResource
)

// SetLaunchNames chooses where the answers to LAUNCH_ACTIVITY name the
// instance from now on.
func (s *Server) SetLaunchNames(n LaunchNames) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.launchNames = n
}

// launchActivityLocked answers a LAUNCH_ACTIVITY callback: the user joins
// the instance of the interaction's channel, opened if there is none.
func (s *Server) launchActivityLocked(it *interactionState) string {
	s.oauthCodes()
	for _, in := range s.instances {
		if in.Channel == it.channelID {
			if !slices.Contains(in.Users, it.userID) {
				in.Users = append(in.Users, it.userID)
			}
			return in.ID
		}
	}
	return s.newInstanceLocked(it.guildID, it.channelID, []string{it.userID})
}

// JoinActivity puts a user in an instance; LeaveActivity takes one out,
// and the last one out ends it.
func (s *Server) JoinActivity(userID, instanceID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthCodes()
	in, ok := s.instances[instanceID]
	if !ok {
		return fmt.Errorf("fakediscord: no activity instance %q", instanceID)
	}
	if !slices.Contains(in.Users, userID) {
		in.Users = append(in.Users, userID)
	}
	s.changedLocked()
	return nil
}

func (s *Server) LeaveActivity(userID, instanceID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthCodes()
	in, ok := s.instances[instanceID]
	if !ok {
		return
	}
	in.Users = slices.DeleteFunc(in.Users, func(u string) bool { return u == userID })
	if len(in.Users) == 0 {
		delete(s.instances, instanceID)
	}
	s.changedLocked()
}

// Activity returns an instance as the fake holds it.
func (s *Server) Activity(instanceID string) (ActivityInstance, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthCodes()
	in, ok := s.instances[instanceID]
	if !ok {
		return ActivityInstance{}, false
	}
	out := *in
	out.Users = slices.Clone(in.Users)
	return out, true
}

// handleActivityInstance is GET /applications/{app}/activity-instances/{id}:
// "The route requires a Bot token of the application. It returns a
// serialized active activity instance … otherwise it returns a 404."
func handleActivityInstance(s *Server, c *call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauthCodes()
	if c.params["application_id"] != s.bot.ID {
		c.fail(http.StatusForbidden, 50001, "Missing Access")
		return
	}
	in, ok := s.instances[c.params["instance_id"]]
	if !ok {
		c.fail(http.StatusNotFound, 0, "404: Not Found")
		return
	}
	loc := map[string]any{"id": "gc-" + in.GuildID + "-" + in.Channel, "kind": "gc", "channel_id": in.Channel, "guild_id": in.GuildID}
	if in.GuildID == "" {
		loc = map[string]any{"id": "pc-" + in.Channel, "kind": "pc", "channel_id": in.Channel}
	}
	c.json(http.StatusOK, map[string]any{"application_id": s.bot.ID, "instance_id": in.ID, "launch_id": in.LaunchID,
		"location": loc, "users": append([]string{}, in.Users...)})
}

// CreateEntryPoint adds the application's global Entry Point command
// ("launch", type 4), as Discord does when Activities are turned on in
// the Developer Portal.
func (s *Server) CreateEntryPoint(handler int) Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, _ := json.Marshal(map[string]any{"name": "launch", "description": "", "type": CommandTypeEntryPoint, "handler": handler,
		"integration_types": []int{0, 1}, "contexts": []int{0, 1, 2}})
	cmd := Command{ID: s.ids.next(), Version: s.ids.next(), Type: CommandTypeEntryPoint, Handler: handler, Name: "launch", Raw: raw}
	s.commands[""] = append(s.commands[""], cmd)
	s.changedLocked()
	return cmd
}

// EntryPoint returns the global Entry Point command, if there is one.
func (s *Server) EntryPoint() (Command, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cmd := range s.commands[""] {
		if cmd.Type == CommandTypeEntryPoint {
			return cmd, true
		}
	}
	return Command{}, false
}

// RunEntryPoint is a user pressing the application's Entry Point in the
// App Launcher of a channel. With handler APP_HANDLER the app gets the
// interaction and must answer; with DISCORD_LAUNCH_ACTIVITY Discord opens
// the instance itself and the app hears nothing: the instance's id is
// returned and the handle is nil.
func (s *Server) RunEntryPoint(userID, channelID string) (*InteractionHandle, string, error) {
	s.mu.Lock()
	ch, ok := s.channels[channelID]
	if !ok {
		s.mu.Unlock()
		return nil, "", fmt.Errorf("fakediscord: unknown channel %q", channelID)
	}
	var cmd *Command
	for i := range s.commands[""] {
		if s.commands[""][i].Type == CommandTypeEntryPoint {
			cmd = &s.commands[""][i]
		}
	}
	if cmd == nil {
		s.mu.Unlock()
		return nil, "", fmt.Errorf("fakediscord: the application has no Entry Point command")
	}
	if cmd.Handler != HandlerApp {
		id := s.newInstanceLocked(ch.GuildID, channelID, []string{userID})
		s.mu.Unlock()
		return nil, id, nil
	}
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": CommandTypeEntryPoint}
	it := &interactionState{kind: InteractionCommand, userID: userID, channelID: channelID, commandName: cmd.Name}
	s.mu.Unlock()
	h, err := s.dispatchInteraction(it, data, nil)
	return h, "", err
}

// dropsEntryPoint reports whether a bulk overwrite of the global commands
// leaves out the Entry Point command they hold.
func dropsEntryPoint(existing []Command, list []json.RawMessage) bool {
	var ep *Command
	for i := range existing {
		if existing[i].Type == CommandTypeEntryPoint {
			ep = &existing[i]
		}
	}
	if ep == nil {
		return false
	}
	for _, raw := range list {
		var c struct {
			ID   string `json:"id"`
			Type int    `json:"type"`
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &c) == nil && c.Type == CommandTypeEntryPoint && (c.ID == ep.ID || strings.EqualFold(c.Name, ep.Name)) {
			return false
		}
	}
	return true
}
