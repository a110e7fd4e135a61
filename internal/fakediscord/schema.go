package fakediscord

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaError is one way a request breaks Discord's rules: its OpenAPI description or a limit
// Discord enforces beyond it.
type SchemaError struct {
	// Pointer is the RFC 6901 JSON pointer of the offending value ("" is the whole document).
	Pointer string
	// Code is Discord's error code for it, like "BASE_TYPE_MAX_LENGTH" ("" when Discord has none).
	Code string
	// Message says what is wrong, naming the Discord schema or limit the value was checked against.
	Message string
}

func (e SchemaError) String() string {
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	if e.Code != "" {
		p += " [" + e.Code + "]"
	}
	return p + ": " + e.Message
}

// pointerJoin appends tokens to a JSON pointer.
func pointerJoin(ptr string, tokens ...string) string {
	for _, t := range tokens {
		ptr += "/" + strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return ptr
}

// leaf is one failed keyword, where it failed and in which schema.
type leaf struct {
	loc   []string // instance location
	kind  jsonschema.ErrorKind
	url   string // schema location
	union bool   // the summary of a oneOf/anyOf that nothing matched
}

// schemaErrors turns the library's error tree into one SchemaError per failed keyword. Where
// oneOf/anyOf find no match it reports the most plausible alternative, as Discord does: the
// one whose kind (a "type" const or enum) fits the value, else what the kind may be.
func schemaErrors(err error) []SchemaError {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []SchemaError{{Message: err.Error()}}
	}
	var out []SchemaError
	for _, l := range flatten(ve) {
		out = append(out, l.schemaError())
	}
	return out
}

func flatten(e *jsonschema.ValidationError) []leaf {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		var out []leaf
		for _, c := range e.Causes {
			out = append(out, flatten(c)...)
		}
		return out
	case *kind.OneOf:
		if k.Subschemas == nil {
			return alternatives(e)
		}
	case *kind.AnyOf:
		return alternatives(e)
	case *kind.Required:
		var out []leaf
		for _, p := range k.Missing {
			out = append(out, leaf{loc: append(slices.Clip(e.InstanceLocation), p), kind: &kind.Required{Missing: []string{p}}, url: e.SchemaURL})
		}
		return out
	}
	return []leaf{{loc: e.InstanceLocation, kind: e.ErrorKind, url: e.SchemaURL}}
}

// alternatives picks the errors to report for a oneOf/anyOf that nothing matched.
func alternatives(e *jsonschema.ValidationError) []leaf {
	at := e.InstanceLocation
	var best []leaf
	var wrongTypes []string
	allowed := map[string][]any{} // by discriminating property ("" for the value itself)
	for _, c := range e.Causes {
		leaves := flatten(c)
		plausible := true
		for _, l := range leaves {
			switch k := l.kind.(type) {
			case *kind.Type:
				if slices.Equal(l.loc, at) {
					plausible = false
					wrongTypes = append(wrongTypes, k.Want...)
				}
			case *kind.Const, *kind.Enum:
				if !l.union && len(l.loc) >= len(at) && len(l.loc) <= len(at)+1 && slices.Equal(l.loc[:len(at)], at) {
					plausible = false
					prop := strings.Join(l.loc[len(at):], "")
					if c, ok := l.kind.(*kind.Const); ok {
						allowed[prop] = append(allowed[prop], c.Want)
					} else {
						allowed[prop] = append(allowed[prop], l.kind.(*kind.Enum).Want...)
					}
				}
			}
		}
		if plausible && (best == nil || len(leaves) < len(best) || len(leaves) == len(best) && depth(leaves) > depth(best)) {
			best = leaves
		}
	}
	if best != nil {
		return best
	}
	if len(allowed) == 0 {
		return []leaf{{loc: at, kind: &kind.Type{Got: "a value of another type", Want: slices.Compact(wrongTypes)}, url: e.SchemaURL, union: true}}
	}
	var out []leaf
	for _, prop := range sortedKeys(allowed) {
		loc := at
		if prop != "" {
			loc = append(slices.Clip(at), prop)
		}
		out = append(out, leaf{loc: loc, kind: &kind.Enum{Want: allowed[prop]}, url: e.SchemaURL, union: true})
	}
	return out
}

func depth(ls []leaf) int {
	d := 0
	for _, l := range ls {
		d = max(d, len(l.loc))
	}
	return d
}

var printer = message.NewPrinter(language.English)

// formatCodes are Discord's codes for values of the wrong format.
var formatCodes = map[string]string{
	"snowflake": "NUMBER_TYPE_COERCE", "int32": "NUMBER_TYPE_COERCE", "int64": "NUMBER_TYPE_COERCE",
	"uri": "URL_TYPE_INVALID_URL", "date-time": "DATE_TYPE_PARSE",
}

// schemaError words a failed keyword the way Discord does, with Discord's error code.
func (l leaf) schemaError() SchemaError {
	e := SchemaError{Pointer: pointerJoin("", l.loc...)}
	switch k := l.kind.(type) {
	case *kind.Required:
		e.Code, e.Message = "BASE_TYPE_REQUIRED", "This field is required"
	case *kind.MaxLength:
		e.Code, e.Message = "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length (got %d).", k.Want, k.Got)
	case *kind.MinLength:
		e.Code, e.Message = "BASE_TYPE_MIN_LENGTH", fmt.Sprintf("Must be %d or more in length (got %d).", k.Want, k.Got)
	case *kind.MaxItems:
		e.Code, e.Message = "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length (got %d).", k.Want, k.Got)
	case *kind.MinItems:
		e.Code, e.Message = "BASE_TYPE_MIN_LENGTH", fmt.Sprintf("Must be %d or more in length (got %d).", k.Want, k.Got)
	case *kind.Maximum:
		e.Code, e.Message = "NUMBER_TYPE_MAX", fmt.Sprintf("Value should be less than or equal to %s (got %s).", k.Want.RatString(), k.Got.RatString())
	case *kind.Minimum:
		e.Code, e.Message = "NUMBER_TYPE_MIN", fmt.Sprintf("Value should be greater than or equal to %s (got %s).", k.Want.RatString(), k.Got.RatString())
	case *kind.Const, *kind.Enum:
		e.Code, e.Message = "ENUM_TYPE_COERCE", k.LocalizedString(printer)
		if k, ok := k.(*kind.Enum); ok {
			e.Message = fmt.Sprintf("Value must be one of %s.", brief(k.Want))
			if len(l.loc) > 0 && l.loc[len(l.loc)-1] == "type" {
				e.Code = "UNION_TYPE_CHOICES"
			}
		}
	case *kind.Pattern:
		e.Code, e.Message = "STRING_TYPE_REGEX", fmt.Sprintf("String value %s did not match validation regex %s.", brief(k.Got), k.Want)
	case *kind.Type:
		e.Code = "BASE_TYPE_CONVERT"
		e.Message = k.LocalizedString(printer)
	case *kind.Format:
		e.Code, e.Message = formatCodes[k.Want], fmt.Sprintf("Value %s is not %s.", brief(k.Got), k.Want)
		if e.Code == "" {
			e.Code = "BASE_TYPE_CONVERT"
		}
	default:
		e.Message = l.kind.LocalizedString(printer)
	}
	if _, name, ok := strings.Cut(l.url, "#/components/schemas/"); ok {
		name, _, _ = strings.Cut(name, "/")
		e.Message += " (" + name + ")"
	}
	return e
}

// brief shows a value in a message, cut to a readable length.
func brief(v any) string {
	s := fmt.Sprint(v)
	if b, err := json.Marshal(v); err == nil {
		s = string(b)
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
