package bot

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// DefaultAPIBase is Discord's own address.
const DefaultAPIBase = "https://discord.com/"

// APIVersion is the REST and gateway version Conductor speaks: the one
// Discord's OpenAPI description documents.
const APIVersion = "10"

// UseAPI points discordgo at base (like "http://127.0.0.1:PORT/") and API
// version. discordgo computes its string endpoints once, at package init,
// from EndpointDiscord and APIVersion; the endpoint functions read those
// strings when called, so rebuilding the strings redirects every request.
// It does nothing when discordgo already uses base and version. It changes
// package variables: call it before any session is opened.
func UseAPI(base, version string) {
	if base == "" {
		base = DefaultAPIBase
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	if base == discordgo.EndpointDiscord && version == discordgo.APIVersion {
		return
	}
	discordgo.APIVersion = version
	discordgo.EndpointDiscord = base
	api := base + "api/v" + version + "/"
	discordgo.EndpointAPI = api
	discordgo.EndpointGuilds = api + "guilds/"
	discordgo.EndpointChannels = api + "channels/"
	discordgo.EndpointUsers = api + "users/"
	discordgo.EndpointGateway = api + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = api + "webhooks/"
	discordgo.EndpointStickers = api + "stickers/"
	discordgo.EndpointStageInstances = api + "stage-instances"
	discordgo.EndpointSKUs = api + "skus"
	// discordgo's own definitions have these doubled slashes.
	discordgo.EndpointVoice = api + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = api + "/sticker-packs"
	discordgo.EndpointGuildCreate = api + "guilds"
	discordgo.EndpointApplications = api + "applications"
	discordgo.EndpointOAuth2 = api + "oauth2/"
	discordgo.EndpointOAuth2Applications = discordgo.EndpointOAuth2 + "applications"
	discordgo.EndpointOauth2 = discordgo.EndpointOAuth2
	discordgo.EndpointOauth2Applications = discordgo.EndpointOAuth2Applications
}
