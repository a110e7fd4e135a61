package web

import (
	"fmt"
	"testing"
	"time"
)

// TestSessionCaps: past a user's cap their own oldest session goes; at the
// server's cap the oldest of the user holding the most goes, never a
// session of a user holding few.
func TestSessionCaps(t *testing.T) {
	var ss sessions
	ss.init()
	now := time.Now()
	var few []*session
	// 1,000 users with 16 sessions each, and 4 users with one.
	for u := range 1000 {
		for range maxSessionsPerUser {
			ss.add(&session{user: fmt.Sprint("u", u)}, now)
		}
	}
	for u := range 4 {
		s := &session{user: fmt.Sprint("few", u)}
		ss.add(s, now)
		few = append(few, s)
	}
	// One user opening sessions in a loop: their own oldest go.
	var mine []*session
	for i := range 100 {
		s := &session{user: "looper"}
		ended := ss.add(s, now.Add(time.Duration(i)*time.Second))
		mine = append(mine, s)
		for _, e := range ended {
			if e.user != "looper" {
				t.Fatalf("the looper's session %d ended %s's", i, e.user)
			}
		}
	}
	if n := len(ss.byUser["looper"]); n != maxSessionsPerUser {
		t.Errorf("the looper holds %d sessions", n)
	}
	if ss.get(mine[0].token, now) != nil || ss.get(mine[99].token, now) == nil {
		t.Error("the looper's oldest session lives, or their newest does not")
	}
	for _, s := range few {
		if ss.get(s.token, now) == nil {
			t.Errorf("%s's only session ended", s.user)
		}
	}
	// At the server's cap a new user's session takes the place of a
	// heavy user's oldest.
	for len(ss.byTok) < maxSessions {
		ss.add(&session{user: fmt.Sprint("filler", len(ss.byTok))}, now)
	}
	ended := ss.add(&session{user: "newcomer"}, now)
	if len(ended) != 1 || len(ss.byUser[ended[0].user]) != maxSessionsPerUser-1 || len(ss.byTok) != maxSessions {
		t.Errorf("at the cap, a new session ended %d sessions (%v); %d kept", len(ended), ended, len(ss.byTok))
	}
	for _, s := range few {
		if ss.get(s.token, now) == nil {
			t.Errorf("%s's only session ended at the cap", s.user)
		}
	}
	// Sessions past their lifetime go first.
	if ss.get(few[0].token, now.Add(sessionLifetime+time.Minute)) != nil {
		t.Error("a session used a minute ago lives past its lifetime")
	}
}
