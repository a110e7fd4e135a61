package bot

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"conductor/commands"
)

// TestViaOnlyWhereALostFollowUpCanBeFound: an interaction offers its webhook to post the board
// only in a server channel where the bot may read the history, and until its token expires.
func TestViaOnlyWhereALostFollowUpCanBeFound(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	id := strconv.FormatUint(uint64(created.UnixMilli()-1420070400000)<<22, 10)
	all := int64(discordgo.PermissionViewChannel | discordgo.PermissionReadMessageHistory | discordgo.PermissionSendMessages)
	i := &discordgo.Interaction{ID: id, AppID: "42", Token: "tok-en_1", GuildID: "7", AppPermissions: all}
	via, until := viaOf(i)
	if via != "42/"+id+"/tok-en_1" || !until.Equal(created.Add(15*time.Minute)) {
		t.Fatalf("via %q until %v", via, until)
	}
	if app, interaction, token, ok := parseVia(via); !ok || app != "42" || interaction != id || token != "tok-en_1" {
		t.Errorf("parsed %q %q %q %v", app, interaction, token, ok)
	}
	noHistory := *i
	noHistory.AppPermissions = all &^ discordgo.PermissionReadMessageHistory
	dm := *i
	dm.GuildID = ""
	for name, i := range map[string]*discordgo.Interaction{"no history": &noHistory, "a DM": &dm} {
		if via, _ := viaOf(i); via != "" {
			t.Errorf("%s: via %q", name, via)
		}
	}
}

// TestFollowUpWaitsForTheAnswer: a follow-up waits until its interaction's answer is out; a
// failed answer leaves no webhook to post through; an interaction this process never saw (a
// restart) counts as answered.
func TestFollowUpWaitsForTheAnswer(t *testing.T) {
	t.Parallel()
	var a answers
	w := a.expect("1")
	go func() {
		time.Sleep(50 * time.Millisecond)
		w.settle(true)
		w.settle(false) // only the first answer counts
	}()
	if !a.wait("1") {
		t.Error("answered, yet the follow-up may not go")
	}
	a.expect("2").settle(false)
	if a.wait("2") {
		t.Error("the answer failed, yet the follow-up would go")
	}
	if !a.wait("unknown") {
		t.Error("an interaction of an earlier process holds its board back")
	}
}

// TestTokensStayOutOfErrors: an error that quotes the webhook's URL names no token.
func TestTokensStayOutOfErrors(t *testing.T) {
	t.Parallel()
	err := viaError(&discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{}, URL: "https://discord.com/api/v9/webhooks/42/s3cret"}})
	err = redact(err, "s3cret")
	if strings.Contains(err.Error(), "s3cret") || !errors.Is(err, commands.ErrViaGone) {
		t.Errorf("%v", err)
	}
}
