package data

import "fmt"

// Color is the colour printed on a track or a train card. Gray tracks take
// any one colour; on cards, Gray never appears.
type Color uint8

const (
	Gray Color = iota
	Pink
	Blue
	Orange
	White
	Green
	Yellow
	Black
	Red
)

// NumColors counts the colours including Gray; the card colours are 1..NumColors-1.
const NumColors = 9

// CardColors lists the eight colours of train cards, in the order they are drawn.
var CardColors = [...]Color{Pink, Blue, Orange, White, Green, Yellow, Black, Red}

var colorNames = [NumColors]string{"gray", "pink", "blue", "orange", "white", "green", "yellow", "black", "red"}

func (c Color) String() string {
	if int(c) < len(colorNames) {
		return colorNames[c]
	}
	return fmt.Sprintf("color(%d)", c)
}

// ParseColor reads a lowercase English colour name. "purple" is accepted for
// pink, the name some printings use for the same cards.
func ParseColor(s string) (Color, error) {
	for i, n := range colorNames {
		if n == s {
			return Color(i), nil
		}
	}
	switch s {
	case "purple", "violet":
		return Pink, nil
	case "grey", "any":
		return Gray, nil
	}
	return Gray, fmt.Errorf("unknown colour %q (use one of gray, pink, blue, orange, white, green, yellow, black, red)", s)
}

func (c Color) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

func (c *Color) UnmarshalText(b []byte) error {
	v, err := ParseColor(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
