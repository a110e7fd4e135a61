package present

import "strings"

// Player names in text. A name is the player's own choice, so it must
// never read as markup: messages escape it where it enters Discord text,
// and the catalogues never glue grammar to it (no "{player}'s", no "de
// {player}" that French would elide): the name stands alone, "{player} —
// hand".

// markdownEscaper escapes what Discord reads as markdown anywhere in a
// line: emphasis, underline, strike-through, spoilers, code, masked links
// and the escape character itself.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, "[", `\[`, "]", `\]`,
)

// EscapeMarkdown writes a name (or any text from a user) so that Discord
// shows it as typed: "*you*" stays "*you*", not an italic "you". A
// leading quote, heading or list mark is escaped too, since a name may
// start a line.
func EscapeMarkdown(s string) string {
	s = markdownEscaper.Replace(s)
	if s != "" && strings.IndexByte(lineStart, s[0]) >= 0 {
		s = `\` + s
	}
	return s
}

// lineStart are the marks Discord reads as markdown at the start of a line.
const lineStart = ">#-"

// StripMarkdown turns Discord text into plain text: bold, underline and
// code markers go, escaped characters are shown as themselves. It is how the
// terminal and the pictures show a message.
func StripMarkdown(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && strings.IndexByte(escapable, s[i+1]) >= 0:
			i++
			sb.WriteByte(s[i])
		case strings.HasPrefix(s[i:], "**") || strings.HasPrefix(s[i:], "__"):
			i++
		case s[i] == '`':
		default:
			sb.WriteByte(s[i])
		}
	}
	return sb.String()
}

// escapable are the characters EscapeMarkdown escapes.
const escapable = "\\*_~`|>[]#-"
