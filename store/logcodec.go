package store

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"
)

// A game's log is kept in chunks of chunkLen entries, each a compact
// binary value: a move costs a few bytes more than its notation, and
// appending one rewrites only the last chunk. A full chunk is sealed
// compressed when that makes it smaller.
//
// A chunk is a format byte (chunkRaw or chunkFlate) and its entries, each:
//
//	head byte: bits 0-2 the seat (7: a zigzag varint follows),
//	           bits 3-4 how the time is written (timeDelta, timeMilli, timeNano),
//	           bits 5-6 the interaction id (none, decimal, text), bit 7 zero
//	[seat]     zigzag varint, when bits 0-2 are 7
//	time       timeDelta: zigzag varint of milliseconds since the previous entry;
//	           timeMilli: zigzag varint of Unix milliseconds;
//	           timeNano:  zigzag varint of Unix seconds, uvarint of nanoseconds
//	[interaction] decimal: uvarint of the number; text: uvarint length, bytes
//	action     uvarint length, bytes (the engine's notation)
//
// Times keep whatever precision they have: a time on a whole millisecond
// (as the service writes them) takes two or three bytes, any other (older
// logs) nine or so.

// chunkLen is the number of log entries a chunk holds.
const chunkLen = 32

const (
	chunkRaw   byte = 1
	chunkFlate byte = 2
)

const (
	timeDelta = iota
	timeMilli
	timeNano
)

const (
	interactionNone = iota
	interactionDecimal
	interactionText
)

// seatEscape in the head byte says the seat follows as a varint.
const seatEscape = 7

// appendEntry encodes e after an entry written at prev (nil: none).
func appendEntry(dst []byte, e *LogEntry, prev *time.Time) []byte {
	head := byte(0)
	if e.Seat >= 0 && e.Seat < seatEscape {
		head = byte(e.Seat)
	} else {
		head = seatEscape
	}
	at := e.At
	form := timeNano
	var delta int64
	if at.Nanosecond()%int(time.Millisecond) == 0 {
		form = timeMilli
		if prev != nil && prev.Nanosecond()%int(time.Millisecond) == 0 {
			d := at.Sub(*prev)
			if d != math.MinInt64 && d != math.MaxInt64 { // no overflow
				form, delta = timeDelta, d.Milliseconds()
			}
		}
	}
	head |= byte(form) << 3
	id, idForm := uint64(0), interactionNone
	if e.Interaction != "" {
		idForm = interactionText
		if n, ok := decimalID(e.Interaction); ok {
			id, idForm = n, interactionDecimal
		}
	}
	head |= byte(idForm) << 5
	dst = append(dst, head)
	if head&7 == seatEscape {
		dst = binary.AppendVarint(dst, int64(e.Seat))
	}
	switch form {
	case timeDelta:
		dst = binary.AppendVarint(dst, delta)
	case timeMilli:
		dst = binary.AppendVarint(dst, at.UnixMilli())
	case timeNano:
		dst = binary.AppendVarint(dst, at.Unix())
		dst = binary.AppendUvarint(dst, uint64(at.Nanosecond()))
	}
	switch idForm {
	case interactionDecimal:
		dst = binary.AppendUvarint(dst, id)
	case interactionText:
		dst = binary.AppendUvarint(dst, uint64(len(e.Interaction)))
		dst = append(dst, e.Interaction...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(e.Action)))
	return append(dst, e.Action...)
}

