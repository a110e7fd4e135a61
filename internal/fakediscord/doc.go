// Package fakediscord is an in-process fake of Discord for end-to-end tests of the bot: a
// REST API and a gateway on 127.0.0.1 that the bot's real clients talk to (discordgo for
// REST, the bot's own for the gateway; a bare discordgo session works too), and Go methods
// with which a test plays the users.
//
// # Pointing the bot at it
//
// Start one per test and send discordgo's requests to it with an http.RoundTripper on the
// session's client; discordgo itself is untouched. The bot does it with DISCORD_API_URL =
// srv.BaseURL() ("http://127.0.0.1:PORT/"); a bare session with srv.HTTPClient(), which turns
// https://discord.com/api/v9/X into srv.APIURL()+X (".../api/v10/X"):
//
//	srv := fakediscord.New(t)           // stopped when the test ends
//	dg, _ := discordgo.New(srv.Token()) // "Bot fake-bot-token"
//	dg.Client = srv.HTTPClient()
//	dg.Open() // GET /api/v10/gateway, then the websocket
//	srv.WaitReady(0)
//
// When the test ends, close the session before the fake stops (New registers the fake's
// clean-up first, so a later t.Cleanup runs before it), and set ShouldReconnectOnError to
// false under the session's lock first: discordgo's heartbeat goroutine can otherwise start a
// reconnect loop after Close that outlives the test.
//
// The fake serves REST under /api/v10/, the gateway at srv.GatewayURL() (ws://127.0.0.1:PORT/ws,
// returned by GET /gateway and /gateway/bot) and uploaded files under /attachments/. Every
// operation of Discord's description is a net/http route pattern, named by its OpenAPI path
// template, like "/channels/{channel_id}/messages"; RequestsTo and Fault use
// those names. Requests for routes the fake does not implement are answered 404 and listed by
// UnhandledRequests.
//
// # Playing users
//
//	alice := srv.CreateUser("alice")
//	guild := srv.CreateGuild("Rail Club")
//	table := srv.CreateTextChannel(guild.ID, "table")
//	h, err := srv.RunCommand(alice.ID, table.ID, "ttr",
//		fakediscord.Subcommand("new", fakediscord.StringOption("map", "europe")))
//	cb, err := h.WaitCallback()                       // type 4/5/6/7/8/12 and its data
//	board, err := srv.WaitMessage(table.ID, func(m fakediscord.Message) bool {
//		_, ok := m.Component("join"); return ok
//	})
//	h2, err := srv.ClickButton(alice.ID, board.ID, "join") // click by custom_id
//	png, err := board.Attachments[0].Image()                 // decode an attached board
//
// UserDM(userID) gives the DM channel in which a user can run commands too.
// Interactions are checked the way a Discord client would: the command must be registered
// with matching options, a button must exist in the message's current version and not be
// disabled, select values must be among the options. Each returns an InteractionHandle to
// await the callback, the @original message (after edits) and follow-ups. Autocomplete and
// SelectValues cover the other interaction types. The bot opens no modals: a modal callback
// is checked against Discord's limits like any other, and nothing submits one.
//
// # What is recorded and checked
//
// Every request is recorded (method, path, headers, raw body, JSON document, uploaded files)
// and checked as Discord checks it: against Discord's OpenAPI description (a compressed copy
// in testdata/, embedded, validated with a JSON Schema 2020-12 library) and against the limits
// Discord documents beyond it (limits.go; docs/discord-limits.md lists them): real Unicode
// emoji, five action rows, unique custom ids, 2000 characters of content, 6000 of embeds,
// command naming, 10 MiB per file and more. A request that breaks one is refused the way
// Discord refuses it: 400 {"code": 50035, "message": "Invalid Form Body", "errors": {...}}
// with Discord's error code under the field's path (413/40005 for a file too large), and
// recorded; srv.CheckClean(t) fails the test on any such request or unimplemented route.
// Messages are kept per channel with embeds, components, attachments (with bytes), the
// ephemeral flag and who may see them; PublicHistory keeps every public version, and
// PublicLeaks(secrets...) finds hidden information that reached a public message.
//
// # Threads
//
// The bot starts threads from a message (a public thread with the message's id) or without one
// (private unless it asks for type 11), archives, locks and renames them with Modify Channel,
// and posts in them like in any channel, as Discord allows it: a thread takes its parent's
// permissions (Send Messages in Threads instead of Send Messages), a post unarchives it unless
// it is locked. A test reads them with Threads(parentID) and Channel(id) (Archived, Locked,
// OwnerID), starts one as a person with CreateThread, and archives or closes one with
// ArchiveThread; RunCommand and ClickButton work in a thread like in a channel.
//
// Private threads (CreatePrivateThread, AddThreadMember) are seen by their members and
// moderators only: the bot may not post in one it was not added to (403/50001), and a person
// outside it cannot use commands there.
//
// # What else Discord refuses
//
// Every interaction carries app_permissions computed from the channel's overwrites (a
// thread's from its parent; in a DM, what Discord documents for DMs) and its channel with its
// type. A nonce sent with enforce_nonce is deduplicated per author, in every channel: a
// repeat within five minutes gets the first message back, even deleted, never a new one. The
// first follow-up after a deferred message (callback 5) edits the loading message and
// ignores the ephemeral flag, as Discord documents. Interaction tokens live 15 minutes
// (401/50027 after). A global command is offered only in the contexts it names. A command's
// names, descriptions and values hold at most 8000 characters, each field counted by its
// longest translation.
//
// # Time
//
// The fake keeps Discord's clock (Now): its ids, the Date header of every answer, token and
// nonce lifetimes follow it. Options.ClockOffset sets it apart from the machine's, as a bot
// host whose clock drifted sees Discord; AdvanceClock moves it, past a token's 15 minutes say.
//
// # Faults and the gateway
//
// RateLimit answers a route with 429 (body retry_after, Retry-After and X-RateLimit-*
// headers) N times; InjectFault returns any Discord error; FailDMsTo makes DMs to a user
// fail with 403/50007, RefuseDMsTo with any of Discord's refusals (50033, 20009, 40003...). DropConnection, SendReconnect and InvalidSession
// (op 9, resumable or not) exercise reconnects: the gateway keeps each session's events and
// replays the missed ones on RESUME. IDENTIFY with shard [id, count] gets the guilds of that
// shard ((guild_id >> 22) % count), and each guild's interactions go to its shard; DMs go to
// shard 0.
//
// Logins are rationed as Discord rations them (logins.go): GET /gateway/bot gives the
// recommended shards (Options.RecommendedShards) and session_start_limit (total, remaining,
// reset_after, max_concurrency); an IDENTIFY sooner than Options.IdentifyInterval (5 s) after
// the previous one of its bucket (shard_id % max_concurrency) gets op 9; one with no session
// start left ends every session (4004) and resets the token; a shard holding more than
// Options.MaxGuildsPerShard guilds is closed with 4011, an invalid shard with 4010. READY's
// resume_gateway_url (ResumeGatewayURL) differs from GatewayURL. GatewayFaults lists what
// Discord punishes (a too-early IDENTIFY, one past the limit, a RESUME not on
// resume_gateway_url), and CheckClean fails a test on any.
//
// # Rate limits
//
// Every REST answer carries Discord's X-RateLimit-Limit, -Remaining, -Reset, -Reset-After and
// -Bucket headers for its route's bucket (per top-level resource: channel, guild, webhook,
// interaction); Options.RouteLimit enforces the buckets (429, scope user). Options.GlobalLimit
// enforces Discord's global limit (50 a second for a bot): past it, 429 with "global": true,
// X-RateLimit-Global and X-RateLimit-Scope: global; interaction endpoints (the callback and
// the interaction's webhook) are exempt, as on Discord. InvalidRequests counts the 401, 403
// and 429 answers Discord holds against an IP (10,000 in 10 minutes ban it), RateLimited the
// 429s and GlobalRequests the requests that fall under the global limit (ratelimits.go).
//
// Waiting never sleeps blindly: WaitFor re-checks a condition whenever the fake's state
// changes, bounded by Options.WaitTimeout.
package fakediscord
