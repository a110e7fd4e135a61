package web

import (
	"bytes"
	"compress/gzip"
	"container/list"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sync/singleflight"

	"conductor/data"
	"conductor/imaging"
)

// The replays served, kept by their token: a request for a replay (its
// page, its data, a turn's picture) asks the cache before anything else,
// so a link shared in a busy server costs its replay and each turn's
// picture once. What is kept is bounded (replayBudget bytes, the least
// recently asked replays going first) and stored compressed: browsers
// take it as it is (Content-Encoding: gzip).

// replayBudget bounds the bytes the replays kept hold (data, pictures and
// an estimate of their scenes).
const replayBudget = 48 << 20

// maxReplaysKept bounds their number, whatever their size.
const maxReplaysKept = 256

// builtReplay is a game's replay as served: the page's data and the
// scenes for the turns' pictures, drawn when first asked.
type builtReplay struct {
	page   []byte // the page, for its token
	data   gzBody
	lang   string
	title  string
	board  *data.Board
	scenes []imaging.Scene
	words  imaging.BoardWords
	// sceneBytes estimates what the scenes hold (their data's size).
	sceneBytes int

	mu    sync.Mutex // guards turns
	turns map[int]gzBody
}

type replayEntry struct {
	token, guild string
	r            *builtReplay
	size         int
}

type replayCache struct {
	mu    sync.Mutex
	byTok map[string]*list.Element // of *replayEntry
	lru   list.List                // most recently asked first
	bytes int
	// gens counts each guild's forgettings: a build begun before one is
	// not kept.
	gens map[string]uint64

	builds singleflight.Group // by token, and token/turn
}

func (c *replayCache) get(token string) (*builtReplay, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byTok[token]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*replayEntry).r, true
}

// generation is a guild's count of forgettings, read before a build.
func (c *replayCache) generation(guild string) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gens[guild]
}

// put keeps a replay built at generation gen; false when its guild's
// games were forgotten since (the replay must not be served).
func (c *replayCache) put(token, guild string, r *builtReplay, gen uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gens[guild] != gen {
		return false
	}
	if c.byTok == nil {
		c.byTok = map[string]*list.Element{}
	}
	if e, ok := c.byTok[token]; ok {
		c.removeLocked(e)
	}
	ent := &replayEntry{token: token, guild: guild, r: r, size: len(r.page) + len(r.data.gz) + 2*r.sceneBytes}
	c.byTok[token] = c.lru.PushFront(ent)
	c.bytes += ent.size
	c.trimLocked(ent)
	return true
}

// grew accounts n more bytes held by a kept replay (a turn's picture);
// false when the replay is no longer kept (its picture is then not kept
// either).
func (c *replayCache) grew(token string, r *builtReplay, n int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byTok[token]
	if !ok || e.Value.(*replayEntry).r != r {
		return false
	}
	ent := e.Value.(*replayEntry)
	ent.size += n
	c.bytes += n
	c.trimLocked(ent)
	return true
}

// trimLocked drops the least recently asked replays until the cache is
// within its bounds; the one just used (keep) goes last, only when it alone
// is over the budget.
func (c *replayCache) trimLocked(keep *replayEntry) {
	if e, ok := c.byTok[keep.token]; ok {
		c.lru.MoveToFront(e)
	}
	for c.lru.Len() > 0 && (c.bytes > replayBudget || c.lru.Len() > maxReplaysKept) {
		c.removeLocked(c.lru.Back())
	}
}

func (c *replayCache) removeLocked(e *list.Element) {
	ent := e.Value.(*replayEntry)
	c.lru.Remove(e)
	delete(c.byTok, ent.token)
	c.bytes -= ent.size
}

// forget drops a guild's replays, and any being built.
func (c *replayCache) forget(guild string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gens == nil {
		c.gens = map[string]uint64{}
	}
	c.gens[guild]++
	for e := c.lru.Front(); e != nil; {
		next := e.Next()
		if e.Value.(*replayEntry).guild == guild {
			c.removeLocked(e)
		}
		e = next
	}
}

// replayTurn is turn n's picture of a replay, drawn the first time.
func (s *Server) replayTurn(token string, rp *builtReplay, n int, mayBuild func() bool) (gzBody, error) {
	rp.mu.Lock()
	svg, ok := rp.turns[n]
	rp.mu.Unlock()
	if ok {
		return svg, nil
	}
	if !mayBuild() {
		return gzBody{}, errLimited
	}
	v, err, _ := s.replays.builds.Do(token+"/"+strconv.Itoa(n), func() (any, error) {
		rp.mu.Lock()
		svg, ok := rp.turns[n]
		rp.mu.Unlock()
		if ok {
			return svg, nil
		}
		var buf bytes.Buffer
		if err := s.opts.Renderer.BoardSVG(&buf, &rp.scenes[n], rp.words, "../../../art/"+artName(rp.board, rp.lang)); err != nil {
			return nil, err
		}
		svg, err := gzipped(buf.Bytes())
		if err != nil {
			return nil, err
		}
		if s.replays.grew(token, rp, len(svg.gz)) {
			rp.mu.Lock()
			rp.turns[n] = svg
			rp.mu.Unlock()
		}
		return svg, nil
	})
	if err != nil {
		return gzBody{}, err
	}
	return v.(gzBody), nil
}

// gzBody is an answer's body kept compressed.
type gzBody struct{ gz []byte }

func gzipped(b []byte) (gzBody, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err != nil {
		return gzBody{}, err
	}
	zw.Write(b)
	if err := zw.Close(); err != nil {
		return gzBody{}, err
	}
	return gzBody{gz: bytes.Clone(buf.Bytes())}, nil
}

// serve writes the body, compressed when the client takes gzip.
func (b gzBody) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Add("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(len(b.gz)))
		w.Write(b.gz)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(b.gz))
	if err != nil {
		return
	}
	io.Copy(w, zr)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(enc), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}
