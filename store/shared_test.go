package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestSharedSessionsKeepTheirBounds: a user's 17th session ends their
// oldest; at the cap the expired go first, else the heaviest user's
// oldest; a guild's sessions end together; an expired one reads as gone.
func TestSharedSessionsKeepTheirBounds(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		now := time.Unix(1_800_000_000, 0)
		lim := SessionLimits{PerUser: 3, Max: 5}
		put := func(key, user string, at time.Time) []string {
			t.Helper()
			ended, err := s.PutSession(key, user, "g1", []byte(key), at.Add(time.Hour), lim, now)
			if err != nil {
				t.Fatal(err)
			}
			return ended
		}
		for i := range 3 {
			if ended := put(fmt.Sprint("a", i), "alice", now.Add(time.Duration(i)*time.Minute)); len(ended) != 0 {
				t.Fatalf("session %d ended %v", i, ended)
			}
		}
		if ended := put("a3", "alice", now.Add(3*time.Minute)); !slices.Equal(ended, []string{"a0"}) {
			t.Fatalf("alice's 4th session ended %v, want her oldest a0", ended)
		}
		if _, err := s.Session("a0", now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a0 after it ended: %v", err)
		}
		put("b0", "bob", now.Add(4*time.Minute))
		put("b1", "bob", now.Add(5*time.Minute))
		// Five kept: the sixth ends the oldest of alice's (she holds 3).
		if ended := put("c0", "carol", now.Add(6*time.Minute)); !slices.Equal(ended, []string{"a1"}) {
			t.Fatalf("at the cap, ended %v, want a1", ended)
		}
		if r, err := s.Session("b1", now); err != nil || string(r.Value) != "b1" || r.Owner != "bob" {
			t.Fatalf("b1: %+v, %v", r, err)
		}
		if ok, err := s.UpdateSession("b1", []byte("bound")); !ok || err != nil {
			t.Fatalf("update: %v %v", ok, err)
		}
		if r, _ := s.Session("b1", now); string(r.Value) != "bound" {
			t.Fatalf("b1 after update: %q", r.Value)
		}
		if _, err := s.Session("b1", now.Add(2*time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("an expired session read: %v", err)
		}
		keys, err := s.DropGuildSessions("g1")
		if err != nil || len(keys) != 5 {
			t.Fatalf("guild's sessions dropped %v, %v", keys, err)
		}
		if ok, _ := s.UpdateSession("b1", nil); ok {
			t.Fatal("a dropped session was updated")
		}
	})
}

