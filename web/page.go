package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strings"
	"sync"

	"conductor/present"
)

// The page and its files, embedded: index.html (a template), app.js (the
// live page), replay.js (the replay page), board.js (the board both draw),
// app.css, and Discord's Embedded App SDK, vendored unmodified (see
// static/sdk/README.md). Files are served under a path naming a hash of
// them all, so they can be cached for ever; the HTML is never cached.

//go:embed all:static
var staticFiles embed.FS

// static is the embedded files, rooted at static/.
var static = func() fs.FS {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	return sub
}()

// staticHash names the files' version.
var staticHash = sync.OnceValue(func() string {
	h := sha256.New()
	var names []string
	fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	for _, n := range names {
		data, _ := fs.ReadFile(static, n)
		h.Write([]byte(n))
		h.Write([]byte{0})
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

var pageTemplate = template.Must(template.ParseFS(static, "index.html"))

// pageData fills index.html.
type pageData struct {
	Lang, Title string
	// Script is the page's module: app.js or replay.js.
	Script   string
	ClientID string
	Token    string // the replay page's token
	// Root is the way from the page's address to the server's root ("" or
	// "../"): every address the page uses is relative, so the page works
	// under Discord's /.proxy prefix too.
	Root  string
	Texts map[string]string
}

// csp lets the page load only its own files, talk only to its own server,
// and show avatars from Discord's CDN (which Discord's own CSP allows).
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https://cdn.discordapp.com; " +
	"connect-src 'self'; base-uri 'none'; object-src 'none'; form-action 'none'"

// discordOrigins are the Discord clients that may frame the Activity's
// page: the https origins the Embedded App SDK itself accepts messages
// from (getAllowedOrigins in the vendored Discord.mjs; sdk_test.go keeps
// the two lists equal). Left out of the SDK's list: http://localhost:3333
// (its developers' own), 'null' (not a frame ancestor CSP can name) and
// the page's own origin, which is 'self' here (the page served through
// Discord's proxy is framed at <app>.discordsays.com).
var discordOrigins = []string{
	"https://discord.com",
	"https://discordapp.com",
	"https://ptb.discord.com",
	"https://ptb.discordapp.com",
	"https://canary.discord.com",
	"https://canary.discordapp.com",
	"https://staging.discord.co",
	"https://pax.discord.com",
}

// activityCSP is the Activity page's policy: framed only by Discord.
var activityCSP = csp + "; frame-ancestors 'self' " + strings.Join(discordOrigins, " ")

// replayCSP is the replay page's: framed by nobody.
const replayCSP = csp + "; frame-ancestors 'none'"

// noFraming says, to every browser, that a response is never framed.
func noFraming(w http.ResponseWriter) {
	w.Header().Set("Content-Security-Policy", "frame-ancestors 'none'")
	w.Header().Set("X-Frame-Options", "DENY")
}

func (s *Server) writePage(w http.ResponseWriter, d pageData, policy string) {
	page, err := renderPage(d)
	if err != nil {
		s.log.Warn("writing a page", "err", err)
	}
	writePageBytes(w, page, policy)
}

func writePageBytes(w http.ResponseWriter, page []byte, policy string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", policy)
	w.Write(page)
}

// renderPage fills index.html.
func renderPage(d pageData) ([]byte, error) {
	texts, _ := json.Marshal(d.Texts)
	var buf bytes.Buffer
	err := pageTemplate.Execute(&buf, map[string]any{
		"Lang": d.Lang, "Title": d.Title, "Script": d.Script, "ClientID": d.ClientID, "Token": d.Token,
		"Static": d.Root + "s/" + staticHash() + "/", "Root": d.Root, "Texts": string(texts),
		"Connecting": d.Texts["connecting"],
	})
	return buf.Bytes(), err
}

// servePage is the Activity's page. It holds no data: the game comes from
// the API once Discord said who is reading.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	lang := acceptLang(r)
	s.writePage(w, pageData{Lang: lang, Title: present.T(lang, "web.title"), Script: "app.js", ClientID: s.clientID(), Texts: pageTexts(lang)}, activityCSP)
}

// serveStatic serves an embedded file; under another version's hash it is
// served all the same (a page of the last deploy still works), uncached.
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if name == "index.html" || !fs.ValidPath(name) {
		http.NotFound(w, r)
		return
	}
	data, err := fs.ReadFile(static, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	switch path.Ext(name) {
	case ".js", ".mjs":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	case ".md":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	if r.PathValue("hash") == staticHash() {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.Write(data)
}

// pageTexts are the page's words in a language, by the key after "web.";
// a placeholder stays written {like_this} for the page to fill.
func pageTexts(lang string) map[string]string {
	out := map[string]string{}
	for _, k := range webKeys {
		out[k] = present.T(lang, "web."+k, "player", "{player}", "city", "{city}", "n", "{n}", "total", "{total}", "board", "{board}", "level", "{level}")
	}
	out["face_up"] = present.T(lang, "picture.face_up")
	out["bot"] = present.T(lang, "picture.bot")
	return out
}

// webKeys are the page's own words (present/locales: "web.*").
var webKeys = strings.Fields(`title connecting outside authorise authorise_button auth_failed not_in_instance other_guild
	unknown_instance pick no_game over replay hand tickets tickets_to_choose players log spectating your_turn claimed_by
	reconnecting session_ended zoom_in zoom_out zoom_all zoom_tickets which station_here passenger_from lobby you completed close replay_title replay_turn
	replay_first replay_prev replay_next replay_last replay_play replay_pause final_scores tickets_of open_game
	claim claim_passenger choose setup_title setup_intro setup_edition setup_variant setup_bots setup_level setup_seats
	setup_bot setup_free setup_open setup_tables`)
