package bot

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bwmarrin/discordgo"
)

// Discord owns one of the application's global commands: the Entry Point
// (type 4, "launch"), which it creates when Activities are turned on in the
// Developer Portal. A bulk overwrite of the global commands that leaves it
// out is refused as a whole (400, code 50240), which would register no
// slash command at all. So the global registration reads the commands
// first and carries the Entry Point through; with the live page on, its
// handler becomes APP_HANDLER, so that pressing it in the App Launcher
// reaches the bot, which opens the page on the channel's game.

const (
	commandTypeEntryPoint   = 4
	entryPointAppHandler    = 1 // the app answers, with LAUNCH_ACTIVITY
	entryPointDiscordLaunch = 2 // Discord launches the Activity itself
)

// entryPointFields are the fields of an Entry Point a bulk overwrite sets.
var entryPointFields = []string{"id", "type", "name", "name_localizations", "description", "description_localizations",
	"default_member_permissions", "dm_permission", "contexts", "integration_types", "handler"}

// heldEntryPoints returns the global Entry Point commands as Discord holds
// them, with the fields a bulk overwrite sets.
func (b *Bot) heldEntryPoints(ctx context.Context, appID string) ([]map[string]json.RawMessage, error) {
	url := discordgo.EndpointApplicationGlobalCommands(appID)
	resp, err := b.send(ctx, "GET", url, url, nil, nil)
	if err != nil {
		return nil, err
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(resp, &list); err != nil {
		return nil, fmt.Errorf("reading the global commands: %w", err)
	}
	var out []map[string]json.RawMessage
	for _, c := range list {
		var typ int
		json.Unmarshal(c["type"], &typ)
		if typ != commandTypeEntryPoint {
			continue
		}
		keep := map[string]json.RawMessage{}
		for _, f := range entryPointFields {
			if v, ok := c[f]; ok {
				keep[f] = v
			}
		}
		out = append(out, keep)
	}
	return out, nil
}

// entryPoints returns the global Entry Point commands as a bulk overwrite
// must carry them: with the bot's handler when the live page is on.
func (b *Bot) entryPoints(ctx context.Context, appID string) ([]map[string]json.RawMessage, error) {
	eps, err := b.heldEntryPoints(ctx, appID)
	if err != nil || !b.cfg.Activity {
		return eps, err
	}
	for _, ep := range eps {
		ep["handler"] = json.RawMessage(fmt.Sprint(entryPointAppHandler))
	}
	return eps, nil
}

// registerGlobal bulk-overwrites the global commands with cmds and the
// Entry Point Discord made, if any.
func (b *Bot) registerGlobal(ctx context.Context, appID string, cmds []*discordgo.ApplicationCommand) ([]*discordgo.ApplicationCommand, error) {
	eps, err := b.entryPoints(ctx, appID)
	if err != nil {
		return nil, err
	}
	body := make([]any, 0, len(cmds)+len(eps))
	for _, c := range cmds {
		body = append(body, c)
	}
	for _, ep := range eps {
		body = append(body, ep)
	}
	url := discordgo.EndpointApplicationGlobalCommands(appID)
	raw, err := b.send(ctx, "PUT", url, url, body, nil)
	if err != nil {
		return nil, err
	}
	// The answer lists every command with its id (the Entry Point too,
	// whose fields discordgo's type ignores).
	var got []*discordgo.ApplicationCommand
	if err := json.Unmarshal(raw, &got); err != nil {
		return nil, fmt.Errorf("reading the registered commands: %w", err)
	}
	return got, nil
}

// checkEntryPoint reports the Entry Point command, for doctor.
func (b *Bot) checkEntryPoint(appID string) Finding {
	const check = "Entry Point"
	// Discord's handler, as held: not the one a registration would set.
	eps, err := b.heldEntryPoints(context.Background(), appID)
	if err != nil {
		return Finding{false, check, "listing the global commands: " + err.Error(), ""}
	}
	var handler int
	if len(eps) > 0 {
		json.Unmarshal(eps[0]["handler"], &handler)
	}
	switch {
	case !b.cfg.Activity && len(eps) == 0:
		return Finding{true, check, "none (Activities are off in the Developer Portal; the live page is off too)", ""}
	case !b.cfg.Activity:
		return Finding{true, check, "Discord's, kept when the commands are registered (the live page is off: DISCORD_CLIENT_SECRET is not set)", ""}
	case len(eps) == 0:
		return Finding{false, check, "missing: Activities are not turned on for this application",
			"Developer Portal → your application → Activities → Settings → Enable Activities (see docs/activity.md), then start the bot once"}
	default:
		return Finding{true, check, fmt.Sprintf("present; its handler is set to the bot's (APP_HANDLER) when the bot starts (now %d%s)", handler, handlerName(handler)), ""}
	}
}

// handlerName names an Entry Point handler Discord holds, for doctor.
func handlerName(h int) string {
	switch h {
	case entryPointAppHandler:
		return ", APP_HANDLER"
	case entryPointDiscordLaunch:
		return ", DISCORD_LAUNCH_ACTIVITY: Discord opens the page itself"
	}
	return ""
}
