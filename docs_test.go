package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"conductor/bot"
)

// Checks that the documentation says what the program does: every flag of
// every command, the log lines it tells operators to look for, and the
// invite link's permissions. (The pictures and the tables made from the
// code are generated: internal/docgen.)

// documents are the README and the guides in docs/.
func documents(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range append(paths, "README.md") {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(src)
	}
	return out
}

// flagLine is a flag in the listing `conductor COMMAND -h` prints
// (flag.PrintDefaults: "  -name type").
var flagLine = regexp.MustCompile(`(?m)^  -([^\s=]+)`)

// commandFlags lists a command's flags, walking its flag set through its
// own help.
func commandFlags(t *testing.T, name string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := realMain([]string{name, "-h"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("conductor %s -h: exit %d\n%s", name, code, errOut.String())
	}
	var flags []string
	for _, m := range flagLine.FindAllStringSubmatch(errOut.String(), -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// TestEveryFlagDocumented: docs/configuration.md has a section per command,
// "### `conductor NAME`", that names each of its flags.
func TestEveryFlagDocumented(t *testing.T) {
	doc := documents(t)[filepath.Join("docs", "configuration.md")]
	total := 0
	for _, c := range subcommands() {
		flags := commandFlags(t, c.Name)
		total += len(flags)
		head := "### `conductor " + c.Name + "`"
		i := strings.Index(doc, head)
		if i < 0 {
			t.Errorf("docs/configuration.md has no section %q for its flags %v", head, flags)
			continue
		}
		section := doc[i+len(head):]
		if j := strings.Index(section, "\n#"); j >= 0 {
			section = section[:j]
		}
		for _, f := range flags {
			dashes := "--"
			if len(f) == 1 {
				dashes = "-"
			}
			if !regexp.MustCompile("`" + dashes + regexp.QuoteMeta(f) + "[ `=]").MatchString(section) {
				t.Errorf("docs/configuration.md, %s: the flag %s%s is not documented", head, dashes, f)
			}
		}
	}
	if total < 20 {
		t.Fatalf("only %d flags found in the commands' help: the scan is broken", total)
	}
}

// logMessage is a log line quoted in the docs, as slog's text handler
// writes it: msg="…".
var logMessage = regexp.MustCompile(`msg="([^"]+)"`)

// TestDocumentedLogLinesExist: every log message the docs tell operators to
// look for is one the program writes: a string literal of its source.
func TestDocumentedLogLinesExist(t *testing.T) {
	literals := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					literals[s] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	quoted := 0
	for path, text := range documents(t) {
		for _, m := range logMessage.FindAllStringSubmatch(text, -1) {
			quoted++
			if !literals[m[1]] {
				t.Errorf("%s tells operators to look for the log line msg=%q, which the program never writes", path, m[1])
			}
		}
	}
	if quoted < 2 {
		t.Errorf("the docs quote %d log lines; docs/deploy.md should say which mean the bot is up", quoted)
	}
}

// permissionLabels are Discord's names for the permissions, as the
// developer portal's URL generator and the server settings show them; the
// permissions themselves are the bot's own list (bot.InvitePermissions,
// which conductor doctor checks).
var permissionLabels = map[int64]string{
	discordgo.PermissionViewChannel:           "View Channels",
	discordgo.PermissionSendMessages:          "Send Messages",
	discordgo.PermissionSendMessagesInThreads: "Send Messages in Threads",
	discordgo.PermissionCreatePublicThreads:   "Create Public Threads",
	discordgo.PermissionManageThreads:         "Manage Threads",
	discordgo.PermissionAttachFiles:           "Attach Files",
	discordgo.PermissionEmbedLinks:            "Embed Links",
	discordgo.PermissionReadMessageHistory:    "Read Message History",
}

// TestInviteLinkPermissions: every invite link in the docs asks for exactly
// the permissions the bot needs, and the README names each of them for
// the URL generator.
func TestInviteLinkPermissions(t *testing.T) {
	links := 0
	for path, text := range documents(t) {
		for _, m := range regexp.MustCompile(`permissions=(\d+)`).FindAllStringSubmatch(text, -1) {
			links++
			if got, _ := strconv.ParseInt(m[1], 10, 64); got != bot.InvitePermissions() {
				t.Errorf("%s: an invite link asks for permissions=%s, the bot needs %d", path, m[1], bot.InvitePermissions())
			}
		}
	}
	if links == 0 {
		t.Error("no document gives the invite link")
	}
	readme := documents(t)["README.md"]
	need := bot.InvitePermissions()
	for bit := int64(1); bit > 0 && bit <= need; bit <<= 1 {
		if need&bit == 0 {
			continue
		}
		label, ok := permissionLabels[bit]
		if !ok {
			t.Errorf("the bot needs permission %#x, which this test cannot name: add Discord's label to permissionLabels", bit)
			continue
		}
		if !strings.Contains(readme, "*"+label+"*") {
			t.Errorf("README.md does not name the permission *%s* for the URL generator", label)
		}
	}
	// ...and no permission the bot does not use.
	for bit, label := range permissionLabels {
		if need&bit == 0 && strings.Contains(readme, "*"+label+"*") {
			t.Errorf("README.md asks for *%s*, which the bot does not use", label)
		}
	}
}

// docLink is a Markdown link's target: [text](target) or ![alt](target).
var docLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinksResolve: every link from the README or a guide to a file of
// the repository names a file or folder that is there, so a document moved
// or removed (the measurement logs went to the measurements branch) leaves
// no link behind that leads nowhere. Links to the web and to a heading of
// the same page are not checked.
func TestDocLinksResolve(t *testing.T) {
	checked := 0
	for path, text := range documents(t) {
		for _, m := range docLink.FindAllStringSubmatch(text, -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), filepath.FromSlash(target))); err != nil {
				t.Errorf("%s links to %s, which is not in the repository", path, m[1])
			}
		}
	}
	if checked < 10 {
		t.Errorf("the docs link %d files of the repository; the README alone links more: is docLink still right?", checked)
	}
}
