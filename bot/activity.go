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
// The interaction counts as answered only once Discord took the launch: on
// an error it is still unanswered, and the caller's reply is its first
// answer (should Discord have taken a launch whose answer was lost, that
// reply is refused as a second answer: the Activity is open). A launch
// taken whose answer names no instance returns "" and no error.
func (r *responder) LaunchActivity() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
	if r.state != pending {
		return "", errors.New("bot: the interaction was already answered, and an Activity can only be opened by the first answer")
	}
	body := struct {
		Type int `json:"type"`
	}{callbackLaunchActivity}
	resp, err := r.b.sendInteraction(r.ctx, "POST", discordgo.EndpointInteractionResponse(r.i.ID, r.i.Token)+"?with_response=true", body, nil)
	if err != nil {
		return "", err
	}
	r.state = answered
	inst, err := launchedInstance(resp)
	if err != nil {
		// The Activity is open; the page places an instance it was not
		// told of by the channel Discord says it runs in.
		r.b.log.Warn("the Activity was launched, but its instance is unknown", "id", r.i.ID, "err", err)
		return "", nil
	}
	return inst, nil
}

// launchedInstance reads the instance an answer to LAUNCH_ACTIVITY names.
// Discord names it in two places, each optional in its pages: the
// resource's activity_instance ("Only present if type is LAUNCH_ACTIVITY",
// and required there by the OpenAPI description), preferred, and the
// interaction's activity_instance_id. Two different ids name none for sure.
func launchedInstance(resp []byte) (string, error) {
	var out struct {
		Interaction struct {
			ActivityInstanceID string `json:"activity_instance_id"`
		} `json:"interaction"`
		Resource struct {
			ActivityInstance struct {
				ID string `json:"id"`
			} `json:"activity_instance"`
		} `json:"resource"`
	}
	if err := json.Unmarshal(resp, &out); err != nil {
		return "", fmt.Errorf("bot: reading the LAUNCH_ACTIVITY answer: %w", err)
	}
	res, in := out.Resource.ActivityInstance.ID, out.Interaction.ActivityInstanceID
	switch {
	case res != "" && in != "" && res != in:
		return "", fmt.Errorf("bot: the LAUNCH_ACTIVITY answer names two instances, %q and %q", res, in)
	case res != "":
		return res, nil
	case in != "":
		return in, nil
	}
	return "", errors.New("bot: Discord named no activity instance for LAUNCH_ACTIVITY")
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
	resp, err := b.send(ctx, "GET", base+url.PathEscape(id), base, nil, nil)
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
