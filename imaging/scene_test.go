package imaging

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"conductor/data"
	"conductor/engine"
)

// TestSceneCarriesOnlyPublicFields lists every field reachable from Scene.
// A new field fails this test until it is added here, after checking that it
// is public information: the board picture is posted to the whole channel.
func TestSceneCarriesOnlyPublicFields(t *testing.T) {
	allowed := []string{
		"Highlight.Cities", "Highlight.Text", "Highlight.Tracks",
		"PanelText.Bot", "PanelText.FaceUp", "PanelText.LastMove", "PanelText.Legend", "PanelText.Piles", "PanelText.Points",
		"PassengerMark.City", "PassengerMark.Seat",
		"PlayerPanel.Bot", "PlayerPanel.Color", "PlayerPanel.Holding", "PlayerPanel.Name", "PlayerPanel.Pieces",
		"PlayerPanel.Score",
		"Scene.Board", "Scene.Current", "Scene.FaceUp", "Scene.Goods",
		"Scene.LastMove", "Scene.Letters", "Scene.Owners", "Scene.Passengers", "Scene.Players", "Scene.Stations", "Scene.Status",
		"Scene.Text", "Scene.Title",
	}
	var got []string
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Pointer {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty.PkgPath() != reflect.TypeOf(Scene{}).PkgPath() {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			got = append(got, ty.Name()+"."+f.Name)
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Scene{}))
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(allowed, "\n") {
		t.Errorf("Scene's fields changed; check the new ones are public, then update the list.\ngot:\n%s\nallowed:\n%s",
			strings.Join(got, "\n"), strings.Join(allowed, "\n"))
	}
}

// TestSceneHasNoSecretTypes checks by type, not name: nothing in a Scene can
// hold a hand, a ticket or a deck of cards.
func TestSceneHasNoSecretTypes(t *testing.T) {
	secret := map[reflect.Type]string{
		reflect.TypeOf(engine.Hand{}):    "a hand",
		reflect.TypeOf(TicketLine{}):     "a ticket",
		reflect.TypeOf(data.Ticket{}):    "a ticket",
		reflect.TypeOf(data.TicketID(0)): "a ticket",
		reflect.TypeOf(HandScene{}):      "a hand",
	}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		if what, bad := secret[ty]; bad {
			t.Errorf("%s can hold %s", path, what)
		}
		if ty == reflect.TypeOf([]engine.Card(nil)) && path != "Scene.FaceUp" {
			t.Errorf("%s holds cards; only the face-up display may", path)
		}
		switch ty.Kind() {
		case reflect.Slice, reflect.Array, reflect.Pointer:
			if ty != reflect.TypeOf(&data.Board{}) {
				walk(ty.Elem(), path+"[]")
			}
		case reflect.Struct:
			if ty.PkgPath() != reflect.TypeOf(Scene{}).PkgPath() {
				return
			}
			for i := 0; i < ty.NumField(); i++ {
				f := ty.Field(i)
				walk(f.Type, path+"."+f.Name)
			}
		}
	}
	walk(reflect.TypeOf(Scene{}), "Scene")
}
