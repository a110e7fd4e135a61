package bot

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"
)

// discordgo logs through one package-wide function; it is pointed once at
// the logger of the newest Bot.
var (
	dgLogger     atomic.Pointer[slog.Logger]
	dgLoggerOnce sync.Once
)

func routeDiscordgoLogs(l *slog.Logger) {
	dgLogger.Store(l)
	dgLoggerOnce.Do(func() {
		discordgo.Logger = func(level, _ int, format string, a ...any) {
			l := dgLogger.Load()
			// discordgo reports a dropped connection it then resumes as an
			// error; for Conductor it is a warning.
			lv := slog.LevelDebug
			switch level {
			case discordgo.LogError, discordgo.LogWarning:
				lv = slog.LevelWarn
			case discordgo.LogInformational:
				lv = slog.LevelInfo
			}
			if lv > slog.LevelDebug {
				a = redactPayloads(a)
			}
			l.Log(context.Background(), lv, fmt.Sprintf(format, a...), "from", "discordgo")
		}
	})
}

// redactPayloads hides what discordgo prints of the messages it handles: a
// gateway event's bytes or a REST body can carry a hand, a ticket choice or
// a private reply. The shape of the message stays; the full text is logged
// at debug level only.
func redactPayloads(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case []byte:
			out[i] = fmt.Sprintf("[%d bytes, shown at LOG_LEVEL=debug]", len(v))
		case string:
			if len(v) > 64 || strings.ContainsAny(v, "{[") {
				out[i] = fmt.Sprintf("[%d characters, shown at LOG_LEVEL=debug]", len(v))
			} else {
				out[i] = v
			}
		case fmt.Stringer, error:
			s := fmt.Sprint(v)
			if len(s) > 200 {
				s = s[:200] + "…"
			}
			out[i] = s
		default:
			out[i] = a
		}
	}
	return out
}
