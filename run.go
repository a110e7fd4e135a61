package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"conductor/bot"
	"conductor/commands"
	"conductor/imaging"
	"conductor/ops"
	"conductor/store"
)

// runConfig is what `conductor run` reads from the environment.
type runConfig struct {
	Token    string // DISCORD_TOKEN
	GuildID  string // DISCORD_GUILD_ID: register the commands on this server only
	APIBase  string // DISCORD_API_URL: Discord's address (tests use a fake)
	DBPath   string // CONDUCTOR_DB
	HTTPAddr string // CONDUCTOR_HTTP: address of GET /healthz; "" for none
	// BackupToken (CONDUCTOR_BACKUP_TOKEN) is the secret conductor backup
	// presents to get a hot copy over HTTP; "" turns /backup off.
	BackupToken string
	// ShardID, ShardCount: CONDUCTOR_SHARD_ID, CONDUCTOR_SHARD_COUNT.
	ShardID, ShardCount int
	LogLevel            slog.Level
	Decks               []string // --tickets files
	// LobbiesPerMember, LobbiesPerChannel (CONDUCTOR_LOBBIES_PER_MEMBER,
	// CONDUCTOR_LOBBIES_PER_CHANNEL) cap the tables still forming; 0 means
	// the default, -1 none. LobbyExpiry (CONDUCTOR_LOBBY_EXPIRY) closes a
	// lobby nobody changed for that long; -1 never.
	LobbiesPerMember, LobbiesPerChannel int
	LobbyExpiry                         time.Duration
	// GlobalRate (CONDUCTOR_GLOBAL_RATE): REST requests a second this
	// process may make under Discord's global rate limit; 0: the bot's default.
	GlobalRate float64
	// The live page (web/): ClientSecret (DISCORD_CLIENT_SECRET) turns it
	// on; it listens on WebAddr (CONDUCTOR_WEB) and is reached from outside
	// at PublicURL (CONDUCTOR_PUBLIC_URL, for replay links).
	ClientSecret, WebAddr, PublicURL string

	// started, when set, is called once the bot is serving, with the
	// health server's address (tests).
	started func(healthAddr string)
}

// errNoToken explains how to get a token and how to play without one.
var errNoToken = noTokenError("conductor")

// noTokenError says how to get a token, and how to run command (the
// bot, or `conductor doctor`) with it; and how to play without one.
func noTokenError(command string) error {
	return errors.New("DISCORD_TOKEN is not set. Create a bot at https://discord.com/developers/applications " +
		"(see \"Making a Discord application\" in README.md), then run DISCORD_TOKEN=... " + command + ". " +
		"To try a game without Discord, run: conductor play")
}

// runConfigFrom reads the configuration from environment variables.
func runConfigFrom(getenv func(string) string, decks []string) (runConfig, error) {
	cfg := runConfig{
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
	}
	if cfg.Token == "" {
		return cfg, errNoToken
	}
	if cfg.DBPath == "" {
		cfg.DBPath = "conductor.db"
	}
	var err error
	if cfg.ShardCount, err = envInt(getenv, "CONDUCTOR_SHARD_COUNT", 1); err != nil {
		return cfg, err
	}
	if cfg.ShardID, err = envInt(getenv, "CONDUCTOR_SHARD_ID", 0); err != nil {
		return cfg, err
	}
	if cfg.ShardCount < 1 || cfg.ShardID < 0 || cfg.ShardID >= cfg.ShardCount {
		return cfg, badInput("CONDUCTOR_SHARD_ID=%d with CONDUCTOR_SHARD_COUNT=%d: the id must be between 0 and the count minus one", cfg.ShardID, cfg.ShardCount)
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
			return cfg, badInput("CONDUCTOR_LOBBY_EXPIRY=%q: give a duration such as 24h or 90m (0: never)", v)
		case d == 0:
			cfg.LobbyExpiry = -1
		default:
			cfg.LobbyExpiry = d
		}
	}
	if v := strings.TrimSpace(getenv("CONDUCTOR_GLOBAL_RATE")); v != "" {
		if cfg.GlobalRate, err = strconv.ParseFloat(v, 64); err != nil || cfg.GlobalRate < 1 {
			return cfg, badInput("CONDUCTOR_GLOBAL_RATE=%q: give the requests a second Discord allows this process (50 for a bot, divided among its shards)", v)
		}
	}
	if err := ops.CheckBackupToken(cfg.BackupToken); err != nil {
		return cfg, usageError{err}
	}
	if err := checkWebConfig(&cfg); err != nil {
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
		return cfg, badInput("LOG_LEVEL %q: use debug, info, warn or error", getenv("LOG_LEVEL"))
	}
	return cfg, nil
}

// turnTimerEvery is the longest the deadlines' loop sleeps (it wakes for
// the next deadline, and drops the tables left idle).
const turnTimerEvery = 30 * time.Second

// shutdownGrace bounds the wait for the moves in flight on shutdown.
const shutdownGrace = 30 * time.Second

// errGatewayLost ends serve when the gateway stays down too long, so that
// the platform restarts the process (gracefully, exit 1).
var errGatewayLost = fmt.Errorf("the Discord gateway stayed down for %v", ops.GatewayDownLimit)

