package store

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestArchiveMovesGame(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		rec := sampleGame("c1", "g1", 7)
		mustPut(t, s, rec)
		mustPut(t, s, sampleGame("c2", "g1", 1))
		finished := base.Add(2 * time.Hour)
		players := []PlayerResult{
			{UserID: "u1", Name: "Ada", Score: 101, Rank: 1, Won: true, TicketsCompleted: 3, TicketsFailed: 1, Routes: []string{"Paris-Brest"}},
			{Name: "Bot 1", Bot: "hard", Score: 87, Rank: 2},
		}
		entry, err := s.Archive("c1", ArchiveResult{Finished: finished, Players: players})
		if err != nil {
			t.Fatal(err)
		}
		if entry.GameID != rec.ID || entry.Guild != "g1" || entry.Channel != "c1" || entry.Map != "europe" ||
			entry.Status != StatusFinished || !entry.Finished.Equal(finished) || !entry.Started.Equal(base) ||
			entry.Moves != 7 || len(entry.Players) != 2 {
			t.Fatalf("entry: %+v", entry)
		}
		if _, err := s.Get("c1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("archived game still live: %v", err)
		}
		mustGet(t, s, "c2")

		entries, err := s.Archived("g1")
		if err != nil || len(entries) != 1 {
			t.Fatalf("Archived = %+v, %v", entries, err)
		}
		if entries[0].Key != entry.Key || entries[0].Players[0].Routes[0] != "Paris-Brest" || entries[0].Players[1].Bot != "hard" {
			t.Fatalf("stored entry %+v, want %+v", entries[0], entry)
		}
		full, err := s.ArchivedGame(entry.Key)
		if err != nil {
			t.Fatal(err)
		}
		if full.Status != StatusFinished || len(full.Log) != 7 || full.Log[6] != rec.Log[6] || full.Seed != rec.Seed {
			t.Fatalf("archived record: %+v", full)
		}
		if _, err := s.Archive("c1", ArchiveResult{}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("archiving twice: %v", err)
		}
		if _, err := s.ArchivedGame("g1\x00nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("missing archive key: %v", err)
		}
	})
}

func TestArchiveFailureKeepsGameLive(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		mustPut(t, s, sampleGame("c1", "g1", 2))
		if _, err := s.Archive("c1", ArchiveResult{Status: StatusPlaying}); err == nil {
			t.Fatal("archived with status playing")
		}
		if _, err := s.Archive("c1", ArchiveResult{Finished: base}); err != nil {
			t.Fatal(err)
		}
		// The same game id finishing at the same instant would overwrite it.
		mustPut(t, s, sampleGame("c1", "g1", 2))
		if _, err := s.Archive("c1", ArchiveResult{Finished: base}); err == nil || !strings.Contains(err.Error(), "already archived") {
			t.Fatalf("second archive under the same key: %v", err)
		}
		mustGet(t, s, "c1")
		if entries, _ := s.Archived("g1"); len(entries) != 1 {
			t.Fatalf("%d archive entries, want 1", len(entries))
		}
	})
}

func TestArchivedIsChronologicalAndPerGuild(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		// "g1" is a prefix of "g10" as text; only NUL-separated keys keep them apart.
		games := []struct {
			channel, guild string
			finished       time.Time
			status         string
		}{
			{"c1", "g1", base.Add(3 * time.Hour), ""},
			{"c2", "g10", base.Add(time.Hour), ""},
			{"c3", "g1", base.Add(time.Hour), StatusAbandoned},
			// Another zone: keys compare instants, not wall clocks.
			{"c4", "g1", base.Add(2 * time.Hour).In(time.FixedZone("UTC+5", 5*3600)), ""},
		}
		for _, g := range games {
			mustPut(t, s, sampleGame(g.channel, g.guild, 1))
			if _, err := s.Archive(g.channel, ArchiveResult{Status: g.status, Finished: g.finished}); err != nil {
				t.Fatal(err)
			}
		}
		entries, err := s.Archived("g1")
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, e := range entries {
			order = append(order, e.Channel+"/"+e.Status)
		}
		if got := strings.Join(order, " "); got != "c3/abandoned c4/finished c1/finished" {
			t.Fatalf("Archived(g1) = %s", got)
		}
		if other, _ := s.Archived("g10"); len(other) != 1 || other[0].Channel != "c2" {
			t.Fatalf("Archived(g10) = %+v", other)
		}
	})
}

// An archived game is found by its id within its guild only; ids that end
// another id do not match.
func TestArchivedByID(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		for _, g := range []struct{ channel, guild, id string }{
			{"c1", "g1", "abc"}, {"c2", "g1", "xabc"}, {"c3", "g10", "zzz"},
		} {
			rec := sampleGame(g.channel, g.guild, 3)
			rec.ID = g.id
			mustPut(t, s, rec)
			if _, err := s.Archive(g.channel, ArchiveResult{Finished: base.Add(time.Hour), Players: []PlayerResult{{Name: "Ada", Score: 42}}}); err != nil {
				t.Fatal(err)
			}
		}
		e, err := s.ArchivedByID("g1", "abc")
		if err != nil || e.GameID != "abc" || e.Channel != "c1" || e.Players[0].Score != 42 {
			t.Fatalf("ArchivedByID(g1, abc) = %+v, %v", e, err)
		}
		full, err := s.ArchivedGame(e.Key)
		if err != nil || full.ID != "abc" || len(full.Log) != 3 {
			t.Fatalf("its record: %+v, %v", full, err)
		}
		for _, c := range []struct{ guild, id string }{{"g1", "zzz"}, {"g10", "abc"}, {"g1", "bc"}, {"g1", ""}, {"g", "abc"}} {
			if _, err := s.ArchivedByID(c.guild, c.id); !errors.Is(err, ErrNotFound) {
				t.Errorf("ArchivedByID(%q, %q): %v, want ErrNotFound", c.guild, c.id, err)
			}
		}
	})
}
