package commands

import (
	"testing"

	"conductor/present"
)

func TestI18nDefinitionsAreLocalised(t *testing.T) {
	t.Parallel()
	var walk func(path string, names, descs map[string]string, opts []OptionDef)
	walk = func(path string, names, descs map[string]string, opts []OptionDef) {
		for _, lang := range present.Languages {
			if lang == "en" {
				continue
			}
			if names[lang] == "" {
				t.Errorf("%s: no %s name", path, lang)
			}
			if descs[lang] == "" {
				t.Errorf("%s: no %s description (missing, or still English)", path, lang)
			}
		}
		for _, o := range opts {
			walk(path+" "+o.Name, o.Names, o.Descriptions, o.Options)
		}
	}
	defs := Definitions([]string{"usa", "europe", "marklin"})
	if len(defs) == 0 {
		t.Fatal("no command definitions")
	}
	for _, d := range defs {
		walk("/"+d.Name, d.Names, d.Descriptions, d.Options)
	}
}
