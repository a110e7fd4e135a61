package ops

import (
	"fmt"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"conductor/bot"
	"conductor/store"
	"conductor/web"
)

// Config is what `conductor run` reads from the environment
// (docs/configuration.md).
type Config struct {
	Token    string // DISCORD_TOKEN
	GuildID  string // DISCORD_GUILD_ID: register the commands on this server only
	APIBase  string // DISCORD_API_URL: Discord's address (tests use a fake)
	DBPath   string // CONDUCTOR_DB: a bbolt file, or postgres://… (store.IsPostgres)
	HTTPAddr string // CONDUCTOR_HTTP: address of GET /healthz; "" for none
	// BackupToken (CONDUCTOR_BACKUP_TOKEN) is the secret conductor backup
	// presents to get a hot copy over HTTP; "" turns /backup off.
	BackupToken string
	// Shards (CONDUCTOR_SHARDS, or CONDUCTOR_SHARD_ID) are the shards this
	// process runs, nil: all; ShardCount (CONDUCTOR_SHARD_COUNT) the bot's, 0:
	// the count Discord recommends (shards.go).
	Shards     *bot.ShardRange
	ShardCount int
	// Lease (CONDUCTOR_LEASE) is how long a fleet's process holds its
	// shards without renewing them (fleet.go); 0: DefaultLease.
	Lease time.Duration
	// Notices are said once at start (a setting read under its new name).
	Notices  []string
	LogLevel slog.Level
	Decks    []string // --tickets files
	// LobbiesPerMember, LobbiesPerChannel (CONDUCTOR_LOBBIES_PER_MEMBER,
	// CONDUCTOR_LOBBIES_PER_CHANNEL) cap the tables still forming; 0 means
	// the default, -1 none. LobbyExpiry (CONDUCTOR_LOBBY_EXPIRY) closes a
	// lobby nobody changed for that long; -1 never.
	LobbiesPerMember, LobbiesPerChannel int
	LobbyExpiry                         time.Duration
	// GlobalRate (CONDUCTOR_GLOBAL_RATE): REST requests a second this
	// process may make under Discord's global rate limit; 0: the bot's
	// default (a fleet's: the pace shared through the database, pace.go);
	// -1 (off): none, behind a REST proxy that paces them.
	GlobalRate float64
	// The live page (web/): ClientSecret (DISCORD_CLIENT_SECRET) turns it
	// on; it listens on WebAddr (CONDUCTOR_WEB) and is reached from outside
	// at PublicURL (CONDUCTOR_PUBLIC_URL, for replay links).
	ClientSecret, WebAddr, PublicURL string
	// ClientIPHeader (CONDUCTOR_CLIENT_IP_HEADER) names the header the
	// proxy in front of the live page writes the client's address in;
	// TrustedProxies (CONDUCTOR_TRUSTED_PROXIES) are the addresses it is
	// believed from (default: loopback and private ones).
	ClientIPHeader string
	TrustedProxies []netip.Prefix
}

// DefaultWebAddr is where the live page listens when DISCORD_CLIENT_SECRET
// is set and CONDUCTOR_WEB is not.
const DefaultWebAddr = ":8081"

// ConfigError is a setting with a value that cannot work: bad input, which
// the message says how to fix.
type ConfigError struct{ error }

func (e ConfigError) Unwrap() error { return e.error }

func badSetting(format string, args ...any) error {
	return ConfigError{fmt.Errorf(format, args...)}
}

// NoTokenError is the error of a command that needs DISCORD_TOKEN: it
// says how to get a token, how to run the command with it (Command: ""
// for the bot, "doctor"), and how to play without one, naming the program
// as the user started it (Program: "conductor", "go run ."; "" reads
// conductor).
type NoTokenError struct{ Program, Command string }

func (e *NoTokenError) Error() string {
	program := e.Program
	if program == "" {
		program = "conductor"
	}
	return "DISCORD_TOKEN is not set. Create a bot at https://discord.com/developers/applications " +
		"(see \"Making a Discord application\" in README.md), then run `DISCORD_TOKEN=... " + strings.TrimSpace(program+" "+e.Command) + "`. " +
		"To try a game without Discord, run `" + program + " play`."
}

