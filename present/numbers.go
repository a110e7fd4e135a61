package present

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
	xmessage "golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Numbers as each language writes them, by CLDR's rules through
// golang.org/x/text: "1,440" and "29.0" in English, "1 440" and "29,0" in
// French, "1.440" and "29,0" in German. A number below zero takes the true
// minus sign ("−7"), as the score sheets print it, never a hyphen.

// printers holds one x/text printer per language we speak (a Printer is
// safe for concurrent use).
var printers = func() map[string]*xmessage.Printer {
	out := map[string]*xmessage.Printer{}
	for _, l := range Languages {
		out[l] = xmessage.NewPrinter(language.MustParse(l))
	}
	return out
}()

func printer(loc string) *xmessage.Printer { return printers[Lang(loc)] }

// Number writes a whole number in the language of loc.
func Number(loc string, n int) string {
	return trueMinus(printer(loc).Sprint(number.Decimal(n)))
}

// Decimal writes f with exactly digits digits after the decimal mark, in
// the language of loc: Decimal("fr", 29, 1) is "29,0".
func Decimal(loc string, f float64, digits int) string {
	return trueMinus(printer(loc).Sprint(number.Decimal(f, number.Scale(digits))))
}

// trueMinus writes a leading hyphen-minus as the minus sign U+2212.
func trueMinus(s string) string {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return "−" + rest
	}
	return s
}

// showValue writes a message argument in the language of loc: numbers
// as the language writes them, anything else as it prints.
func showValue(loc string) func(any) string {
	return func(v any) string {
		switch v := v.(type) {
		case int:
			return Number(loc, v)
		case int64:
			return Number(loc, int(v))
		case int32:
			return Number(loc, int(v))
		case float64:
			return Decimal(loc, v, 1)
		case float32:
			return Decimal(loc, float64(v), 1)
		}
		return fmt.Sprint(v)
	}
}
