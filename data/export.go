package data

// MapJSON is the public description of a board printed by `conductor maps`.
type MapJSON struct {
	ID                string        `json:"id"`
	Name              string        `json:"name"`
	Width             int           `json:"width"`
	Height            int           `json:"height"`
	Cities            []CityJSON    `json:"cities"`
	Countries         []CountryJSON `json:"countries"`
	Routes            []RouteJSON   `json:"routes"`
	Tickets           []TicketJSON  `json:"tickets"`
	TicketsSubstitute bool          `json:"tickets_substitute,omitempty"`
	TicketsNote       string        `json:"tickets_note,omitempty"`
	Rules             Rules         `json:"rules"`
	Variants          []Variant     `json:"variants"`
}

type CityJSON struct {
	Name       string  `json:"name"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Lat        float64 `json:"lat"`
	Lon        float64 `json:"lon"`
	Goods      string  `json:"goods,omitempty"`
	GoodsStack []int   `json:"goods_stack,omitempty"`
	Label      string  `json:"label,omitempty"`
	LabelDX    float64 `json:"label_dx,omitempty"`
	LabelDY    float64 `json:"label_dy,omitempty"`
}

type CountryJSON struct {
	Name    string  `json:"name"`
	English string  `json:"english,omitempty"`
	French  string  `json:"french,omitempty"`
	Areas   []Point `json:"areas"`
}

type RouteJSON struct {
	A           string `json:"a"`
	B           string `json:"b"`
	Length      int    `json:"length"`
	Color       string `json:"color"`
	Tunnel      bool   `json:"tunnel"`
	Locomotives int    `json:"locomotives"`
	Parallel    int    `json:"parallel"` // tracks in its group: 1, 2 (double) or 3 (triple)
	Area        int    `json:"area,omitempty"`
	Points      int    `json:"points"`
}

type TicketJSON struct {
	A         string `json:"a"`
	B         string `json:"b"`
	Points    int    `json:"points"`
	Deck      string `json:"deck"`
	Long      bool   `json:"long"`
	BigCities bool   `json:"big_cities"`
}

// JSON returns the board's public description.
func (b *Board) JSON() MapJSON {
	m := MapJSON{ID: b.ID, Name: b.Name, Width: b.Width, Height: b.Height,
		Cities: []CityJSON{}, Countries: []CountryJSON{}, Routes: []RouteJSON{}, Tickets: []TicketJSON{},
		TicketsSubstitute: b.TicketsSubstitute, TicketsNote: b.TicketsNote, Rules: b.Rules, Variants: b.Variants}
	for _, c := range b.Cities {
		if !c.Country {
			m.Cities = append(m.Cities, CityJSON{c.Name, c.X, c.Y, c.Lat, c.Lon, c.Goods, c.GoodsStack, c.Label, c.LabelDX, c.LabelDY})
		}
	}
	for _, c := range b.Countries {
		m.Countries = append(m.Countries, CountryJSON{c.Name, c.English, c.French, c.Areas})
	}
	for _, t := range b.Tracks {
		m.Routes = append(m.Routes, RouteJSON{A: b.Cities[t.A].Name, B: b.Cities[t.B].Name, Length: t.Length,
			Color: t.Color.String(), Tunnel: t.Tunnel, Locomotives: t.Locomotives,
			Parallel: len(b.Groups[t.Group]), Area: t.Area, Points: b.RoutePoints(t.Length)})
	}
	for _, t := range b.Tickets {
		m.Tickets = append(m.Tickets, TicketJSON{b.Cities[t.A].Name, b.Cities[t.B].Name, t.Points, t.Deck, t.Long, t.BigCities})
	}
	return m
}
