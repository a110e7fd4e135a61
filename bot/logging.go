package bot

import (
	"conductor/present"
	"context"
	"fmt"
	"log/slog"
	"reflect"
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
// a private reply, and so can a struct it dumps with %#v (the "Expected
// READY/RESUMED, instead got" of a RESUME that replays an interaction, whose
// raw bytes print as numbers). The shape of the message stays: plain
// numbers, flags and short words; everything else is logged at debug level
// only.
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
			out[i] = present.Cut(s, 200)
		default:
			switch reflect.ValueOf(a).Kind() {
			case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
				out[i] = a
			default:
				out[i] = fmt.Sprintf("[%T, shown at LOG_LEVEL=debug]", a)
			}
		}
	}
	return out
}
