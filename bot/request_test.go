package bot

import (
	"encoding/json"
	"testing"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

func interaction(t *testing.T, payload string) *discordgo.Interaction {
	t.Helper()
	var i discordgo.Interaction
	if err := json.Unmarshal([]byte(payload), &i); err != nil {
		t.Fatal(err)
	}
	return &i
}

func TestCommandInteractionBecomesARequest(t *testing.T) {
	t.Parallel()
	i := interaction(t, `{"id":"11","application_id":"1","type":2,"token":"tok","guild_id":"5","channel_id":"7",
		"locale":"fr","guild_locale":"de",
		"member":{"nick":"Ally","permissions":"16","user":{"id":"42","username":"alice","global_name":"Alice"}},
		"data":{"id":"3","name":"ttr","type":1,"options":[{"name":"new","type":1,"options":[
			{"name":"map","type":3,"value":"europe"},
			{"name":"turn_timer","type":4,"value":90},
			{"name":"confirm","type":5,"value":false},
			{"name":"player","type":6,"value":"77"}]}]}}`)
	req, _, ok := toRequest(i)
	if !ok {
		t.Fatal("not handled")
	}
	want := commands.Request{Type: commands.CommandRequest, ID: "11", Guild: "5", Channel: "7", User: "42", UserName: "Ally",
		Locale: "fr", GuildLocale: "de", CanManage: true, Name: "ttr", Sub: "new", KnownPermissions: true}
	got := *req
	got.Options = nil
	if !equalRequests(got, want) {
		t.Errorf("request = %+v\nwant      %+v", got, want)
	}
	for k, v := range map[string]string{"map": "europe", "turn_timer": "90", "confirm": "false", "player": "77"} {
		if req.Options[k] != v {
			t.Errorf("option %s = %q, want %q", k, req.Options[k], v)
		}
	}
}

func equalRequests(a, b commands.Request) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestDisplayNameAndPermissions(t *testing.T) {
	t.Parallel()
	cases := []struct {
		member    string
		name      string
		canManage bool
	}{
		{`{"nick":null,"permissions":"0","user":{"id":"1","username":"bob","global_name":"Bobby"}}`, "Bobby", false},
		{`{"permissions":"8","user":{"id":"1","username":"bob"}}`, "bob", true},     // administrator
		{`{"permissions":"2048","user":{"id":"1","username":"bob"}}`, "bob", false}, // send messages only
	}
	for _, c := range cases {
		i := interaction(t, `{"id":"1","type":3,"guild_id":"5","channel_id":"7","member":`+c.member+`,"data":{"custom_id":"x","component_type":2}}`)
		req, _, _ := toRequest(i)
		if req.UserName != c.name || req.CanManage != c.canManage {
			t.Errorf("%s: name %q manage %v", c.member, req.UserName, req.CanManage)
		}
	}
}

func TestAutocompleteKnowsTheFocusedOption(t *testing.T) {
	t.Parallel()
	i := interaction(t, `{"id":"1","type":4,"guild_id":"5","channel_id":"7","member":{"permissions":"0","user":{"id":"1","username":"a"}},
		"data":{"id":"3","name":"tickets","type":1,"options":[{"name":"long","type":4,"value":"2","focused":true}]}}`)
	req, focused, _ := toRequest(i)
	if req.Type != commands.AutocompleteRequest || req.Focused != "long" || req.Opt("long") != "2" || focused != discordgo.ApplicationCommandOptionInteger {
		t.Errorf("request %+v, focused type %d", req, focused)
	}
}

func TestComponentInDM(t *testing.T) {
	t.Parallel()
	i := interaction(t, `{"id":"1","type":3,"channel_id":"9","user":{"id":"3","username":"carol"},
		"data":{"custom_id":"keep:g:4:","component_type":3,"values":["0","2"]}}`)
	req, _, ok := toRequest(i)
	if !ok || !req.DM || req.Type != commands.ComponentRequest || req.CustomID != "keep:g:4:" || len(req.Values) != 2 || req.UserName != "carol" {
		t.Errorf("request %+v", req)
	}
}

func TestPingIsNotARequest(t *testing.T) {
	t.Parallel()
	if _, _, ok := toRequest(interaction(t, `{"id":"1","type":1}`)); ok {
		t.Error("a ping became a request")
	}
}
