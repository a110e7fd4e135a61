package web

import (
	"bytes"
	"net/http"
	"strings"
	"sync"

	"conductor/data"
	"conductor/imaging"
	"conductor/present"
)

// The board's pictures: the static map as a PNG (under a name made from
// its content, cached for ever) and, per board, variant and language, the
// SVG drawn over it with nothing claimed yet. The page sets the SVG's
// attributes from each frame.

type boardCache struct {
	mu  sync.Mutex
	art map[string][]byte // by imaging.ArtName
	svg map[string][]byte // by svgKey
}

func (c *boardCache) init() {
	c.art, c.svg = map[string][]byte{}, map[string][]byte{}
}

// get returns m[key], drawing it with draw the first time. A board's
// pictures never change, and there are few: they are kept for ever.
func (c *boardCache) get(m map[string][]byte, key string, draw func(*bytes.Buffer) error) ([]byte, error) {
	c.mu.Lock()
	data, ok := m[key]
	c.mu.Unlock()
	if ok {
		return data, nil
	}
	var buf bytes.Buffer
	if err := draw(&buf); err != nil {
		return nil, err
	}
	c.mu.Lock()
	m[key] = buf.Bytes()
	c.mu.Unlock()
	return buf.Bytes(), nil
}

// svgKey names a board's SVG: board, variant, language and a version of
// the program's drawing (the art's name), so an address is never reused
// for another picture.
func svgKey(b *data.Board, variant, lang string) string {
	return strings.TrimSuffix(imaging.ArtName(b), ".png") + "." + variant + "." + lang
}

// svgURL is the page's address of a board's SVG, relative to the page.
func svgURL(b *data.Board, variant, lang string) string {
	return "board/" + svgKey(b, variant, lang) + ".svg"
}

// artName names a board's art in a language (its tracks' colour letters
// are the language's): the program's art name with the language added.
func artName(b *data.Board, lang string) string {
	return strings.TrimSuffix(imaging.ArtName(b), ".png") + "." + lang + ".png"
}

// boardByArt finds the board an art name was made from.
func (s *Server) boardByArt(name string) (*data.Board, bool) {
	id, _, ok := strings.Cut(name, "-")
	if !ok {
		return nil, false
	}
	b, err := s.svc.Board(id)
	if err != nil || !strings.HasPrefix(name, strings.TrimSuffix(imaging.ArtName(b), ".png")) {
		return nil, false
	}
	return b, true
}

func (s *Server) serveArt(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	b, ok := s.boardByArt(name)
	base, _ := strings.CutSuffix(name, ".png")
	lang := base[strings.LastIndexByte(base, '.')+1:]
	if !ok || present.Lang(lang) != lang || name != artName(b, lang) {
		http.NotFound(w, r)
		return
	}
	png, err := s.boards.get(s.boards.art, name, func(w *bytes.Buffer) error {
		return s.opts.Renderer.BoardArt(w, b, present.Letters(lang))
	})
	if err != nil {
		s.log.Error("board art", "board", b.ID, "err", err)
		http.Error(w, "the board could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Write(png)
}

// serveBoardSVG serves /board/{art name without .png}.{variant}.{lang}.svg.
func (s *Server) serveBoardSVG(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutSuffix(r.PathValue("name"), ".svg")
	parts := strings.Split(name, ".")
	if !ok || len(parts) != 3 {
		http.NotFound(w, r)
		return
	}
	b, ok := s.boardByArt(parts[0])
	lang := parts[2]
	if !ok || parts[0]+".png" != imaging.ArtName(b) || present.Lang(lang) != lang || !knownVariant(b, parts[1]) {
		http.NotFound(w, r)
		return
	}
	doc, err := s.boardSVG(b, parts[1], lang)
	if err != nil {
		s.log.Error("board svg", "board", b.ID, "err", err)
		http.Error(w, "the board could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Write(doc)
}

func knownVariant(b *data.Board, v string) bool {
	if v == "" {
		return true
	}
	for _, bv := range b.Variants {
		if bv.ID == v {
			return true
		}
	}
	return false
}

// boardSVG is a board's empty SVG in a language, made once.
func (s *Server) boardSVG(b *data.Board, variant, lang string) ([]byte, error) {
	return s.boards.get(s.boards.svg, svgKey(b, variant, lang), func(w *bytes.Buffer) error {
		return s.opts.Renderer.BoardSVG(w, emptyScene(b), boardWords(b, variant, lang), "art/"+artName(b, lang))
	})
}

// boardWords are a board's labels for screen readers, in a language.
func boardWords(b *data.Board, variant, lang string) imaging.BoardWords {
	w := imaging.BoardWords{Title: present.EditionName(lang, b, variant)}
	for i := range b.Tracks {
		w.Tracks = append(w.Tracks, present.RouteLabel(lang, b, data.TrackID(i)))
	}
	return w
}
