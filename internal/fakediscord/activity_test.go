package fakediscord

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// post sends a raw request to the fake and returns the status and body.
func post(t *testing.T, method, u, contentType, auth, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, u, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := map[string]any{}
	json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// TestOAuthCodeExchangeIsFormEncodedOnly: the token URL takes the code,
// form-encoded, once, with the application's secret; JSON is refused, as
// Discord refuses it. The token then reads its user at /users/@me.
func TestOAuthCodeExchangeIsFormEncodedOnly(t *testing.T) {
	srv := New(t)
	alice := srv.CreateUser("alice")
	srv.SetUserLocale(alice.ID, "fr")
	tokenURL := srv.APIURL() + "oauth2/token"
	form := func(code, secret string) string {
		return url.Values{"client_id": {srv.AppID()}, "client_secret": {secret}, "grant_type": {"authorization_code"}, "code": {code}}.Encode()
	}
	code := srv.OAuthCode(alice.ID)
	js, _ := json.Marshal(map[string]string{"client_id": srv.AppID(), "client_secret": srv.ClientSecret(), "grant_type": "authorization_code", "code": code})
	if st, out := post(t, "POST", tokenURL, "application/json", "", string(js)); st != http.StatusBadRequest || out["error"] != "invalid_request" {
		t.Errorf("JSON body: %d %v", st, out)
	}
	if len(srv.ValidationFailures()) != 1 {
		t.Errorf("the JSON exchange is not recorded as refused: %v", srv.ValidationFailures())
	}
	if st, out := post(t, "POST", tokenURL, "application/x-www-form-urlencoded", "", form(code, "wrong")); st != http.StatusUnauthorized || out["error"] != "invalid_client" {
		t.Errorf("wrong secret: %d %v", st, out)
	}
	st, out := post(t, "POST", tokenURL, "application/x-www-form-urlencoded", "", form(code, srv.ClientSecret()))
	token, _ := out["access_token"].(string)
	if st != http.StatusOK || token == "" || out["token_type"] != "Bearer" || out["scope"] != "identify" {
		t.Fatalf("exchange: %d %v", st, out)
	}
	if st, out := post(t, "POST", tokenURL, "application/x-www-form-urlencoded", "", form(code, srv.ClientSecret())); st != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Errorf("a code used twice: %d %v", st, out)
	}
	st, me := post(t, "GET", srv.APIURL()+"users/@me", "", "Bearer "+token, "")
	if st != http.StatusOK || me["id"] != alice.ID || me["username"] != "alice" || me["locale"] != "fr" {
		t.Errorf("users/@me with the token: %d %v", st, me)
	}
	if st, _ := post(t, "GET", srv.APIURL()+"users/@me", "", "Bearer not-a-token", ""); st != http.StatusUnauthorized {
		t.Errorf("users/@me with a bad token: %d", st)
	}
	// A user's token is no bot token: the bot-only routes refuse it.
	inst := srv.CreateActivityInstance("1", "2", alice.ID)
	if st, _ := post(t, "GET", srv.APIURL()+"applications/"+srv.AppID()+"/activity-instances/"+inst, "", "Bearer "+token, ""); st != http.StatusUnauthorized {
		t.Errorf("an activity instance with a user's token: %d", st)
	}
}