// decimalID reads an id written as a decimal number (Discord's snowflakes)
// that formats back to the same text.
func decimalID(s string) (uint64, bool) {
	if len(s) > 20 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

var errShortEntry = errors.New("truncated log entry")

// decodeEntries appends the entries of a chunk's payload (without its
// format byte) to out.
func decodeEntries(out []LogEntry, p []byte) ([]LogEntry, error) {
	var prev time.Time
	havePrev := false
	for len(p) > 0 {
		head := p[0]
		p = p[1:]
		if head&0x80 != 0 {
			return out, fmt.Errorf("log entry head %#x", head)
		}
		var e LogEntry
		e.Seat = int(head & 7)
		if e.Seat == seatEscape {
			v, n := binary.Varint(p)
			if n <= 0 {
				return out, errShortEntry
			}
			e.Seat, p = int(v), p[n:]
		}
		switch (head >> 3) & 3 {
		case timeDelta:
			v, n := binary.Varint(p)
			if n <= 0 || !havePrev {
				return out, errShortEntry
			}
			e.At, p = prev.Add(time.Duration(v)*time.Millisecond), p[n:]
		case timeMilli:
			v, n := binary.Varint(p)
			if n <= 0 {
				return out, errShortEntry
			}
			e.At, p = time.UnixMilli(v).UTC(), p[n:]
		case timeNano:
			sec, n := binary.Varint(p)
			if n <= 0 {
				return out, errShortEntry
			}
			p = p[n:]
			ns, m := binary.Uvarint(p)
			if m <= 0 || ns >= uint64(time.Second) {
				return out, errShortEntry
			}
			e.At, p = time.Unix(sec, int64(ns)).UTC(), p[m:]
		default:
			return out, fmt.Errorf("log entry head %#x", head)
		}
		switch (head >> 5) & 3 {
		case interactionNone:
		case interactionDecimal:
			v, n := binary.Uvarint(p)
			if n <= 0 {
				return out, errShortEntry
			}
			e.Interaction, p = strconv.FormatUint(v, 10), p[n:]
		case interactionText:
			s, rest, err := readString(p)
			if err != nil {
				return out, err
			}
			e.Interaction, p = s, rest
		default:
			return out, fmt.Errorf("log entry head %#x", head)
		}
		s, rest, err := readString(p)
		if err != nil {
			return out, err
		}
		e.Action, p = s, rest
		prev, havePrev = e.At, true
		out = append(out, e)
	}
	return out, nil
}

func readString(p []byte) (string, []byte, error) {
	l, n := binary.Uvarint(p)
	if n <= 0 || uint64(len(p)-n) < l {
		return "", nil, errShortEntry
	}
	return string(p[n : n+int(l)]), p[n+int(l):], nil
}

// encodeChunk writes entries as one chunk; sealed chunks are compressed
// when that saves space.
func encodeChunk(entries []LogEntry, seal bool) []byte {
	raw := []byte{chunkRaw}
	var prev *time.Time
	for i := range entries {
		raw = appendEntry(raw, &entries[i], prev)
		prev = &entries[i].At
	}
	if !seal {
		return raw
	}
	if z := deflate(raw[1:]); len(z)+1 < len(raw) {
		return append([]byte{chunkFlate}, z...)
	}
	return raw
}

// appendToChunk adds e to a raw chunk whose last entry was written at last
// (nil when the chunk is empty).
func appendToChunk(chunk []byte, e *LogEntry, last *time.Time) []byte {
	if len(chunk) == 0 {
		chunk = []byte{chunkRaw}
	}
	return appendEntry(chunk, e, last)
}

// decodeChunk appends the entries of a stored chunk to out.
func decodeChunk(out []LogEntry, v []byte) ([]LogEntry, error) {
	if len(v) == 0 {
		return out, errors.New("empty log chunk")
	}
	switch v[0] {
	case chunkRaw:
		return decodeEntries(out, v[1:])
	case chunkFlate:
		raw, err := inflate(v[1:])
		if err != nil {
			return out, err
		}
		return decodeEntries(out, raw)
	}
	return out, fmt.Errorf("log chunk format %d", v[0])
}

// logDictionary primes the compression of sealed chunks with the words of
// the notation: it is part of the chunkFlate format and never changes.
var logDictionary = []byte("draw deck draw 1 draw 2 draw 3 draw 4 draw 5 tickets keep 0,1,2 keep none tunnel cancel tunnel pay loco=0 pass " +
	"station  pay=red loco=0 pay=blue loco=1 pay=green loco=2 pay=yellow pay=black pay=white pay=orange pay=pink pay=gray loco4=1 passenger= move  path=" +
	" claim |red |blue |green |yellow |black |white |orange |pink |gray ")

var (
	deflaters sync.Pool // *flate.Writer primed with logDictionary
	inflaters sync.Pool // io.ReadCloser (flate.Resetter) primed with logDictionary
)

func deflate(p []byte) []byte {
	var buf bytes.Buffer
	w, _ := deflaters.Get().(*flate.Writer)
	if w == nil {
		w, _ = flate.NewWriterDict(&buf, flate.BestCompression, logDictionary)
	} else {
		w.Reset(&buf)
	}
	w.Write(p)
	w.Close()
	deflaters.Put(w)
	return buf.Bytes()
}

func inflate(p []byte) ([]byte, error) {
	r, _ := inflaters.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReaderDict(bytes.NewReader(p), logDictionary)
	} else if err := r.(flate.Resetter).Reset(bytes.NewReader(p), logDictionary); err != nil {
		return nil, err
	}
	out, err := io.ReadAll(r)
	inflaters.Put(r)
	return out, err
}
