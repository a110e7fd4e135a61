package web

import (
	"regexp"
	"strconv"
	"strings"

	"conductor/commands"
	"conductor/data"
	"conductor/engine"
	"conductor/imaging"
	"conductor/present"
)

// A frame is what one page is sent about its game, as JSON: the public
// board (from the same scene as the PNG) for everyone, and for a seated
// reader their hand, tickets and controls. Frames are built per reader;
// the same bytes go to readers who see the same thing (spectators of one
// language), never to another seat.

// stateFrame is a page's game as it stands.
type stateFrame struct {
	Type    string `json:"type"` // "state"
	Version uint64 `json:"version"`
	// Origin names the process whose version it is: versions count each
	// process's changes, and a page's requests may reach several
	// processes (fleet.go). The page compares versions of one origin.
	Origin string `json:"origin"`
	Game   string `json:"game"`
	Board  string `json:"board"`
	SVG    string `json:"svg"`
	Title  string `json:"title"`
	Lobby  bool   `json:"lobby"`
	// Seat is the reader's seat, -1 for a spectator; Current the seat to
	// play, -1 when none.
	Seat    int `json:"seat"`
	Current int `json:"current"`
	boardFrame
	FaceUp []cardJSON `json:"faceUp"`
	Lines  []string   `json:"lines"`

	// The reader's own (seat only).
	Deck          *componentJSON `json:"deck,omitempty"`
	TicketsButton *componentJSON `json:"ticketsButton,omitempty"`
	Hand          []cardJSON     `json:"hand,omitempty"`
	Tickets       []ticketJSON   `json:"tickets,omitempty"`
	Prompt        *messageJSON   `json:"prompt,omitempty"`
	CanClaim      bool           `json:"canClaim"`
	// Claimable are the tracks the reader may claim now: from their hand,
	// so in their own frame only, and only on their turn.
	Claimable     []int             `json:"claimable,omitempty"`
	StationsLeft  int               `json:"stationsLeft"`
	PassengersOut int               `json:"passengersLeft"`
	LobbyRows     [][]componentJSON `json:"lobbyRows,omitempty"`
}

// boardFrame is a frame's public board: what the board's picture shows,
// from its scene. The live page's frames and the replay page's share it.
type boardFrame struct {
	Status     string       `json:"status"`
	Owners     []int8       `json:"owners"`
	Stations   []int8       `json:"stations"`
	Passengers []int8       `json:"passengers"`
	Goods      []string     `json:"goods"`
	Last       lastJSON     `json:"last"`
	Players    []playerJSON `json:"players"`
	Piles      []string     `json:"piles"`
}

type lastJSON struct {
	Tracks []int  `json:"tracks"`
	Cities []int  `json:"cities"`
	Text   string `json:"text"`
}

type playerJSON struct {
	Name    string `json:"name"`
	Color   string `json:"color"`
	Ink     string `json:"ink"`
	Score   int    `json:"score"`
	Bot     bool   `json:"bot"`
	Pieces  string `json:"pieces"`
	Holding string `json:"holding"`
	Claimed string `json:"claimed"` // "claimed by Alice", for screen readers
	Current bool   `json:"current"`
	You     bool   `json:"you"`
}

type cardJSON struct {
	Name   string         `json:"name"`
	Letter string         `json:"letter"`
	Fill   string         `json:"fill"`
	Ink    string         `json:"ink"`
	N      int            `json:"n,omitempty"`
	Take   *componentJSON `json:"take,omitempty"` // the reader may take it: the button's id
}

type ticketJSON struct {
	Label string `json:"label"`
	Done  bool   `json:"done"`
	// Cities are its two ends, which the page rings on the map.
	Cities []int `json:"cities"`
}

// messageJSON is a reply or a prompt: plain text and its controls.
type messageJSON struct {
	Text string            `json:"text"`
	Rows [][]componentJSON `json:"rows,omitempty"`
}

type componentJSON struct {
	Kind        string       `json:"kind"` // "button" or "select"
	ID          string       `json:"id"`
	Label       string       `json:"label,omitempty"`
	Emoji       string       `json:"emoji,omitempty"`
	Style       int          `json:"style,omitempty"`
	Disabled    bool         `json:"disabled,omitempty"`
	Placeholder string       `json:"placeholder,omitempty"`
	Options     []optionJSON `json:"options,omitempty"`
	Min         int          `json:"min,omitempty"`
	Max         int          `json:"max,omitempty"`
}

