package main

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"path/filepath"

	xdraw "golang.org/x/image/draw"

	"conductor/present"
)

// emojiSheet shows the application emojis of present.AppEmojis: each at
// its full 128 px on a light and a dark background (Discord's two themes),
// and at the 22 px and 44 px a message shows them.
func emojiSheet() (output, error) {
	set := present.AppEmojis()
	const cell, gap = 128, 16
	w := len(set)*(cell+gap) + gap
	h := gap + cell + gap + cell + gap + 44 + gap
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	light, dark := color.RGBA{255, 255, 255, 255}, color.RGBA{49, 51, 56, 255}
	draw.Draw(out, image.Rect(0, 0, w, gap+cell+gap/2), image.NewUniform(light), image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(0, gap+cell+gap/2, w, h), image.NewUniform(dark), image.Point{}, draw.Src)
	for i, e := range set {
		im, err := png.Decode(bytes.NewReader(e.PNG))
		if err != nil {
			return output{}, err
		}
		x := gap + i*(cell+gap)
		draw.Draw(out, image.Rect(x, gap, x+cell, gap+cell), im, image.Point{}, draw.Over)
		y := 2*gap + cell
		draw.Draw(out, image.Rect(x, y, x+cell, y+cell), im, image.Point{}, draw.Over)
		y += cell + gap
		xdraw.CatmullRom.Scale(out, image.Rect(x+16, y+11, x+38, y+33), im, im.Bounds(), draw.Over, nil)
		xdraw.CatmullRom.Scale(out, image.Rect(x+60, y, x+104, y+44), im, im.Bounds(), draw.Over, nil)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return output{}, err
	}
	return output{path: filepath.Join("docs", "images", "emojis.png"), data: buf.Bytes(), picture: true}, nil
}
