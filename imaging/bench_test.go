package imaging

import (
	"bytes"
	"image/png"
	"testing"

	"conductor/internal/testkit"
)

// midGame is the benchmark position: Europe, four players, forty tracks
// claimed, stations built, a full face-up display.
func midGame(tb testing.TB) *Scene {
	return playedScene(testkit.Board(tb, "europe"), 4, 40, 3)
}

// BenchmarkBoardPNG is one board picture: render and encode. The board's
// static art is built before the timing starts, as it is once per process.
func BenchmarkBoardPNG(b *testing.B) {
	s := midGame(b)
	r := NewRenderer()
	var buf bytes.Buffer
	if err := r.Board(&buf, s); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		buf.Reset()
		if err := r.Board(&buf, s); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}

// BenchmarkEncodeBestSpeedRGBA is the yardstick: encoding the same frame,
// already drawn, as an RGBA PNG at png.BestSpeed.
func BenchmarkEncodeBestSpeedRGBA(b *testing.B) {
	s := midGame(b)
	a := NewRenderer().art(s.Board)
	im, _ := a.boardLayer(s.Letters).full(func(c *canvas) { a.drawStatic(c, &s.Letters) }, func(c *canvas) { a.drawScene(c, s) })
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := enc.Encode(&buf, im); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}