// TestActivityInstances: LAUNCH_ACTIVITY (12) with with_response names the
// instance opened in the interaction's channel; the instance is read with
// the bot token (valid for Discord's schema), and an unknown one is 404.
func TestActivityInstances(t *testing.T) {
	srv := New(t)
	alice, bob := srv.CreateUser("alice"), srv.CreateUser("bob")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	h := must[*InteractionHandle](t)(srv.RunCommand(alice.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, got)
	resp, err := dg.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(in.ID, in.Token)+"?with_response=true", map[string]int{"type": 12}, "cb")
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Interaction struct {
			ID                 string `json:"id"`
			ActivityInstanceID string `json:"activity_instance_id"`
		} `json:"interaction"`
		Resource struct {
			Type             int `json:"type"`
			ActivityInstance struct {
				ID string `json:"id"`
			} `json:"activity_instance"`
		} `json:"resource"`
	}
	json.Unmarshal(resp, &out)
	id := out.Resource.ActivityInstance.ID
	if out.Resource.Type != 12 || id == "" || out.Interaction.ActivityInstanceID != id || out.Interaction.ID != h.ID {
		t.Fatalf("with_response: %s", resp)
	}
	if errs, err := srv.Spec().Schema("InteractionCallbackResponse", resp); err != nil || len(errs) > 0 {
		t.Errorf("the callback response breaks Discord's schema: %v %v", errs, err)
	}
	if cb := must[Callback](t)(h.WaitCallback()); cb.Type != CallbackLaunchActivity || cb.ActivityInstance != id {
		t.Errorf("callback %+v", cb)
	}
	// Bob joins; the instance is read with the bot token.
	if err := srv.JoinActivity(bob.ID, id); err != nil {
		t.Fatal(err)
	}
	raw, err := dg.RequestWithBucketID("GET", discordgo.EndpointApplication(srv.AppID())+"/activity-instances/"+id, nil, "ai")
	if err != nil {
		t.Fatal(err)
	}
	if errs, err := srv.Spec().Schema("EmbeddedActivityInstance", raw); err != nil || len(errs) > 0 {
		t.Errorf("the instance breaks Discord's schema: %v %v\n%s", errs, err, raw)
	}
	var inst struct {
		InstanceID string `json:"instance_id"`
		Location   struct {
			Kind, ChannelID, GuildID string
		} `json:"location"`
		Users []string `json:"users"`
	}
	json.Unmarshal(raw, &inst)
	if inst.InstanceID != id || len(inst.Users) != 2 {
		t.Errorf("instance %s", raw)
	}
	if !strings.Contains(string(raw), `"channel_id":"`+table.ID+`"`) || !strings.Contains(string(raw), `"kind":"gc"`) {
		t.Errorf("instance location %s", raw)
	}
	// Unknown: 404. Without the bot token: 401.
	_, err = dg.RequestWithBucketID("GET", discordgo.EndpointApplication(srv.AppID())+"/activity-instances/i-unknown", nil, "ai")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown instance: %v", err)
	}
	if st, _ := post(t, "GET", srv.APIURL()+"applications/"+srv.AppID()+"/activity-instances/"+id, "", "", ""); st != http.StatusUnauthorized {
		t.Errorf("an instance without a token: %d", st)
	}
	// The last user out ends it.
	srv.LeaveActivity(alice.ID, id)
	srv.LeaveActivity(bob.ID, id)
	if _, ok := srv.Activity(id); ok {
		t.Error("an instance outlived its users")
	}
	srv.CheckClean(t)
}

// TestBulkOverwriteMustKeepTheEntryPoint: with Activities on, Discord holds
// an Entry Point command; a global bulk overwrite without it is refused as
// a whole (400, 50240), one that carries it succeeds, and a guild's
// commands are not concerned.
func TestBulkOverwriteMustKeepTheEntryPoint(t *testing.T) {
	srv := New(t)
	guild := srv.CreateGuild("g")
	ep := srv.CreateEntryPoint(HandlerDiscordLaunch)
	dg := newSession(t, srv, 0, 1)
	_, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), "", []*discordgo.ApplicationCommand{ttrCommand})
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != http.StatusBadRequest || re.Message == nil || re.Message.Code != 50240 {
		t.Fatalf("an overwrite dropping the Entry Point: %v", err)
	}
	if cmds := srv.Commands(""); len(cmds) != 1 || cmds[0].Type != CommandTypeEntryPoint {
		t.Fatalf("a refused overwrite changed the commands: %+v", cmds)
	}
	body := []any{ttrCommand, map[string]any{"id": ep.ID, "name": "launch", "type": 4, "handler": HandlerApp}}
	if _, err := dg.RequestWithBucketID("PUT", discordgo.EndpointApplicationGlobalCommands(srv.AppID()), body, "put"); err != nil {
		t.Fatalf("an overwrite carrying the Entry Point: %v", err)
	}
	got, ok := srv.EntryPoint()
	if !ok || got.ID != ep.ID || got.Handler != HandlerApp || len(srv.Commands("")) != 2 {
		t.Errorf("after the overwrite: %+v (%v), %d commands", got, ok, len(srv.Commands("")))
	}
	if _, err := dg.ApplicationCommandBulkOverwrite(srv.AppID(), guild.ID, []*discordgo.ApplicationCommand{ttrCommand}); err != nil {
		t.Errorf("a guild's overwrite: %v", err)
	}
}