// ConfigFromEnv reads the configuration from environment variables; decks
// are the --tickets files.
func ConfigFromEnv(getenv func(string) string, decks []string) (Config, error) {
	cfg := Config{
		Token:    strings.TrimSpace(getenv("DISCORD_TOKEN")),
		GuildID:  strings.TrimSpace(getenv("DISCORD_GUILD_ID")),
		APIBase:  strings.TrimSpace(getenv("DISCORD_API_URL")),
		DBPath:   getenv("CONDUCTOR_DB"),
		HTTPAddr: getenv("CONDUCTOR_HTTP"),
		Decks:    decks,

		BackupToken: strings.TrimSpace(getenv("CONDUCTOR_BACKUP_TOKEN")),

		ClientSecret: strings.TrimSpace(getenv("DISCORD_CLIENT_SECRET")),
		WebAddr:      strings.TrimSpace(getenv("CONDUCTOR_WEB")),
		PublicURL:    strings.TrimSpace(getenv("CONDUCTOR_PUBLIC_URL")),

		ClientIPHeader: strings.TrimSpace(getenv("CONDUCTOR_CLIENT_IP_HEADER")),
	}
	if cfg.Token == "" {
		return cfg, &NoTokenError{}
	}
	if cfg.DBPath == "" {
		cfg.DBPath = "conductor.db"
	}
	var err error
	if cfg.Shards, cfg.ShardCount, cfg.Notices, err = shardSettings(getenv, store.IsPostgres(cfg.DBPath)); err != nil {
		return cfg, err
	}
	if cfg.LobbiesPerMember, err = envLimit(getenv, "CONDUCTOR_LOBBIES_PER_MEMBER"); err != nil {
		return cfg, err
	}
	if cfg.LobbiesPerChannel, err = envLimit(getenv, "CONDUCTOR_LOBBIES_PER_CHANNEL"); err != nil {
		return cfg, err
	}
	if v := strings.TrimSpace(getenv("CONDUCTOR_LOBBY_EXPIRY")); v != "" {
		d, err := time.ParseDuration(v)
		switch {
		case err != nil || d < 0:
			return cfg, badSetting("CONDUCTOR_LOBBY_EXPIRY=%q: give a duration such as 24h or 90m (0: never)", v)
		case d == 0:
			cfg.LobbyExpiry = -1
		default:
			cfg.LobbyExpiry = d
		}
	}
	if v := strings.TrimSpace(getenv("CONDUCTOR_GLOBAL_RATE")); strings.EqualFold(v, "off") {
		cfg.GlobalRate = -1 // a shared REST proxy paces every process's requests
	} else if v != "" {
		if cfg.GlobalRate, err = strconv.ParseFloat(v, 64); err != nil || cfg.GlobalRate < 1 {
			return cfg, badSetting("CONDUCTOR_GLOBAL_RATE=%q: give the requests a second Discord allows this process (50 for a bot, shared by the processes that run its shards), or off behind a REST proxy that paces them (nirn-proxy)", v)
		}
	}
	if v := strings.TrimSpace(getenv("CONDUCTOR_LEASE")); v != "" {
		if cfg.Lease, err = time.ParseDuration(v); err != nil || cfg.Lease < time.Second {
			return cfg, badSetting("CONDUCTOR_LEASE=%q: give how long a process holds its shards without renewing, a second or more, such as 45s (a dead process's shards are served again after about that long)", v)
		}
	}
	if err := CheckBackupToken(cfg.BackupToken); err != nil {
		return cfg, ConfigError{err}
	}
	if v := strings.TrimSpace(getenv("CONDUCTOR_TRUSTED_PROXIES")); v != "" {
		if cfg.TrustedProxies, err = web.ParseTrustedProxies(v); err != nil {
			return cfg, badSetting("CONDUCTOR_TRUSTED_PROXIES: %v: give addresses and prefixes separated by commas, such as 10.0.0.0/8,fd00::/8", err)
		}
		if cfg.ClientIPHeader == "" {
			return cfg, badSetting("CONDUCTOR_TRUSTED_PROXIES without CONDUCTOR_CLIENT_IP_HEADER: name the header those proxies write the client's address in (on fly.io: Fly-Client-IP)")
		}
	}
	if cfg.ClientIPHeader != "" && !validHeaderName(cfg.ClientIPHeader) {
		return cfg, badSetting("CONDUCTOR_CLIENT_IP_HEADER=%q: give a header name, such as Fly-Client-IP", cfg.ClientIPHeader)
	}
	if err := cfg.checkWeb(); err != nil {
		return cfg, err
	}
	switch strings.ToLower(strings.TrimSpace(getenv("LOG_LEVEL"))) {
	case "", "info":
		cfg.LogLevel = slog.LevelInfo
	case "debug":
		cfg.LogLevel = slog.LevelDebug
	case "warn", "warning":
		cfg.LogLevel = slog.LevelWarn
	case "error":
		cfg.LogLevel = slog.LevelError
	default:
		return cfg, badSetting("LOG_LEVEL %q: use debug, info, warn or error", getenv("LOG_LEVEL"))
	}
	return cfg, nil
}

// validHeaderName: letters, digits and dashes, as header names are.
func validHeaderName(h string) bool {
	for _, r := range h {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return h != ""
}

// checkWeb completes and checks the live page's settings.
func (cfg *Config) checkWeb() error {
	if cfg.ClientSecret == "" {
		return nil
	}
	// Across processes the page's sessions, launches and moves go through
	// the database (docs/activity.md, "Several processes"): PostgreSQL's.
	if !cfg.allShards() && !store.IsPostgres(cfg.DBPath) {
		return badSetting("DISCORD_CLIENT_SECRET with CONDUCTOR_SHARDS=%v on a bbolt file: the live board needs every shard in this process "+
			"or a PostgreSQL database the processes share (Discord maps the Activity to one address); "+
			"run all the shards in one process (CONDUCTOR_SHARDS=all), share a PostgreSQL CONDUCTOR_DB, or unset DISCORD_CLIENT_SECRET on every process", *cfg.Shards)
	}
	if cfg.WebAddr == "" {
		cfg.WebAddr = DefaultWebAddr
	}
	return nil
}

// envLimit reads a cap from the environment: empty is the default (0), 0
// no cap (-1).
func envLimit(getenv func(string) string, key string) (int, error) {
	if strings.TrimSpace(getenv(key)) == "" {
		return 0, nil
	}
	n, err := envInt(getenv, key, 0)
	if err != nil || n < 0 {
		return 0, badSetting("%s=%q: give a whole number, 0 for no limit", key, getenv(key))
	}
	if n == 0 {
		return -1, nil
	}
	return n, nil
}

// envInt reads a whole number from the environment.
func envInt(getenv func(string) string, key string, def int) (int, error) {
	v := strings.TrimSpace(getenv(key))
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, badSetting("%s=%q is not a whole number", key, v)
	}
	return n, nil
}
