package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// stringEndpoints are discordgo's endpoint strings built from its base
// address, by name.
var stringEndpoints = map[string]*string{
	"EndpointDiscord": &discordgo.EndpointDiscord, "EndpointAPI": &discordgo.EndpointAPI,
	"EndpointGuilds": &discordgo.EndpointGuilds, "EndpointChannels": &discordgo.EndpointChannels,
	"EndpointUsers": &discordgo.EndpointUsers, "EndpointGateway": &discordgo.EndpointGateway,
	"EndpointGatewayBot": &discordgo.EndpointGatewayBot, "EndpointWebhooks": &discordgo.EndpointWebhooks,
	"EndpointStickers": &discordgo.EndpointStickers, "EndpointStageInstances": &discordgo.EndpointStageInstances,
	"EndpointSKUs": &discordgo.EndpointSKUs, "EndpointVoice": &discordgo.EndpointVoice,
	"EndpointVoiceRegions": &discordgo.EndpointVoiceRegions, "EndpointNitroStickersPacks": &discordgo.EndpointNitroStickersPacks,
	"EndpointGuildCreate": &discordgo.EndpointGuildCreate, "EndpointApplications": &discordgo.EndpointApplications,
	"EndpointOAuth2": &discordgo.EndpointOAuth2, "EndpointOAuth2Applications": &discordgo.EndpointOAuth2Applications,
	"EndpointOauth2": &discordgo.EndpointOauth2, "EndpointOauth2Applications": &discordgo.EndpointOauth2Applications,
}

// TestUseAPIRebuildsEveryEndpoint reads discordgo's endpoints.go and checks
// that every string variable derived from EndpointDiscord or APIVersion is
// rebuilt, so that a new one in a discordgo upgrade is noticed.
func TestUseAPIRebuildsEveryEndpoint(t *testing.T) {
	fn := runtime.FuncForPC(reflect.ValueOf(discordgo.New).Pointer())
	src, _ := fn.FileLine(fn.Entry())
	path := filepath.Join(filepath.Dir(src), "endpoints.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	derived := map[string]bool{"EndpointDiscord": true, "APIVersion": true}
	var order []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				if _, isFunc := vs.Values[i].(*ast.FuncLit); isFunc {
					continue
				}
				uses := false
				ast.Inspect(vs.Values[i], func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && derived[id.Name] {
						uses = true
					}
					return true
				})
				if uses {
					derived[name.Name] = true
					order = append(order, name.Name)
				}
			}
		}
	}
	t.Logf("derived endpoints: %v", order)
	if len(order) < 15 {
		t.Fatalf("found only %d derived endpoints in %s: %v", len(order), path, order)
	}
	savedBase, savedVersion := discordgo.EndpointDiscord, discordgo.APIVersion
	defer UseAPI(savedBase, savedVersion)
	UseAPI("http://127.0.0.1:9/", "10")
	for _, name := range order {
		p, ok := stringEndpoints[name]
		if !ok {
			t.Errorf("%s is derived from the base address but UseAPI does not rebuild it", name)
			continue
		}
		if !strings.HasPrefix(*p, "http://127.0.0.1:9/") {
			t.Errorf("%s = %q after UseAPI", name, *p)
		}
	}
	if got := discordgo.EndpointInteractionResponse("1", "tok"); got != "http://127.0.0.1:9/api/v10/interactions/1/tok/callback" {
		t.Errorf("interaction callback URL = %q", got)
	}
	if got := discordgo.EndpointApplicationGuildCommands("a", "g"); got != "http://127.0.0.1:9/api/v10/applications/a/guilds/g/commands" {
		t.Errorf("guild commands URL = %q", got)
	}
}
