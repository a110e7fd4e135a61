package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// What discordgo prints of a payload (a RESUME's event bytes carrying a
// ticket choice, say) never reaches an info or warning log line.
func TestDiscordgoPayloadsAreRedacted(t *testing.T) {
	t.Parallel()
	payload := []byte(`{"t":"INTERACTION_CREATE","d":{"data":{"custom_id":"keep:g1:3:","values":["Paris – Wien"]}}}`)
	line := fmt.Sprintf("error unmarshalling %s event, %s", redactPayloads([]any{"INTERACTION_CREATE", payload})...)
	if strings.Contains(line, "Wien") || !strings.Contains(line, "INTERACTION_CREATE") {
		t.Errorf("payload bytes: %q", line)
	}
	line = fmt.Sprintf("wsapi.go: %s", redactPayloads([]any{string(payload)})...)
	if strings.Contains(line, "Wien") {
		t.Errorf("payload text: %q", line)
	}
	if got := fmt.Sprintf("%s %d", redactPayloads([]any{"heartbeat", 41250})...); got != "heartbeat 41250" {
		t.Errorf("plain words and numbers stay: %q", got)
	}
	// A dumped event prints its raw bytes as numbers: a struct never
	// reaches the line.
	event := &discordgo.Event{Type: "INTERACTION_CREATE", RawData: payload}
	line = fmt.Sprintf("Expected READY/RESUMED, instead got:\n%#v\n", redactPayloads([]any{event})...)
	if strings.Contains(line, "0x") || strings.Contains(line, "RawData") {
		t.Errorf("a dumped event: %q", line)
	}
}