// TestLaunchNamesTheInstanceWhereAsked: the answer to LAUNCH_ACTIVITY names
// the instance in the interaction, in the resource or in both (both are
// optional in Discord's pages), and every variant keeps Discord's schema.
func TestLaunchNamesTheInstanceWhereAsked(t *testing.T) {
	srv := New(t)
	alice := srv.CreateUser("alice")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	for _, c := range []struct {
		names                   LaunchNames
		inInteraction, resource bool
	}{{LaunchNamesBoth, true, true}, {LaunchNamesInteraction, true, false}, {LaunchNamesResource, false, true}} {
		srv.SetLaunchNames(c.names)
		h := must[*InteractionHandle](t)(srv.RunCommand(alice.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
		in := receive(t, got)
		resp, err := dg.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(in.ID, in.Token)+"?with_response=true", map[string]int{"type": 12}, "cb")
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Interaction struct {
				ActivityInstanceID *string `json:"activity_instance_id"`
			} `json:"interaction"`
			Resource *struct {
				Type             int `json:"type"`
				ActivityInstance struct {
					ID string `json:"id"`
				} `json:"activity_instance"`
			} `json:"resource"`
		}
		json.Unmarshal(resp, &out)
		cb := must[Callback](t)(h.WaitCallback())
		if (out.Interaction.ActivityInstanceID != nil) != c.inInteraction || (out.Resource != nil) != c.resource {
			t.Errorf("names %d: %s", c.names, resp)
		}
		if out.Interaction.ActivityInstanceID != nil && *out.Interaction.ActivityInstanceID != cb.ActivityInstance ||
			out.Resource != nil && (out.Resource.Type != 12 || out.Resource.ActivityInstance.ID != cb.ActivityInstance) {
			t.Errorf("names %d: %s names another instance than %s", c.names, resp, cb.ActivityInstance)
		}
		if errs, err := srv.Spec().Schema("InteractionCallbackResponse", resp); err != nil || len(errs) > 0 {
			t.Errorf("names %d: the answer breaks Discord's schema: %v %v", c.names, errs, err)
		}
	}
	srv.CheckClean(t)
}

// TestLaunchRefusedWithoutActivities: with the application's Activities
// off, LAUNCH_ACTIVITY is refused with Discord's error shape and answers
// nothing: the interaction still takes its first answer.
func TestLaunchRefusedWithoutActivities(t *testing.T) {
	srv := New(t)
	alice := srv.CreateUser("alice")
	guild := srv.CreateGuild("g")
	table := srv.CreateTextChannel(guild.ID, "t")
	dg, got := ttrSession(t, srv, guild.ID)
	srv.TurnOffActivities()
	h := must[*InteractionHandle](t)(srv.RunCommand(alice.ID, table.ID, "ttr", Subcommand("new", StringOption("map", "usa"))))
	in := receive(t, got)
	_, err := dg.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(in.ID, in.Token)+"?with_response=true", map[string]int{"type": 12}, "cb")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != http.StatusBadRequest || re.Message == nil || re.Message.Code != 40043 || re.Message.Message == "" {
		t.Fatalf("a launch without Activities: %v", err)
	}
	if _, ok := h.Callback(); ok {
		t.Fatal("a refused launch answered the interaction")
	}
	reply := map[string]any{"type": 4, "data": map[string]any{"content": "no board", "flags": 64}}
	if _, err := dg.RequestWithBucketID("POST", discordgo.EndpointInteractionResponse(in.ID, in.Token), reply, "cb"); err != nil {
		t.Fatalf("the first answer after a refused launch: %v", err)
	}
	if cb := must[Callback](t)(h.WaitCallback()); cb.Type != CallbackMessage {
		t.Errorf("callback %+v", cb)
	}
	srv.CheckClean(t) // a refusal of Discord's, not a malformed request
}

// TestEntryPointHandlerAsStored: the handler an overwrite sets is the one
// GET returns and the fake holds; other commands have none.
func TestEntryPointHandlerAsStored(t *testing.T) {
	srv := New(t)
	ep := srv.CreateEntryPoint(HandlerDiscordLaunch)
	dg := newSession(t, srv, 0, 1)
	list := func() map[string]map[string]any {
		raw, err := dg.RequestWithBucketID("GET", discordgo.EndpointApplicationGlobalCommands(srv.AppID()), nil, "get")
		if err != nil {
			t.Fatal(err)
		}
		var cmds []map[string]any
		json.Unmarshal(raw, &cmds)
		out := map[string]map[string]any{}
		for _, c := range cmds {
			out[c["name"].(string)] = c
		}
		return out
	}
	if h := list()["launch"]["handler"]; h != float64(HandlerDiscordLaunch) {
		t.Errorf("the Entry Point Discord made: handler %v", h)
	}
	for _, handler := range []int{HandlerApp, HandlerDiscordLaunch} {
		body := []any{ttrCommand, map[string]any{"id": ep.ID, "name": "launch", "type": 4, "handler": handler}}
		if _, err := dg.RequestWithBucketID("PUT", discordgo.EndpointApplicationGlobalCommands(srv.AppID()), body, "put"); err != nil {
			t.Fatal(err)
		}
		cmds := list()
		if h := cmds["launch"]["handler"]; h != float64(handler) {
			t.Errorf("handler %d overwritten: GET says %v", handler, h)
		}
		if got, _ := srv.EntryPoint(); got.Handler != handler {
			t.Errorf("handler %d overwritten: the fake holds %d", handler, got.Handler)
		}
		if _, ok := cmds["ttr"]["handler"]; ok {
			t.Errorf("a chat command with a handler: %v", cmds["ttr"])
		}
	}
	srv.CheckClean(t)
}
