package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"conductor/internal/testkit/recorded"
	"conductor/store"
)

// Writes testdata/schema1.db and testdata/schema1.json with schema 1 code.
func TestZZMakeSchema1Fixture(t *testing.T) {
	if os.Getenv("MAKE_FIXTURE") == "" {
		t.Skip()
	}
	dir := "testdata"
	path := filepath.Join(dir, "schema1.db")
	os.Remove(path)
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 3, 14, 9, 26, 53, 589793238, time.UTC)
	games := recorded.All(t)
	pick := map[string]bool{"europe-classic-bots": true, "europe-tunnels": true, "usa-base-bots": true, "marklin-passengers": true, "europe-mega-bots": true, "usa-1910-bots-rules1": true, "europe-stations": true}
	k := 0
	var liveChannels []string
	archivedID := ""
	for _, g := range games {
		if !pick[g.Name] {
			continue
		}
		k++
		ch := fmt.Sprint(1300000000000000000+k*1000003, "")
		guild := "g1"
		if k%3 == 0 {
			guild = "g2"
		}
		rec := &store.GameRecord{Channel: ch, Guild: guild, Map: g.Board, Variant: g.Variant, Seed: g.Seed, Rules: g.Rules,
			Status: store.StatusPlaying, Created: base.Add(time.Duration(k) * time.Hour), Host: "u1",
			Options: map[string]string{"locale": "en", "turn_timer": "1440"}}
		if g.BonusTickets {
			rec.Options["bonus_tickets"] = "on"
		}
		if k%2 == 0 {
			rec.Options["parent"] = "parent-" + guild
		}
		for s := range g.Players {
			st := store.Seat{UserID: fmt.Sprint(900000000000000000+s), Name: fmt.Sprint("Player ", s+1), Color: seatColors[s]}
			if s == 2 {
				st = store.Seat{Name: "Bot (easy)", Bot: "easy", Color: seatColors[s]}
			}
			rec.Seats = append(rec.Seats, st)
		}
		n := len(g.Moves) - 1 // one move before the end: the last one ends it
		if k%2 == 1 {
			n = len(g.Moves) * 3 / 5
		}
		at := base.Add(time.Duration(k) * time.Hour)
		for i, m := range g.Moves[:n] {
			at = at.Add(time.Duration(17+i%5)*time.Second + time.Duration(i*7919)*time.Microsecond)
			e := store.LogEntry{Seat: m.Seat, Action: m.Action, At: at}
			switch {
			case rec.Seats[m.Seat].Bot != "":
			case i%3 == 0:
				e.Interaction = fmt.Sprint(1400000000000000000 + k*100000 + i)
			default:
				e.Interaction = fmt.Sprint("i", k, "-", i)
			}
			rec.Log = append(rec.Log, e)
		}
		if err := st.Put(rec); err != nil {
			t.Fatal(err)
		}
		if k == 1 {
			// Archive this one, then open a live rematch of it.
			e, err := st.Archive(ch, store.ArchiveResult{Finished: at.Add(time.Minute), Players: []store.PlayerResult{
				{UserID: "900000000000000000", Name: "Player 1", Score: 80, Rank: 1, Won: true, TicketsCompleted: 3, Routes: []string{"Paris – Frankfurt"}},
				{UserID: "900000000000000001", Name: "Player 2", Score: 60, Rank: 2, TicketsCompleted: 2, TicketsFailed: 1}}})
			if err != nil {
				t.Fatal(err)
			}
			archivedID = e.GameID
			continue
		}
		if k == 2 {
			if err := st.Update(ch, func(r *store.GameRecord) error {
				r.Options["rematch_of"] = archivedID
				r.Messages = map[string]string{"board": "1500000000000000001"}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		liveChannels = append(liveChannels, ch)
	}
	// A lobby, an abandoned game in the archive, posts waiting.
	lobby := &store.GameRecord{Channel: "1300000000000999999", Guild: "g1", Map: "usa", Host: "u1", Seed: 99, Status: store.StatusLobby,
		Options: map[string]string{"locale": "fr", "turn_timer": "60"}, Seats: []store.Seat{{UserID: "u1", Name: "Alice", Color: "red"}}, Created: base}
	if err := st.Put(lobby); err != nil {
		t.Fatal(err)
	}
	liveChannels = append(liveChannels, lobby.Channel)
	ab := &store.GameRecord{Channel: "1300000000000888888", Guild: "g2", Map: "europe", Variant: "classic", Seed: 5, Status: store.StatusPlaying, Rules: 2,
		Seats: []store.Seat{{UserID: "u1", Name: "A"}, {UserID: "u2", Name: "B"}}, Log: []store.LogEntry{{Seat: 0, Action: "keep 0,1", At: base}}, Created: base}
	if err := st.Put(ab); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Archive(ab.Channel, store.ArchiveResult{Status: store.StatusAbandoned, Finished: base.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := st.Enqueue(liveChannels[1], store.OutboxEntry{Kind: "board", Payload: json.RawMessage(`{"Content":"hello","Board":{"Moves":3,"Locale":"en"}}`), Created: base},
		store.OutboxEntry{Payload: json.RawMessage(`{"Content":"bye"}`), Created: base}); err != nil {
		t.Fatal(err)
	}
	golden := map[string]any{}
	live := map[string]*store.GameRecord{}
	for _, ch := range liveChannels {
		r, err := st.Get(ch)
		if err != nil {
			t.Fatal(err)
		}
		live[ch] = r
	}
	golden["live"] = live
	arch := map[string]any{}
	for _, g := range []string{"g1", "g2"} {
		es, err := st.Archived(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			full, err := st.ArchivedGame(e.Key)
			if err != nil {
				t.Fatal(err)
			}
			arch[e.Key] = map[string]any{"summary": e, "game": full}
		}
	}
	golden["archived"] = arch
	ob, err := st.Outbox(liveChannels[1])
	if err != nil {
		t.Fatal(err)
	}
	golden["outbox"] = map[string]any{liveChannels[1]: ob}
	raw, _ := json.MarshalIndent(golden, "", " ")
	if err := os.WriteFile(filepath.Join(dir, "schema1.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if v, _ := st.SchemaVersion(); v != 1 {
		t.Fatal(v)
	}
	st.Close()
}
