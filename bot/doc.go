// Package bot is Conductor's Discord transport: gateway shards that turn
// each INTERACTION_CREATE into a commands.Request answered by a
// commands.Responder, the registration of the slash commands, and the
// board pictures and DMs it posts for the commands.Service (Bot implements
// commands.Poster).
//
// The gateway client is the bot's own (gateway.go: one connection per
// shard, logging in through an IdentifyGate, identify.go); discordgo is the
// REST client. Request bodies are built here rather than with discordgo's
// message structs, whose zero values (null arrays, empty attachment URLs)
// do not match Discord's OpenAPI description; discordgo still does the
// sending, its rate limiting and its retries.
package bot
