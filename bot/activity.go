package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// The bot's part of the Activity (the board as a live page, web/):
// answering an interaction by opening the Activity, and confirming an
// activity instance with the bot token.

// callbackLaunchActivity opens the application's Activity for the user
// (LAUNCH_ACTIVITY); it can only be an interaction's first answer.
const callbackLaunchActivity = 12

var _ commands.ActivityLauncher = (*responder)(nil)

// LaunchActivity answers the interaction with LAUNCH_ACTIVITY and returns
// the instance Discord opened or joined (asked for with with_response).
func (r *responder) LaunchActivity() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	if r.state != pending {
		return "", errors.New("bot: the interaction was already answered, and an Activity can only be opened by the first answer")
	}
	r.state = answered
	body := struct {
		Type int `json:"type"`
	}{callbackLaunchActivity}
	resp, err := r.b.sendInteraction("POST", discordgo.EndpointInteractionResponse(r.i.ID, r.i.Token)+"?with_response=true", body, nil)
	if err != nil {
		return "", err
	}
	var out struct {
		Resource struct {
			ActivityInstance struct {
				ID string `json:"id"`
			} `json:"activity_instance"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(resp, &out); err != nil {
		return "", fmt.Errorf("bot: reading the LAUNCH_ACTIVITY answer: %w", err)
	}
	if out.Resource.ActivityInstance.ID == "" {
		return "", errors.New("bot: Discord named no activity instance for LAUNCH_ACTIVITY")
	}
	return out.Resource.ActivityInstance.ID, nil
}

// ActivityInstance asks Discord about an activity instance of the
// application (GET /applications/{app}/activity-instances/{id}, bot token
// only): where it runs and who is in it. An unknown instance is
// commands.ErrUnknownInstance.
func (b *Bot) ActivityInstance(ctx context.Context, id string) (commands.ActivityInstance, error) {
	appID := b.AppID()
	if appID == "" {
		return commands.ActivityInstance{}, errors.New("bot: not connected yet")
	}
	base := discordgo.EndpointApplication(appID) + "/activity-instances/"
	resp, err := b.send("GET", base+url.PathEscape(id), base, nil, nil)
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusNotFound {
		return commands.ActivityInstance{}, commands.ErrUnknownInstance
	}
	if err != nil {
		return commands.ActivityInstance{}, err
	}
	var in struct {
		InstanceID string `json:"instance_id"`
		Location   struct {
			ChannelID string `json:"channel_id"`
			GuildID   string `json:"guild_id"`
		} `json:"location"`
		Users []string `json:"users"`
	}
	if err := json.Unmarshal(resp, &in); err != nil {
		return commands.ActivityInstance{}, err
	}
	return commands.ActivityInstance{ID: in.InstanceID, Guild: in.Location.GuildID, Channel: in.Location.ChannelID, Users: in.Users}, nil
}