type optionJSON struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// overFrame ends a page's game: over, or gone.
type overFrame struct {
	Type   string `json:"type"` // "over"
	Text   string `json:"text"`
	Replay string `json:"replay,omitempty"`
}

// buildFrame is v as its reader's page shows it, in lang; svg is the
// board's SVG address.
func buildFrame(v *commands.View, lang, user, svg string) *stateFrame {
	b := v.Board
	names := make(map[string]string, len(v.Seats))
	for _, st := range v.Seats {
		if st.User != "" {
			names[st.User] = st.Name
		}
	}
	f := &stateFrame{Type: "state", Version: v.Version, Game: v.Game, Board: b.ID, SVG: svg, Lobby: v.Lobby,
		Title: present.EditionName(lang, b, v.Variant), Seat: v.Seat, Current: -1}
	for _, l := range v.Lines {
		f.Lines = append(f.Lines, plain(l, names))
	}
	if v.Lobby {
		f.boardFrame = sceneFrame(emptyScene(b))
		f.Status = present.T(lang, "web.lobby")
		for i, st := range v.Seats {
			f.Players = append(f.Players, playerJSON{Name: st.Name, Color: imaging.SeatColor(i), Ink: imaging.SeatInk(i), Bot: st.Bot,
				You: i == v.Seat, Claimed: present.T(lang, "web.claimed_by", "player", st.Name)})
		}
		for _, row := range v.LobbyControls {
			f.LobbyRows = append(f.LobbyRows, componentsJSON(row))
		}
		return f
	}
	pub := v.Public
	last := ""
	if len(v.Lines) > 0 {
		last = v.Lines[len(v.Lines)-1]
	}
	players := make([]present.Player, len(v.Seats))
	for i, st := range v.Seats {
		players[i] = present.Player{Name: st.Name, Bot: st.Bot}
	}
	sc := present.BoardScene(lang, pub, players, last)
	f.boardFrame, f.Current = sceneFrame(sc), sc.Current
	for i := range f.Players {
		f.Players[i].Claimed = present.T(lang, "web.claimed_by", "player", f.Players[i].Name)
		f.Players[i].You = i == v.Seat
	}
	for _, c := range pub.FaceUp {
		f.FaceUp = append(f.FaceUp, card(lang, c, 0))
	}
	if d := v.Draws; d != nil {
		for i, c := range d.FaceUp {
			if i < len(f.FaceUp) && pub.FaceUp[i] != engine.NoCard {
				cj := componentJSON{Kind: "button", ID: c.ID, Label: c.Label, Disabled: c.Disabled}
				f.FaceUp[i].Take = &cj
			}
		}
		if d.Deck != nil {
			f.Deck = componentPtr(*d.Deck)
		}
		if d.Tickets != nil {
			f.TicketsButton = componentPtr(*d.Tickets)
		}
	}
	if pv := v.Private; pv != nil {
		for c := engine.Card(1); c < engine.NumCards; c++ {
			if n := pv.Hand[c]; n > 0 {
				f.Hand = append(f.Hand, card(lang, c, n))
			}
		}
		for _, ts := range pv.Tickets {
			tk := &b.Tickets[ts.Ticket]
			f.Tickets = append(f.Tickets, ticketJSON{Label: present.TicketLabel(b, ts.Ticket), Done: ts.Completed,
				Cities: []int{int(tk.A), int(tk.B)}})
		}
		me := pv.Players[pv.Seat]
		f.StationsLeft, f.PassengersOut = me.Stations, me.PassengersLeft
	}
	f.CanClaim = v.CanClaim
	for _, id := range v.Claimable {
		f.Claimable = append(f.Claimable, int(id))
	}
	if v.Prompt != nil {
		m := messageOf(*v.Prompt, names)
		f.Prompt = &m
	}
	return f
}

// card is a card as the page draws it, in the pictures' colours.
func card(lang string, c engine.Card, n int) cardJSON {
	if c == engine.NoCard {
		return cardJSON{Name: "—", Fill: "#d8d4ca", Ink: "#555"}
	}
	fill, ink := imaging.CardColor(c)
	return cardJSON{Name: present.CardName(lang, c), Letter: imaging.CardLetter(c), Fill: fill, Ink: ink, N: n}
}

