// Package bot is Conductor's Discord transport: a discordgo session that
// registers the slash commands, turns each INTERACTION_CREATE into a
// commands.Request answered by a commands.Responder, and posts board
// pictures and DMs for the commands.Service (Bot implements
// commands.Poster).
//
// Request bodies are built here rather than with discordgo's message
// structs, whose zero values (null arrays, empty attachment URLs) do not
// match Discord's OpenAPI description; discordgo still does the sending,
// its rate limiting and its retries, and runs the gateway.
package bot
