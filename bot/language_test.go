package bot_test

import (
	"regexp"
	"strings"
	"testing"

	"conductor/internal/fakediscord"
	"conductor/present"
)

// localeTable opens a table speaking lang: its players' Discord speaks
// lang too; a bot takes the third seat.
func localeTable(e *env, lang, mapID, variant string, names ...string) *table {
	e.t.Helper()
	tb := openTable(e, "table-"+lang, mapID, variant, lang, lang, "normal", names...)
	tb.bots = true
	tb.setup()
	return tb
}

// openTable opens a table in channel whose players' clients speak locale,
// in the table language lang, with a bot of level bot ("": none), and
// starts it with the lobby's buttons.
func openTable(e *env, channel, mapID, variant, locale, lang, bot string, names ...string) *table {
	e.t.Helper()
	tb := &table{e: e, parent: e.channel(channel), kept: map[string]bool{}, returned: map[string]bool{}}
	for _, n := range names {
		u := e.user(n)
		e.srv.SetUserLocale(u.ID, locale)
		tb.players = append(tb.players, u)
	}
	tb.host = tb.players[0]
	opts := []fakediscord.CommandOption{fakediscord.StringOption("map", mapID), fakediscord.StringOption("language", lang)}
	if variant != "" {
		opts = append(opts, fakediscord.StringOption("variant", variant))
	}
	lobby, ch := e.newGame(tb.host.ID, tb.parent.ID, opts...)
	tb.ch = ch
	tb.do(lobby)
	if button(lobby.msg, "lobby:", ":join") == "" {
		e.t.Fatalf("/ttr new: %q", lobby.msg.Body())
	}
	for _, p := range tb.players[1:] {
		m, _ := e.srv.Message(lobby.msg.ID)
		tb.do(e.click(p.ID, m.ID, button(m, "lobby:", ":join")))
	}
	if bot != "" {
		if a := tb.do(e.ttr(tb.host.ID, tb.ch.ID, "addbot", fakediscord.StringOption("level", bot))); a.msg.Ephemeral() {
			e.t.Fatalf("/ttr addbot: %q", a.msg.Body())
		}
	}
	m, _ := e.srv.Message(lobby.msg.ID)
	tb.do(e.click(tb.host.ID, m.ID, button(m, "lobby:", ":start")))
	if _, ok := tb.board(); !ok {
		e.t.Fatal("no board after the start")
	}
	return tb
}

// TestTablesSpeakTheirLanguageToTheEnd plays a French table (Europe) and a
// German one (Märklin), each of two people and a bot, to the end, with a
// watcher and the commands around a game (help, rules, the board, the
// scores, the stats, the tables of the channel): no text any of them
// receives, public or private, holds an English phrase of the catalogues
// that the table's language says otherwise.
func TestTablesSpeakTheirLanguageToTheEnd(t *testing.T) {
	// Not parallel: it reads the commands' ids in /ttr help, which the
	// present package keeps for the whole process (the newest bot's).
	e := newEnv(t, envOptions{bots: true})
	for _, c := range []struct{ lang, mapID, variant string }{{"fr", "europe", "classic"}, {"de", "marklin", ""}} {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			e := e.as(t)
			tb := localeTable(e, c.lang, c.mapID, c.variant, c.lang+"-alice", c.lang+"-bob")
			watcher := e.user(c.lang + "-carol")
			e.srv.SetUserLocale(watcher.ID, c.lang)
			ask := func(user, channel, name string, opts ...fakediscord.CommandOption) answer {
				return tb.do(e.run(user, channel, name, opts...))
			}
			for i := 0; i < 6 && tb.playTurn(); i++ {
			}
			// Around the game: each answer is checked with the rest below.
			if a := ask(watcher.ID, tb.ch.ID, "board"); !a.msg.Ephemeral() || len(a.msg.Buttons()) != 0 {
				t.Errorf("a watcher's /board is not private and without controls: %+v", a.msg.Text())
			}
			if a := ask(watcher.ID, tb.parent.ID, "score"); !a.msg.Ephemeral() || !a.msg.Contains("<#"+tb.ch.ID+">") {
				t.Errorf("/score in the parent channel does not list its table: %+v", a.msg.Text())
			}
			help := ask(tb.host.ID, tb.ch.ID, "ttr", fakediscord.Subcommand("help"))
			ids := map[string]string{}
			for _, c := range e.srv.Commands(e.guild.ID) {
				ids[c.Name] = c.ID
			}
			if !help.msg.Contains("</ttr new:"+ids["ttr"]+">") || !help.msg.Contains("</claim:"+ids["claim"]+">") {
				t.Errorf("/ttr help does not write its commands as mentions with their registered ids %v: %+v", ids, help.msg.Text())
			}
			ask(tb.host.ID, tb.ch.ID, "ttr", fakediscord.Subcommand("rules", fakediscord.StringOption("topic", "scoring")))
			ask(tb.host.ID, tb.ch.ID, "log")
			ask(tb.host.ID, tb.ch.ID, "claim", fakediscord.StringOption("route", "Atlantis – Nowhere"))
			// To the end (the privacy audit of whole games is
			// TestWholeGames's: this one reads the words).
			for turns := 0; tb.playTurn(); turns++ {
				if turns > 600 {
					t.Fatal("the game does not end")
				}
			}
			if !tb.over() {
				t.Fatal("no final score sheet")
			}
			ask(tb.host.ID, tb.parent.ID, "ttr", fakediscord.Subcommand("stats"))

			channels := []string{tb.parent.ID, tb.ch.ID}
			for _, p := range append(tb.players, watcher) {
				if dm, ok := e.srv.DMChannel(p.ID); ok {
					channels = append(channels, dm.ID)
				}
			}
			checked := 0
			for _, ch := range channels {
				for _, m := range e.srv.Messages(ch) {
					for _, f := range m.Text() {
						if strings.Contains(f.Where, "custom_id") || strings.HasPrefix(f.Where, "attachments") || strings.HasSuffix(f.Where, "emoji/name") {
							continue
						}
						checked++
						// An application emoji's name (ttr_yellow_…) is an
						// identifier Discord draws a picture for, not words.
						if en := present.EnglishIn(c.lang, customEmoji.ReplaceAllString(f.Text, "")); len(en) > 0 {
							t.Errorf("English on a %s table (message %s, %s): %q in %q", c.lang, m.ID, f.Where, en, f.Text)
						}
					}
				}
			}
			if checked < 200 {
				t.Errorf("only %d texts checked", checked)
			}
		})
	}
}

// customEmoji is an application emoji written in a text: <:name:id>.
var customEmoji = regexp.MustCompile(`<a?:\w+:\d+>`)
