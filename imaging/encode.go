package imaging

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"
)

// encodePNG writes a palette image as a PNG: IHDR, PLTE, one IDAT, IEND and
// nothing else. Compression (BestSpeed, no row filters, as image/png does
// for palette images) is split over bands of rows compressed in parallel:
// each band is a deflate stream of its own, ended with a sync flush so the
// bands concatenate into one valid stream, and their checksums combine.
// The bands' goroutines end before it returns and only read im: a package
// drawing pictures runs no goroutine of imaging's while its own code runs,
// so it needs no race detector for them (imaging's own tests have it).
//
//testall:joined
func encodePNG(w io.Writer, im *image.Paletted) error {
	h := im.Rect.Dy()
	parts := max(1, min(runtime.GOMAXPROCS(0), 4, h/64))
	bands := make([]*band, parts)
	var wg sync.WaitGroup
	for i := range bands {
		y0, y1 := im.Rect.Min.Y+h*i/parts, im.Rect.Min.Y+h*(i+1)/parts
		bands[i] = getBand()
		wg.Add(1)
		go func(b *band, last bool) {
			defer wg.Done()
			b.compress(im, y0, y1, last)
		}(bands[i], i == parts-1)
	}
	wg.Wait()
	defer func() {
		for _, b := range bands {
			bandPool.Put(b)
		}
	}()
	for _, b := range bands {
		if b.err != nil {
			return b.err
		}
	}

	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(im.Rect.Dx()))
	binary.BigEndian.PutUint32(hdr[4:], uint32(h))
	hdr[8], hdr[9] = 8, 3 // 8-bit palette indexes
	pal := make([]byte, 0, 3*len(im.Palette))
	for _, c := range im.Palette {
		r, g, b, _ := c.RGBA()
		pal = append(pal, byte(r>>8), byte(g>>8), byte(b>>8))
	}
	sum := bands[0].adler
	n := 2 // zlib header
	for i, b := range bands {
		if i > 0 {
			sum = adler32Combine(sum, b.adler, b.raw)
		}
		n += b.out.Len()
	}
	cw := chunkWriter{w: w}
	cw.raw([]byte("\x89PNG\r\n\x1a\n"))
	cw.chunk("IHDR", hdr[:])
	cw.chunk("PLTE", pal)
	cw.begin("IDAT", n+4)
	cw.data([]byte{0x78, 0x01}) // zlib: deflate, 32K window, fastest
	for _, b := range bands {
		cw.data(b.out.Bytes())
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], sum)
	cw.data(tail[:])
	cw.end()
	cw.chunk("IEND", nil)
	return cw.err
}

// band is one band of rows being compressed, with its reusable compressor.
type band struct {
	fw    *flate.Writer
	out   bytes.Buffer
	adler uint32
	raw   int // uncompressed bytes
	err   error
}

var bandPool sync.Pool

func getBand() *band {
	b, _ := bandPool.Get().(*band)
	if b == nil {
		b = &band{}
		b.fw, _ = flate.NewWriter(&b.out, flate.BestSpeed)
	}
	b.out.Reset()
	b.fw.Reset(&b.out)
	b.err = nil
	return b
}

// compress deflates rows y0..y1, each behind its filter byte (0, none). The
// last band ends the stream; the others end on a byte boundary, open.
func (b *band) compress(im *image.Paletted, y0, y1 int, last bool) {
	a := adler32.New()
	w := io.MultiWriter(b.fw, a)
	zero := []byte{0}
	b.raw = 0
	for y := y0; y < y1 && b.err == nil; y++ {
		row := im.Pix[im.PixOffset(im.Rect.Min.X, y):][:im.Rect.Dx()]
		if _, b.err = w.Write(zero); b.err == nil {
			_, b.err = w.Write(row)
		}
		b.raw += 1 + len(row)
	}
	if b.err != nil {
		return
	}
	if last {
		b.err = b.fw.Close()
	} else {
		b.err = b.fw.Flush()
	}
	b.adler = a.Sum32()
}

// adler32Combine returns the Adler-32 of two byte runs joined, from their
// own sums and the second's length (as zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	s1 := a1 & 0xffff
	s2 := rem * s1 % base
	s1 += (a2 & 0xffff) + base - 1
	s2 += (a1 >> 16) + (a2 >> 16) + base - rem
	for s1 >= base {
		s1 -= base
	}
	for s2 >= base {
		s2 -= base
	}
	return s1 | s2<<16
}

// chunkWriter writes PNG chunks, remembering the first error.
type chunkWriter struct {
	w   io.Writer
	crc uint32
	err error
}

func (c *chunkWriter) raw(p []byte) {
	if c.err == nil {
		_, c.err = c.w.Write(p)
	}
}

func (c *chunkWriter) begin(kind string, n int) {
	var h [8]byte
	binary.BigEndian.PutUint32(h[:4], uint32(n))
	copy(h[4:], kind)
	c.raw(h[:])
	c.crc = crc32.ChecksumIEEE(h[4:])
}

func (c *chunkWriter) data(p []byte) {
	c.crc = crc32.Update(c.crc, crc32.IEEETable, p)
	c.raw(p)
}

func (c *chunkWriter) end() {
	var t [4]byte
	binary.BigEndian.PutUint32(t[:], c.crc)
	c.raw(t[:])
}

func (c *chunkWriter) chunk(kind string, p []byte) {
	c.begin(kind, len(p))
	c.data(p)
	c.end()
}
