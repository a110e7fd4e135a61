package present

import "conductor/data"

// Edition names as each language's box prints them: "Les Aventuriers du
// Rail — Europe", "Zug um Zug — Märklin". The catalogues hold them as
// "edition.<board>" and "variant.<board>.<variant>"; a board loaded from a
// file the catalogues do not know keeps the name its data gives.

// EditionName is the board's edition in the language of loc, followed by
// the variant when the table plays another than the board's standard game
// (its first variant): "Zug um Zug — Europa · Europa 1912". An empty
// variant names the edition alone.
func EditionName(loc string, b *data.Board, variant string) string {
	name := b.Name
	if _, m := find(loc, "edition."+b.ID); m != nil {
		name = T(loc, "edition."+b.ID)
	}
	if variant == "" || len(b.Variants) == 0 || variant == b.Variants[0].ID {
		return name
	}
	return name + " · " + VariantName(loc, b, variant)
}

// VariantName is one of the board's variants in the language of loc:
// "Mega Europa", "Big Cities of Europe".
func VariantName(loc string, b *data.Board, variant string) string {
	if _, m := find(loc, "variant."+b.ID+"."+variant); m != nil {
		return T(loc, "variant."+b.ID+"."+variant)
	}
	if v, ok := b.Variant(variant); ok {
		return v.Name
	}
	return variant
}
