package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"conductor/internal/fakediscord"
)

// floodResult is what a junk flood did.
type floodResult struct {
	realOK, real int
	junk         map[int]int // status → count
	junkSent     int
	took         time.Duration
	exchanges    int // code exchanges with Discord the junk cost
	lookups      int // instance look-ups with the bot token the junk cost
}

func (f floodResult) String() string {
	return fmt.Sprintf("real users %d/%d signed in; %d junk requests in %v answered %v; Discord asked %d code exchanges and %d instance look-ups for the junk",
		f.realOK, f.real, f.junkSent, f.took.Round(time.Millisecond), f.junk, f.exchanges, f.lookups)
}

// junkFlood sends perAddress junk sign-ins from each address (made-up
// codes for the real instance and for made-up ones, broken bodies, bodies
// too big), six at a time, while the real users sign in with their own
// codes from another address; real users' requests spread over the flood.
func (s *stack) junkFlood(instance string, addresses []string, perAddress int, real []fakediscord.User) floodResult {
	s.t.Helper()
	const (
		exchangeRoute = "/oauth2/token"
		lookupRoute   = "/applications/{application_id}/activity-instances/{instance_id}"
	)
	exchanges0 := len(s.srv.RequestsTo("POST", exchangeRoute))
	lookups0 := len(s.srv.RequestsTo("GET", lookupRoute))
	h := s.web.Handler()
	junk := make(chan [2]string, len(addresses)*perAddress)
	for i := range perAddress {
		for _, a := range addresses {
			code := fmt.Sprintf("%030x", rand.Uint64())
			var body string
			switch i % 4 {
			case 0, 1:
				body = `{"code":"` + code + `","instance_id":"` + instance + `"}`
			case 2:
				body = fmt.Sprintf(`{"code":"%s","instance_id":"i-%d-gc-%d-%d"}`, code, rand.Uint64()>>2, rand.Uint64()>>2, rand.Uint64()>>2)
			case 3:
				body = `{"code":` + strings.Repeat(`"x`, 3000)
			}
			junk <- [2]string{a, body}
		}
	}
	close(junk)
	res := floodResult{junk: map[int]int{}, junkSent: len(addresses) * perAddress, real: len(real)}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range junk {
				w := httptest.NewRecorder()
				r := httptest.NewRequest("POST", "/api/session", strings.NewReader(j[1]))
				r.RemoteAddr = j[0] + ":40000"
				r.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(w, r)
				mu.Lock()
				res.junk[w.Code]++
				mu.Unlock()
			}
		}()
	}
	var realWG sync.WaitGroup
	for i, u := range real {
		realWG.Add(1)
		go func() {
			defer realWG.Done()
			time.Sleep(time.Duration(i) * 20 * time.Millisecond)
			ans, code := s.session(u, instance)
			mu.Lock()
			defer mu.Unlock()
			if code == http.StatusOK && ans.Session != "" {
				res.realOK++
			} else {
				s.t.Logf("%s: %d %s", u.Username, code, ans.raw)
			}
		}()
	}
	wg.Wait()
	res.took = time.Since(start)
	realWG.Wait()
	res.exchanges = len(s.srv.RequestsTo("POST", exchangeRoute)) - exchanges0 - res.realOK
	res.lookups = len(s.srv.RequestsTo("GET", lookupRoute)) - lookups0
	return res
}

// floodStack is a game, its launched activity and n real users in it.
func floodStack(tb testing.TB, clock *testClock, n int) (*stack, string, []fakediscord.User) {
	s := newStack(tb, stackOptions{now: clock.now})
	host, bob := s.srv.CreateUser("host"), s.srv.CreateUser("bob")
	_, thread := s.game(host, bob)
	inst := s.launch(host, thread)
	var real []fakediscord.User
	for i := range n {
		u := s.srv.CreateUser(fmt.Sprint("reader", i))
		if err := s.srv.JoinActivity(u.ID, inst); err != nil {
			tb.Fatal(err)
		}
		real = append(real, u)
	}
	return s, inst, real
}

// TestJunkSignInsLeaveRealUsersIn: 1,200 junk sign-ins from one address,
// as fast as they come, while 30 real users sign in: every real user gets
// a session, and the junk costs Discord a handful of requests. Then the
// same from 100 addresses (12 each): still every real user. And 20 real
// users at once from one address all get in.
func TestJunkSignInsLeaveRealUsersIn(t *testing.T) {
	clock := &testClock{}
	s, inst, real := floodStack(t, clock, 80)

	one := s.junkFlood(inst, []string{"203.0.113.66"}, 1200, real[:30])
	t.Logf("one address: %v", one)
	if one.realOK != one.real {
		t.Errorf("one address's junk: %d of %d real users signed in", one.realOK, one.real)
	}
	// Its codes refused (5 a minute) and those under way when the fifth
	// failed (20 at most).
	if one.exchanges > 5+20 || one.lookups > 10 {
		t.Errorf("one address's junk cost %d exchanges and %d look-ups", one.exchanges, one.lookups)
	}
	if one.junk[http.StatusTooManyRequests] < 800 {
		t.Errorf("one address's junk was not limited: %v", one.junk)
	}

	clock.advance(time.Minute)
	var many []string
	for i := range 100 {
		many = append(many, fmt.Sprintf("198.51.%d.%d", 100+i/200, i%200+1))
	}
	spread := s.junkFlood(inst, many, 12, real[30:60])
	t.Logf("100 addresses: %v", spread)
	if spread.realOK != spread.real {
		t.Errorf("100 addresses' junk: %d of %d real users signed in", spread.realOK, spread.real)
	}
	if spread.exchanges > 100*(5+20) {
		t.Errorf("100 addresses' junk cost %d exchanges", spread.exchanges)
	}

	// Twenty real users at once behind one address (as behind Discord's
	// proxy) all get in.
	clock.advance(time.Minute)
	var wg sync.WaitGroup
	codes := make([]int, 20)
	for i, u := range real[60:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, codes[i] = s.session(u, inst)
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusOK {
			t.Errorf("%s, one of 20 at once from one address: %d", real[60+i].Username, c)
		}
	}
}