// TestForwardedMovesAreTakenOnce: a move posted twice is one row, taken
// once, its answer read by the poster; subscribers hear both.
func TestForwardedMovesAreTakenOnce(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		sub, err := s.Subscribe()
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		now := time.Now()
		if err := s.PostMove("web:x:nonce1", "g1", "c1", []byte("claim"), now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.PostMove("web:x:nonce1", "g1", "c1", []byte("claim"), now.Add(time.Minute)); !errors.Is(err, ErrMoveExists) {
			t.Fatalf("posted twice: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ch, err := sub.Next(ctx)
		if err != nil || !ch.Moves || ch.Channel != "c1" || ch.Guild != "g1" {
			t.Fatalf("notice %+v, %v", ch, err)
		}
		if w, _ := s.MovesWaiting(now); len(w) != 1 || w[0] != [2]string{"g1", "c1"} {
			t.Fatalf("waiting %v", w)
		}
		if _, answered, err := s.MoveAnswer("web:x:nonce1", now); answered || err != nil {
			t.Fatalf("answered before it was taken: %v", err)
		}
		moves, err := s.TakeMoves("c1", now)
		if err != nil || len(moves) != 1 || string(moves[0].Data) != "claim" || moves[0].Guild != "g1" {
			t.Fatalf("taken %+v, %v", moves, err)
		}
		if again, _ := s.TakeMoves("c1", now); len(again) != 0 {
			t.Fatalf("taken twice: %+v", again)
		}
		if err := s.AnswerMove("web:x:nonce1", []byte("done"), now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if ch, err := sub.Next(ctx); err != nil || !ch.Answers || ch.Channel != "c1" {
			t.Fatalf("answer notice %+v, %v", ch, err)
		}
		if a, answered, err := s.MoveAnswer("web:x:nonce1", now); !answered || string(a) != "done" || err != nil {
			t.Fatalf("answer %q %v %v", a, answered, err)
		}
		// A move left past its expiry is never taken, and goes.
		if err := s.PostMove("web:x:nonce2", "g1", "c1", []byte("late"), now.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		if late, _ := s.TakeMoves("c1", now.Add(time.Minute)); len(late) != 0 {
			t.Fatalf("an expired move was taken: %+v", late)
		}
		if n, err := s.ExpireShared(now.Add(2*time.Minute), 100); n != 2 || err != nil {
			t.Fatalf("expired %d, %v", n, err)
		}
	})
}

// TestSocketBudgetsHoldAcrossProcesses: the pages two stores (two
// processes) let in count together; an expired page no longer counts, nor
// one that left.
func TestSocketBudgetsHoldAcrossProcesses(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, _ := openTemp(t)
		now := time.Now()
		lim := SocketLimits{PerUser: 2, PerGame: 4, Spectators: 1}
		join := func(key, user string, seated bool, expires time.Time) bool {
			t.Helper()
			ok, err := s.JoinSocket(Socket{Key: key, User: user, Channel: "c1", Seated: seated}, lim, expires, now)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		later := now.Add(time.Minute)
		if !join("p1:1", "alice", true, later) || !join("p2:1", "alice", true, later) {
			t.Fatal("alice's two pages refused")
		}
		if join("p3:1", "alice", true, later) {
			t.Fatal("alice's third page let in")
		}
		if !join("p1:2", "carol", false, later) || join("p2:2", "dave", false, later) {
			t.Fatal("the spectators' room is one page")
		}
		if !join("p2:3", "bob", true, later) || join("p2:4", "erin", true, later) {
			t.Fatal("the game's room is four pages")
		}
		if err := s.LeaveSocket("p2:3"); err != nil {
			t.Fatal(err)
		}
		if !join("p2:4", "erin", true, now.Add(time.Millisecond)) {
			t.Fatal("a page that left still counts")
		}
		// erin's page expires (its process died): bob gets in.
		now = now.Add(time.Second)
		if !join("p2:5", "bob", true, later) {
			t.Fatal("an expired page still counts")
		}
		if err := s.RenewSockets([]Socket{{Key: "p2:5", User: "bob", Channel: "c1", Seated: true}}, now.Add(-time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if !join("p2:6", "frank", true, later) {
			t.Fatal("a page renewed into the past still counts")
		}
	})
}

// TestCountsAreEveryProcesss: two stores on one database (two processes)
// count in one window; the next window starts again.
func TestCountsAreEveryProcesss(t *testing.T) {
	eachBackend(t, func(t *testing.T) {
		s, path := openTemp(t)
		other := s
		if onPostgres(t) {
			var err error
			if other, err = Open(path, nil); err != nil {
				t.Fatal(err)
			}
			defer other.Close()
		}
		w := time.Unix(1_800_000_000, 0)
		for i, st := range []*Store{s, other, s} {
			if ok, err := st.CountIn("exchange", 3, w, w.Add(2*time.Minute)); !ok || err != nil {
				t.Fatalf("event %d refused: %v", i, err)
			}
		}
		if ok, _ := other.CountIn("exchange", 3, w, w.Add(2*time.Minute)); ok {
			t.Fatal("a fourth event let in by the other process")
		}
		if ok, _ := other.CountIn("exchange", 3, w.Add(time.Minute), w.Add(3*time.Minute)); !ok {
			t.Fatal("the next window did not start again")
		}
	})
}
