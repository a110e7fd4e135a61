package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"golang.org/x/sync/errgroup"

	"conductor/ai"
	"conductor/bot"
	"conductor/commands"
	"conductor/imaging"
	"conductor/ops"
	"conductor/present"
	"conductor/store"
)

// bots are the ai package's, for the commands layer; without them /ttr
// addbot says bots are unavailable and the turn timer plays a safe move
// for absent players.
var bots commands.BotMaker = func(level string, seed uint64) (commands.Bot, error) { return ai.NewWithContext(level, seed) }

// runCommand runs the Discord bot, configured by the environment.
func runCommand(*flag.FlagSet) runFunc {
	return func(ctx context.Context, in *invocation) error {
		cfg, err := ops.ConfigFromEnv(os.Getenv, in.decks)
		if err != nil {
			return err
		}
		return serve(ctx, cfg, in.stderr, nil)
	}
}

// turnTimerEvery is the longest the deadlines' loop sleeps (it wakes for
// the next deadline, and drops the tables left idle).
const turnTimerEvery = 30 * time.Second

// shutdownGrace bounds the wait for the moves in flight on shutdown.
const shutdownGrace = 30 * time.Second

// serve runs the Discord bot until ctx ends (SIGINT, SIGTERM) or the
// gateway stays down too long, then stops taking interactions, finishes
// the moves in flight and closes the gateway and the database. started,
// when not nil, is called once the bot serves, with the health server's
// address (tests).
func serve(ctx context.Context, cfg ops.Config, stderr io.Writer, started func(healthAddr string)) error {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))
	for _, n := range cfg.Notices {
		log.Info(n)
	}
	cat, err := ops.Catalog(cfg.Decks)
	if err != nil {
		return err
	}
	st, err := ops.OpenDatabase(cfg, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	// On PostgreSQL with a known shard count, this process serves the
	// range it holds a lease on, beside the fleet's others (ops/fleet.go).
	var fleet *ops.Fleet
	if store.IsPostgres(cfg.DBPath) && cfg.ShardCount > 0 {
		want := store.ShardRange{Count: cfg.ShardCount, First: 0, Last: cfg.ShardCount - 1}
		if cfg.Shards != nil {
			want.First, want.Last = cfg.Shards.From, cfg.Shards.To
		}
		f, got, err := ops.JoinFleet(ctx, st, log, ops.FleetHolder(), want, cfg.Lease)
		if err != nil {
			return err
		}
		fleet = f
		cfg.Shards = &bot.ShardRange{From: got.First, To: got.Last}
	}
	botCfg := bot.Config{Token: cfg.Token, GuildID: cfg.GuildID, APIBase: cfg.APIBase,
		Commands: commands.Definitions(cat.IDs()), Shards: cfg.Shards, ShardCount: cfg.ShardCount, GlobalRate: cfg.GlobalRate, Logger: log,
		Activity: cfg.ClientSecret != "", Emojis: present.AppEmojis()}
	if fleet != nil {
		// Discord's limits are the bot's: the fleet's processes pace their
		// logins, and their requests unless a proxy does, together.
		botCfg.IdentifyPace = ops.FleetIdentifyPace(st)
		if cfg.GlobalRate == 0 {
			botCfg.GlobalLimiter = ops.NewFleetLimiter(st, log)
		}
	}
	b, err := bot.New(botCfg)
	if err != nil {
		return err
	}
	renderer := imaging.NewRenderer()
	page, err := ops.NewPage(cfg, b, st, renderer, log)
	if err != nil {
		return err
	}
	svcCfg := commands.Config{Catalog: cat, Store: st, Renderer: renderer, Poster: b,
		Bots: bots, BotLevels: ai.Levels, BotDelay: 1500 * time.Millisecond, Logger: log, Activity: page.Activity(),
		MaxLobbiesPerMember: cfg.LobbiesPerMember, MaxLobbiesPerChannel: cfg.LobbiesPerChannel, LobbyExpiry: cfg.LobbyExpiry}
	if fleet != nil {
		// This process plays the tables of its shards' servers; the live
		// page forwards another's moves to the process serving them.
		svcCfg.Fleet, svcCfg.Owns = fleet, fleet.Owns
	}
	svc := commands.New(svcCfg)
	page.Attach(svc)

	// The health server answers until everything else has stopped.
	health, err := ops.ListenHealth(cfg.HTTPAddr, b, st, cfg.BackupToken, log)
	if err != nil {
		return fmt.Errorf("CONDUCTOR_HTTP: %w", err)
	}
	// stop closes in order: no new interactions, then the moves in flight
	// and the timers' (waitWork), then the page, the service, the gateway
	// and the health server; the database closes last (deferred above).
	stop := func(waitWork func() error) error {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := b.Stop(sctx); err != nil {
			log.Warn("stopping", "err", err)
		}
		err := waitWork()
		page.Stop(sctx)
		svc.Close()
		if err := b.Close(); err != nil {
			log.Warn("closing the gateway", "err", err)
		}
		health.Shutdown(sctx)
		if fleet != nil {
			fleet.Release(sctx)
		}
		return err
	}
	noWork := func() error { return nil }
	if err := b.Start(ctx, svc); err != nil {
		stop(noWork)
		return err
	}
	if err := svc.Resume(ctx); err != nil {
		log.Error("resuming games", "err", err)
	}
	if err := page.Listen(); err != nil {
		stop(noWork)
		return fmt.Errorf("CONDUCTOR_WEB: %w", err)
	}
	// The turn timers and the gateway watchdog run until ctx ends; the
	// watchdog ends them all when the gateway stays down too long.
	work, workCtx := errgroup.WithContext(ctx)
	work.Go(func() error {
		svc.Run(workCtx, turnTimerEvery)
		return nil
	})
	work.Go(func() error { return ops.WatchGateway(workCtx, b.Health, log) })
	if fleet != nil {
		// A dead process's shards are served here once its lease ends:
		// their connections, then their posts and bots' turns.
		adopt := func(r store.ShardRange) error {
			if err := b.AddShards(bot.ShardRange{From: r.First, To: r.Last}); err != nil {
				return err
			}
			o := &store.Owned{Count: r.Count}
			for sh := r.First; sh <= r.Last; sh++ {
				o.Shards = append(o.Shards, sh)
			}
			// Their posts and bots' turns go on beside the lease's loop.
			go func() {
				if err := svc.ResumeShards(workCtx, o); err != nil && workCtx.Err() == nil {
					log.Error("resuming the games of the shards taken over", "shards", r.String(), "err", err)
				}
			}()
			return nil
		}
		sweep := func() {
			if err := svc.Deliver(workCtx); err != nil && workCtx.Err() == nil {
				log.Warn("delivering the outbox", "err", err)
			}
		}
		work.Go(func() error { return fleet.Run(workCtx, adopt, sweep) })
	}
	log.Info("Conductor is running", "database", st.Path(), "guild", cfg.GuildID)
	if started != nil {
		started(health.Addr())
	}
	<-workCtx.Done()
	log.Info("stopping: finishing the moves in flight")
	err = stop(work.Wait)
	log.Info("stopped")
	return err
}