func componentPtr(c commands.Component) *componentJSON {
	cj := componentJSON{Kind: "button", ID: c.ID, Label: c.Label, Emoji: c.Emoji, Style: int(c.Style), Disabled: c.Disabled}
	return &cj
}

func componentsJSON(row commands.Row) []componentJSON {
	var out []componentJSON
	for _, c := range row {
		cj := componentJSON{ID: c.ID, Label: c.Label, Emoji: c.Emoji, Style: int(c.Style), Disabled: c.Disabled}
		switch c.Kind {
		case commands.Select:
			cj.Kind, cj.Placeholder, cj.Min, cj.Max = "select", c.Placeholder, c.Min, c.Max
			for _, o := range c.Options {
				cj.Options = append(cj.Options, optionJSON{Label: o.Label, Value: o.Value, Description: o.Description})
			}
		default:
			cj.Kind = "button"
		}
		out = append(out, cj)
	}
	return out
}

// messageOf is a message as the page shows it: text without markdown,
// mentions as names, embeds as lines; pictures are left out (the page
// draws the board and the hand itself).
func messageOf(m commands.Message, names map[string]string) messageJSON {
	var lines []string
	if m.Content != "" {
		lines = append(lines, plain(m.Content, names))
	}
	for _, e := range m.Embeds {
		for _, s := range []string{e.Title, e.Description} {
			if s != "" {
				lines = append(lines, plain(s, names))
			}
		}
		for _, fl := range e.Fields {
			lines = append(lines, plain(fl.Name, names)+"\n"+plain(fl.Value, names))
		}
		if e.Footer != "" {
			lines = append(lines, plain(e.Footer, names))
		}
	}
	out := messageJSON{Text: strings.Join(lines, "\n")}
	for _, row := range m.Components {
		out.Rows = append(out.Rows, componentsJSON(row))
	}
	return out
}

var mentionRE = regexp.MustCompile(`<@!?(\d+)>|<#(\d+)>`)

// plain is a Discord text for the page: mentions as names, no markdown.
func plain(s string, names map[string]string) string {
	s = mentionRE.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "<#") {
			return "#"
		}
		id := strings.Trim(m, "<@!>")
		if n, ok := names[id]; ok {
			return "@" + n
		}
		return "@…"
	})
	return present.StripMarkdown(s)
}

// sceneFrame is a scene's public board as the pages set it.
func sceneFrame(sc *imaging.Scene) boardFrame {
	b := sc.Board
	f := boardFrame{Status: sc.Status, Owners: sc.Owners, Stations: sc.Stations, Piles: sc.Text.Piles,
		Passengers: make([]int8, len(b.Cities)), Goods: make([]string, len(b.Cities)),
		Last: lastJSON{Tracks: []int{}, Cities: []int{}, Text: sc.LastMove.Text}}
	if f.Stations == nil {
		f.Stations = make([]int8, len(b.Cities))
		for i := range f.Stations {
			f.Stations[i] = -1
		}
	}
	for i := range f.Passengers {
		f.Passengers[i] = -1
	}
	for _, pm := range sc.Passengers {
		f.Passengers[pm.City] = int8(pm.Seat)
	}
	for c, stack := range sc.Goods {
		if len(stack) > 0 && c < len(f.Goods) {
			f.Goods[c] = strconv.Itoa(stack[0])
		}
	}
	for _, t := range sc.LastMove.Tracks {
		f.Last.Tracks = append(f.Last.Tracks, int(t))
	}
	for _, c := range sc.LastMove.Cities {
		f.Last.Cities = append(f.Last.Cities, int(c))
	}
	for i, p := range sc.Players {
		f.Players = append(f.Players, playerJSON{Name: p.Name, Color: imaging.SeatColor(i), Ink: imaging.SeatInk(i), Score: p.Score,
			Bot: p.Bot, Pieces: p.Pieces, Holding: p.Holding, Current: i == sc.Current})
	}
	return f
}

// emptyScene is a board with nothing on it, for its SVG.
func emptyScene(b *data.Board) *imaging.Scene {
	s := &imaging.Scene{Board: b, Current: -1, Owners: make([]int8, len(b.Tracks)), Stations: make([]int8, len(b.Cities))}
	for i := range s.Owners {
		s.Owners[i] = -1
	}
	for i := range s.Stations {
		s.Stations[i] = -1
	}
	return s
}
