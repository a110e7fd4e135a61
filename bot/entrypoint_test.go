package bot_test

import (
	"context"
	"strings"
	"testing"

	"conductor/bot"
	"conductor/commands"
	"conductor/data"
	"conductor/internal/fakediscord"
)

// TestRegistrationKeepsDiscordsEntryPoint: once Activities are turned on,
// Discord holds an Entry Point command and refuses a global overwrite that
// drops it. The bot's registration reads it first and carries it: its
// slash commands are registered and the Entry Point is kept (answered by
// the bot when the live page is on, left to Discord when it is off).
func TestRegistrationKeepsDiscordsEntryPoint(t *testing.T) {
	t.Parallel()
	defs := commands.Definitions(data.Embedded().IDs())
	for _, activity := range []bool{false, true} {
		srv := fakediscord.New(t)
		srv.CreateGuild("Rail Club")
		ep := srv.CreateEntryPoint(fakediscord.HandlerDiscordLaunch)
		b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: defs, Logger: logger(), Activity: activity})
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Start(context.Background(), nopHandler{}); err != nil {
			t.Fatalf("activity %v: registration with an Entry Point present failed: %v", activity, err)
		}
		got := srv.Commands("")
		kept, ok := srv.EntryPoint()
		if len(got) != len(defs)+1 || !ok || kept.ID != ep.ID {
			t.Errorf("activity %v: %d global commands (want %d and the Entry Point %s): %+v", activity, len(got), len(defs)+1, ep.ID, kept)
		}
		want := fakediscord.HandlerDiscordLaunch
		if activity {
			want = fakediscord.HandlerApp
		}
		if kept.Handler != want {
			t.Errorf("activity %v: the Entry Point's handler is %d, want %d", activity, kept.Handler, want)
		}
		if h := b.Health(); !h.CommandsRegistered {
			t.Errorf("health %+v", h)
		}
		// Doctor says so.
		var out strings.Builder
		b.Doctor(bot.DoctorOptions{}).Write(&out)
		if !strings.Contains(out.String(), "✓ Entry Point") {
			t.Errorf("doctor:\n%s", out.String())
		}
		srv.CheckClean(t)
		b.Stop(context.Background())
		b.Close()
	}
}

// TestDoctorAsksForActivitiesWhenThePageIsOn: with the live page on and no
// Entry Point, Activities are not turned on: doctor says where to.
func TestDoctorAsksForActivitiesWhenThePageIsOn(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(data.Embedded().IDs()), Logger: logger(), Activity: true})
	if err != nil {
		t.Fatal(err)
	}
	rep := b.Doctor(bot.DoctorOptions{})
	var out strings.Builder
	rep.Write(&out)
	if rep.OK() || !strings.Contains(out.String(), "✗ Entry Point") || !strings.Contains(out.String(), "Enable Activities") {
		t.Errorf("doctor:\n%s", out.String())
	}
}

// TestDoctorReportsTheEntryPointHandlerDiscordHolds: doctor says which
// handler Discord holds for the Entry Point: Discord's own (2) before the
// bot has started with the live page on, the bot's (1) after.
func TestDoctorReportsTheEntryPointHandlerDiscordHolds(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	srv.CreateGuild("Rail Club")
	srv.CreateEntryPoint(fakediscord.HandlerDiscordLaunch)
	b, err := bot.New(bot.Config{Token: srv.Token(), APIBase: srv.BaseURL(), Commands: commands.Definitions(data.Embedded().IDs()), Logger: logger(), Activity: true})
	if err != nil {
		t.Fatal(err)
	}
	entryPoint := func() string {
		var out strings.Builder
		b.Doctor(bot.DoctorOptions{}).Write(&out)
		for _, line := range strings.Split(out.String(), "\n") {
			if strings.Contains(line, "Entry Point") {
				return line
			}
		}
		t.Fatalf("doctor says nothing of the Entry Point:\n%s", out.String())
		return ""
	}
	if line := entryPoint(); !strings.Contains(line, "(now 2") || !strings.Contains(line, "✓") {
		t.Errorf("with Discord's handler: %s", line)
	}
	if err := b.Start(context.Background(), nopHandler{}); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	defer b.Stop(context.Background())
	if line := entryPoint(); !strings.Contains(line, "(now 1") {
		t.Errorf("with the bot's handler: %s", line)
	}
	if ep, _ := srv.EntryPoint(); ep.Handler != fakediscord.HandlerApp {
		t.Errorf("Discord holds handler %d after the start", ep.Handler)
	}
	srv.CheckClean(t)
}