// serve runs the Discord bot until ctx ends (SIGINT, SIGTERM) or the
// gateway stays down too long, then stops taking interactions, finishes
// the moves in flight and closes the gateway and the database.
func serve(ctx context.Context, cfg runConfig, stderr io.Writer) error {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	cat, err := catalog(cfg.Decks)
	if err != nil {
		return err
	}
	// A volume mounted for another user is the usual cause: say so
	// before bbolt's bare "permission denied".
	if warning, err := ops.CheckDatabaseWritable(cfg.DBPath); err != nil {
		return err
	} else if warning != "" {
		log.Warn(warning)
	}
	st, err := store.Open(cfg.DBPath, nil)
	if err != nil {
		return err // the store says what to do about a locked file
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	// Games of servers this shard does not serve would wait forever:
	// say so loudly (and refuse a file a reshard left half done).
	shard, err := ops.CheckShard(st, store.ShardIdentity{ID: cfg.ShardID, Count: cfg.ShardCount})
	if err != nil {
		return err
	}
	if problem := shard.Problem(); problem != "" {
		log.Error(problem, "foreign_servers", shard.ForeignServers, "foreign_live_games", shard.ForeignLive,
			"foreign_archived_games", shard.ForeignArchived, "database", cfg.DBPath)
	}
	b, err := bot.New(bot.Config{Token: cfg.Token, GuildID: cfg.GuildID, APIBase: cfg.APIBase,
		Commands: commands.Definitions(cat.IDs()), ShardID: cfg.ShardID, ShardCount: cfg.ShardCount, GlobalRate: cfg.GlobalRate, Logger: log,
		Activity: cfg.ClientSecret != ""})
	if err != nil {
		return err
	}
	renderer := imaging.NewRenderer()
	page, err := newWebPage(cfg, b, st, renderer, log)
	if err != nil {
		return err
	}
	// Bots come from bots.go; without them /ttr addbot says bots are
	// unavailable and the turn timer plays a safe move for absent players.
	svc := commands.New(commands.Config{Catalog: cat, Store: st, Renderer: renderer, Poster: b,
		Bots: botMaker(), BotLevels: botLevels(), BotDelay: 1500 * time.Millisecond, Logger: log, Activity: page.activity(),
		MaxLobbiesPerMember: cfg.LobbiesPerMember, MaxLobbiesPerChannel: cfg.LobbiesPerChannel, LobbyExpiry: cfg.LobbyExpiry})
	page.attach(svc)

	// The health server answers until everything else has stopped.
	var servers errgroup.Group
	var health *http.Server
	healthAddr := ""
	if cfg.HTTPAddr != "" {
		ln, err := net.Listen("tcp", cfg.HTTPAddr)
		if err != nil {
			return fmt.Errorf("CONDUCTOR_HTTP: %w", err)
		}
		healthAddr = ln.Addr().String()
		health = &http.Server{Handler: ops.Handler(b, st, cfg.BackupToken), ReadHeaderTimeout: 5 * time.Second}
		servers.Go(func() error {
			if err := health.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("health server", "err", err)
			}
			return nil
		})
		log.Info("health check listening", "url", "http://"+healthAddr+"/healthz")
		if cfg.BackupToken == "" {
			log.Info("hot backups over HTTP are off: set CONDUCTOR_BACKUP_TOKEN to turn them on (docs/configuration.md)")
		} else {
			log.Info("hot backups served to this machine with CONDUCTOR_BACKUP_TOKEN", "url", "http://"+healthAddr+ops.BackupPath)
		}
	}

	// stop closes in order: no new interactions, then the moves in flight
	// and the timers' (waitWork), then the service, the gateway and the
	// health server; the database closes last (deferred above).
	stop := func(waitWork func() error) error {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := b.Stop(sctx); err != nil {
			log.Warn("stopping", "err", err)
		}
		err := waitWork()
		page.stop(sctx)
		svc.Close()
		if err := b.Close(); err != nil {
			log.Warn("closing the gateway", "err", err)
		}
		if health != nil {
			health.Shutdown(sctx)
		}
		servers.Wait()
		return err
	}
	if err := b.Start(ctx, svc); err != nil {
		stop(func() error { return nil })
		return err
	}
	if err := svc.Resume(ctx); err != nil {
		log.Error("resuming games", "err", err)
	}
	if err := page.start(&servers); err != nil {
		stop(func() error { return nil })
		return err
	}
	// The turn timers and the gateway watchdog run until ctx ends; the
	// watchdog ends them all when the gateway stays down too long.
	work, workCtx := errgroup.WithContext(ctx)
	work.Go(func() error {
		svc.Run(workCtx, turnTimerEvery)
		return nil
	})
	work.Go(func() error {
		dogCtx, lost := context.WithCancelCause(workCtx)
		defer lost(nil)
		dog := &ops.Watchdog{Now: time.Now, Limit: ops.GatewayDownLimit, State: b.Health, Down: func() { lost(errGatewayLost) }}
		dog.Run(dogCtx, 30*time.Second)
		if context.Cause(dogCtx) == errGatewayLost {
			log.Error("the Discord gateway has been down too long; stopping", "limit", ops.GatewayDownLimit)
			return errGatewayLost
		}
		return nil
	})
	log.Info("Conductor is running", "database", cfg.DBPath, "guild", cfg.GuildID)
	if cfg.started != nil {
		cfg.started(healthAddr)
	}
	<-workCtx.Done()
	log.Info("stopping: finishing the moves in flight")
	err = stop(work.Wait)
	log.Info("stopped")
	return err
}

// envLimit reads a cap from the environment: empty is the default (0), 0
// no cap (-1).
func envLimit(getenv func(string) string, key string) (int, error) {
	if strings.TrimSpace(getenv(key)) == "" {
		return 0, nil
	}
	n, err := envInt(getenv, key, 0)
	if err != nil || n < 0 {
		return 0, badInput("%s=%q: give a whole number, 0 for no limit", key, getenv(key))
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
		return 0, badInput("%s=%q is not a whole number", key, v)
	}
	return n, nil
}
