package ops

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	"conductor/bot"
	"conductor/store"
)

// The live page's checks of `conductor doctor`: its settings, and that
// the public address serves the page and its files.

// pageScript finds the page's script in its HTML.
var pageScript = regexp.MustCompile(`src="(s/[0-9a-f]+/app\.js)"`)

// DoctorWeb checks the live page's settings from the environment and, when
// it is on, fetches the page at CONDUCTOR_PUBLIC_URL (client nil: one with
// a 10 s timeout).
func DoctorWeb(getenv func(string) string, client *http.Client) bot.Report {
	cfg := Config{ClientSecret: strings.TrimSpace(getenv("DISCORD_CLIENT_SECRET")), WebAddr: strings.TrimSpace(getenv("CONDUCTOR_WEB")),
		PublicURL: strings.TrimSpace(getenv("CONDUCTOR_PUBLIC_URL")), DBPath: strings.TrimSpace(getenv("CONDUCTOR_DB"))}
	const check = "Live board"
	if cfg.ClientSecret == "" {
		return bot.Report{{OK: true, Check: check, Detail: "off (DISCORD_CLIENT_SECRET is not set); see docs/activity.md to turn it on"}}
	}
	var err error
	if cfg.Shards, cfg.ShardCount, _, err = shardSettings(getenv, store.IsPostgres(getenv("CONDUCTOR_DB"))); err == nil {
		err = cfg.checkWeb()
	}
	if err != nil {
		return bot.Report{{OK: false, Check: check, Detail: err.Error(), Fix: "see docs/activity.md"}}
	}
	r := bot.Report{{OK: true, Check: check, Detail: "on: the page listens on " + cfg.WebAddr}}
	if cfg.PublicURL == "" {
		return append(r, bot.Finding{OK: false, Check: "Public address", Detail: "CONDUCTOR_PUBLIC_URL is not set: final sheets will have no replay link, and the page cannot be checked from here",
			Fix: "set CONDUCTOR_PUBLIC_URL to the address Discord's URL mapping points at, like https://conductor.example.org"})
	}
	base := strings.TrimSuffix(cfg.PublicURL, "/")
	status, body, err := fetchPage(client, base+"/")
	switch {
	case err != nil:
		return append(r, bot.Finding{OK: false, Check: "Page at " + base, Detail: err.Error(),
			Fix: "start the bot with DISCORD_CLIENT_SECRET set, and route " + base + " to CONDUCTOR_WEB (fly.toml's [http_service])"})
	case status != http.StatusOK || !strings.Contains(body, "data-client-id="):
		return append(r, bot.Finding{OK: false, Check: "Page at " + base, Detail: fmt.Sprintf("answered %d, not Conductor's page", status),
			Fix: "route " + base + " to the bot's CONDUCTOR_WEB listener"})
	}
	m := pageScript.FindStringSubmatch(body)
	if m == nil {
		return append(r, bot.Finding{OK: false, Check: "Page at " + base, Detail: "the page names no script"})
	}
	if status, _, err := fetchPage(client, base+"/"+m[1]); err != nil || status != http.StatusOK {
		return append(r, bot.Finding{OK: false, Check: "Page's files at " + base, Detail: fmt.Sprintf("%s: %d %v", m[1], status, err)})
	}
	return append(r, bot.Finding{OK: true, Check: "Page at " + base, Detail: "serves the live board and its files"})
}

func fetchPage(client *http.Client, url string) (int, string, error) {
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := client.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(body), err
}
