package bot

import (
	"context"
	"fmt"
	"log/slog"
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
			l.Log(context.Background(), lv, fmt.Sprintf(format, a...), "from", "discordgo")
		}
	})
}
