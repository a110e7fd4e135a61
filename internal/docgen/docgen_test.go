package main

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// regenerate is what to run when a generated file is stale.
const regenerate = "run `go run ./internal/docgen` and commit what it writes"

// generated is docgen's output, made once for all the tests.
var generated = sync.OnceValues(func() ([]output, error) {
	r, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	return outputs(r)
})

func root(t *testing.T) string {
	t.Helper()
	r, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGeneratedDocsAreCurrent: every generated file is what docgen writes
// now: the pictures show the program's current look and words, the tables
// the code's tables. Pictures are compared pixel by pixel (the PNG and GIF
// encoders may change their bytes, not what they show).
func TestGeneratedDocsAreCurrent(t *testing.T) {
	dir := root(t)
	outs, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range outs {
		have, err := os.ReadFile(filepath.Join(dir, o.path))
		if err != nil {
			t.Errorf("%s: %v; %s", o.path, err, regenerate)
			continue
		}
		if !o.picture {
			if !bytes.Equal(have, o.data) {
				t.Errorf("%s is stale: its generated tables differ from the code's; %s", o.path, regenerate)
			}
			continue
		}
		if why := samePicture(have, o.data); why != "" {
			t.Errorf("%s is stale: %s; %s", o.path, why, regenerate)
		}
	}
}

// samePicture says how two encoded pictures differ, "" when they show the
// same. On another processor floating point may round differently (a
// fused multiply-add), which moves antialiased edges by a shade: a pixel
// counts as changed when a channel moves by more than a few shades, and a
// handful of them are tolerated. A changed word or number changes dozens.
func samePicture(have, want []byte) string {
	hf, err := decodeFrames(have)
	if err != nil {
		return "it does not decode: " + err.Error()
	}
	wf, err := decodeFrames(want)
	if err != nil {
		return "the new picture does not decode: " + err.Error()
	}
	if len(hf) != len(wf) {
		return "it has " + strconv.Itoa(len(hf)) + " frames, the program draws " + strconv.Itoa(len(wf))
	}
	changed := 0
	for i := range wf {
		if hf[i].Bounds() != wf[i].Bounds() {
			return "its size is " + hf[i].Bounds().String() + ", the program draws " + wf[i].Bounds().String()
		}
		b := wf[i].Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if far(hf[i].At(x, y), wf[i].At(x, y)) {
					changed++
				}
			}
		}
	}
	if changed > 8 {
		return strconv.Itoa(changed) + " pixels differ from what the program draws now"
	}
	return ""
}

func far(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	d := func(x, y uint32) bool { return max(x, y)-min(x, y) > 48<<8 }
	return d(ar, br) || d(ag, bg) || d(ab, bb) || d(aa, ba)
}

// decodeFrames decodes a PNG, or each frame of a GIF as shown (a frame
// after the first draws only what changed over the previous ones).
func decodeFrames(data []byte) ([]image.Image, error) {
	if !bytes.HasPrefix(data, []byte("GIF")) {
		im, err := png.Decode(bytes.NewReader(data))
		return []image.Image{im}, err
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var out []image.Image
	for _, f := range g.Image {
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			for x := f.Rect.Min.X; x < f.Rect.Max.X; x++ {
				if c := f.At(x, y); !transparent(c) {
					canvas.Set(x, y, c)
				}
			}
		}
		frame := image.NewRGBA(canvas.Rect)
		copy(frame.Pix, canvas.Pix)
		out = append(out, frame)
	}
	return out, nil
}

func transparent(c color.Color) bool {
	_, _, _, a := c.RGBA()
	return a == 0
}

// TestEveryPictureIsShown: each generated picture is shown or linked from
// the README or a guide in docs/, and docs/images holds no picture that
// nothing generates (it would never be updated).
func TestEveryPictureIsShown(t *testing.T) {
	dir := root(t)
	outs, err := generated()
	if err != nil {
		t.Fatal(err)
	}
	var docs strings.Builder
	mds, _ := filepath.Glob(filepath.Join(dir, "docs", "*.md"))
	for _, p := range append(mds, filepath.Join(dir, "README.md")) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs.Write(src)
	}
	var made []string
	for _, o := range outs {
		if !o.picture {
			continue
		}
		name := filepath.Base(o.path)
		made = append(made, name)
		if !regexp.MustCompile(`images/` + regexp.QuoteMeta(name) + `\)`).MatchString(docs.String()) {
			t.Errorf("no document shows or links %s", o.path)
		}
	}
	files, _ := os.ReadDir(filepath.Join(dir, "docs", "images"))
	for _, f := range files {
		if strings.HasPrefix(f.Name(), "web-") || strings.HasPrefix(f.Name(), "thread-") {
			// Pictures taken with a browser: the live page's by
			// internal/webshots (shown by docs/activity.md), the thread's
			// board message's by internal/webshots board (docs/discord-limits.md).
			if !regexp.MustCompile(`images/` + regexp.QuoteMeta(f.Name()) + `\)`).MatchString(docs.String()) {
				t.Errorf("no document shows or links docs/images/%s", f.Name())
			}
			continue
		}
		if !slices.Contains(made, f.Name()) {
			t.Errorf("docs/images/%s is not generated: remove it, or generate it in internal/docgen", f.Name())
		}
	}
	for _, want := range []string{"europe-late.fr.png", "marklin-late.de.png"} {
		if !slices.Contains(made, want) {
			t.Errorf("no %s: the docs show a French and a German table", want)
		}
	}
}
