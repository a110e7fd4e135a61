package engine

import (
	"fmt"
	"strconv"
	"strings"

	"conductor/data"
)

// The action notation is the canonical text form of an action, used in game
// logs and replays. It names cities as printed, so a log survives changes to
// the order of a board's data:
//
//	draw 3 | draw deck
//	claim Paris|Frankfurt|white pay=white loco=1 loco4=0 passenger=Paris
//	tickets | tickets long=2
//	keep 0,2
//	station Sarajevo pay=red loco=1
//	tunnel pay loco=1 | tunnel cancel
//	move Berlin path=Berlin|Leipzig;Leipzig|Dresden
//	pass
//
// A track is "A|B", followed by "|colour" when parallel tracks exist and
// "#n" when parallel tracks share that colour.

// FormatAction writes an action in the notation.
func FormatAction(b *data.Board, a Action) string {
	var sb strings.Builder
	switch a.Kind {
	case ActDraw:
		if a.Slot == DeckSlot {
			return "draw deck"
		}
		return fmt.Sprintf("draw %d", a.Slot+1)
	case ActClaim:
		fmt.Fprintf(&sb, "claim %s pay=%s loco=%d", TrackRef(b, a.Track), a.Color, a.Locos)
		if a.Locos4 > 0 {
			fmt.Fprintf(&sb, " loco4=%d", a.Locos4)
		}
		if a.Passenger {
			fmt.Fprintf(&sb, " passenger=%s", cityRef(b, a.City))
		}
	case ActDrawTickets:
		if a.Long > 0 {
			return fmt.Sprintf("tickets long=%d", a.Long)
		}
		return "tickets"
	case ActKeep:
		sb.WriteString("keep ")
		first := true
		for i := 0; i < 64; i++ {
			if a.Keep&(1<<uint(i)) != 0 {
				if !first {
					sb.WriteByte(',')
				}
				sb.WriteString(strconv.Itoa(i))
				first = false
			}
		}
		if first {
			sb.WriteString("none")
		}
	case ActStation:
		fmt.Fprintf(&sb, "station %s pay=%s loco=%d", cityRef(b, a.City), a.Color, a.Locos)
	case ActTunnelPay:
		return fmt.Sprintf("tunnel pay loco=%d", a.Locos)
	case ActTunnelCancel:
		return "tunnel cancel"
	case ActMovePassenger:
		fmt.Fprintf(&sb, "move %s path=", cityRef(b, a.City))
		for i, t := range a.Path {
			if i > 0 {
				sb.WriteByte(';')
			}
			sb.WriteString(TrackRef(b, t))
		}
	case ActPass:
		return "pass"
	default:
		return "none"
	}
	return sb.String()
}

func cityRef(b *data.Board, c data.CityID) string {
	if c < 0 || int(c) >= len(b.Cities) {
		return "?"
	}
	return b.Cities[c].Name
}

// TrackRef names a track in the notation.
func TrackRef(b *data.Board, t data.TrackID) string {
	if t < 0 || int(t) >= len(b.Tracks) {
		return "?"
	}
	tr := &b.Tracks[t]
	s := b.Cities[tr.A].Name + "|" + b.Cities[tr.B].Name
	par := b.Parallel(t)
	if len(par) == 1 {
		return s
	}
	s += "|" + tr.Color.String()
	n, k := 0, 0
	for _, o := range par {
		if b.Tracks[o].Color == tr.Color {
			n++
			if o == t {
				k = n
			}
		}
	}
	if n > 1 {
		s += "#" + strconv.Itoa(k)
	}
	return s
}

// ParseTrackRef resolves a track named in the notation (either end first).
// Without a colour it takes the first of parallel tracks.
func ParseTrackRef(b *data.Board, s string) (data.TrackID, error) {
	nth := 1
	if i := strings.LastIndexByte(s, '#'); i >= 0 {
		n, err := strconv.Atoi(s[i+1:])
		if err != nil || n < 1 {
			return 0, fmt.Errorf("bad track number in %q", s)
		}
		nth, s = n, s[:i]
	}
	parts := strings.Split(s, "|")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, fmt.Errorf("a track is written City|City or City|City|colour, not %q", s)
	}
	a, ok := b.City(parts[0])
	if !ok {
		return 0, fmt.Errorf("unknown city %q", parts[0])
	}
	c, ok := b.City(parts[1])
	if !ok {
		return 0, fmt.Errorf("unknown city %q", parts[1])
	}
	var col data.Color
	withColor := len(parts) == 3
	if withColor {
		var err error
		if col, err = data.ParseColor(parts[2]); err != nil {
			return 0, err
		}
	}
	n := 0
	for _, t := range b.Adj[a] {
		tr := &b.Tracks[t]
		if tr.Other(a) != c || (withColor && tr.Color != col) {
			continue
		}
		n++
		if n == nth {
			return t, nil
		}
	}
	return 0, fmt.Errorf("no track %q on the %s board", s, b.ID)
}

// ParseAction reads an action in the notation.
func ParseAction(b *data.Board, s string) (Action, error) {
	verb, rest, _ := strings.Cut(strings.TrimSpace(s), " ")
	fields := strings.Fields(rest)
	a := Action{}
	switch verb {
	case "draw":
		a.Kind = ActDraw
		if len(fields) != 1 {
			return a, fmt.Errorf("draw takes a slot 1-5 or deck")
		}
		if fields[0] == "deck" {
			a.Slot = DeckSlot
			return a, nil
		}
		n, err := strconv.Atoi(fields[0])
		if err != nil || n < 1 || n > 64 {
			return a, fmt.Errorf("draw takes a slot 1-5 or deck, not %q", fields[0])
		}
		a.Slot = n - 1
		return a, nil
	case "pass":
		a.Kind = ActPass
		return a, expectNone(fields)
	case "tickets":
		a.Kind = ActDrawTickets
		return a, parseOpts(b, fields, map[string]any{"long": &a.Long})
	case "keep":
		a.Kind = ActKeep
		if len(fields) != 1 {
			return a, fmt.Errorf("keep takes a list like 0,2")
		}
		if fields[0] == "none" {
			return a, nil
		}
		for _, f := range strings.Split(fields[0], ",") {
			i, err := strconv.Atoi(f)
			if err != nil || i < 0 || i > 63 {
				return a, fmt.Errorf("bad ticket index %q", f)
			}
			a.Keep |= 1 << uint(i)
		}
		return a, nil
	case "tunnel":
		if len(fields) == 0 {
			return a, fmt.Errorf("tunnel pay or tunnel cancel")
		}
		switch fields[0] {
		case "pay":
			a.Kind = ActTunnelPay
			return a, parseOpts(b, fields[1:], map[string]any{"loco": &a.Locos})
		case "cancel":
			a.Kind = ActTunnelCancel
			return a, expectNone(fields[1:])
		}
		return a, fmt.Errorf("tunnel pay or tunnel cancel, not %q", fields[0])
	}
	// The remaining verbs name cities, which may contain spaces: split on
	// " key=" instead of on spaces.
	head, opts := splitOpts(rest)
	switch verb {
	case "claim":
		a.Kind = ActClaim
		t, err := ParseTrackRef(b, head)
		if err != nil {
			return a, err
		}
		a.Track = t
		var city string
		if err := parseOpts(b, opts, map[string]any{"pay": &a.Color, "loco": &a.Locos, "loco4": &a.Locos4, "passenger": &city}); err != nil {
			return a, err
		}
		if city != "" {
			c, ok := b.City(city)
			if !ok {
				return a, fmt.Errorf("unknown city %q", city)
			}
			a.Passenger, a.City = true, c
		}
		return a, nil
	case "station", "move":
		c, ok := b.City(head)
		if !ok {
			return a, fmt.Errorf("unknown city %q", head)
		}
		a.City = c
		if verb == "station" {
			a.Kind = ActStation
			return a, parseOpts(b, opts, map[string]any{"pay": &a.Color, "loco": &a.Locos})
		}
		a.Kind = ActMovePassenger
		var path string
		if err := parseOpts(b, opts, map[string]any{"path": &path}); err != nil {
			return a, err
		}
		if path == "" {
			return a, fmt.Errorf("move needs path=City|City;…")
		}
		for _, ref := range strings.Split(path, ";") {
			t, err := ParseTrackRef(b, ref)
			if err != nil {
				return a, err
			}
			a.Path = append(a.Path, t)
		}
		return a, nil
	}
	return a, fmt.Errorf("unknown action %q (draw, claim, tickets, keep, station, tunnel, move, pass)", verb)
}

// splitOpts splits "Paris|Frankfurt|white pay=white loco=1" into the head
// and its key=value options; values may contain spaces (city names).
func splitOpts(s string) (string, []string) {
	keys := []string{" pay=", " loco=", " loco4=", " passenger=", " path="}
	cut := len(s)
	for _, k := range keys {
		if i := strings.Index(s, k); i >= 0 && i < cut {
			cut = i
		}
	}
	head := strings.TrimSpace(s[:cut])
	var opts []string
	rest := s[cut:]
	for rest != "" {
		next := len(rest)
		for _, k := range keys {
			if i := strings.Index(rest[1:], k); i >= 0 && i+1 < next {
				next = i + 1
			}
		}
		opts = append(opts, strings.TrimSpace(rest[:next]))
		rest = rest[next:]
	}
	return head, opts
}

func expectNone(fields []string) error {
	if len(fields) > 0 {
		return fmt.Errorf("unexpected %q", strings.Join(fields, " "))
	}
	return nil
}

func parseOpts(b *data.Board, fields []string, into map[string]any) error {
	seen := map[string]bool{}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		dst, known := into[k]
		if !ok || !known {
			return fmt.Errorf("unexpected %q", f)
		}
		if seen[k] {
			return fmt.Errorf("%s given twice", k)
		}
		seen[k] = true
		switch d := dst.(type) {
		case *int:
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 99 {
				return fmt.Errorf("%s must be a small number, not %q", k, v)
			}
			*d = n
		case *data.Color:
			c, err := data.ParseColor(v)
			if err != nil {
				return err
			}
			*d = c
		case *string:
			*d = v
		}
	}
	return nil
}
