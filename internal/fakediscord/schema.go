package fakediscord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// SchemaError is one way a JSON document breaks its schema.
type SchemaError struct {
	// Pointer is the RFC 6901 JSON pointer of the offending value ("" is the whole document).
	Pointer string
	// Message says what is wrong, naming the Discord schema the value was checked against.
	Message string
}

func (e SchemaError) String() string {
	p := e.Pointer
	if p == "" {
		p = "(root)"
	}
	return p + ": " + e.Message
}

// schemaNode is a compiled JSON Schema, restricted to the keywords that Discord's OpenAPI 3.1
// description uses. Compilation rejects any other validation keyword, so that a constraint can
// never be ignored silently.
type schemaNode struct {
	name string // component name when this node is #/components/schemas/<name>

	alwaysFalse bool // the boolean schema false

	ref *schemaNode

	types       []string
	properties  map[string]*schemaNode
	required    []string
	additional  *schemaNode
	items       *schemaNode
	enum        []any
	hasConst    bool
	constValue  any
	oneOf       []*schemaNode
	anyOf       []*schemaNode
	allOf       []*schemaNode
	minimum     *big.Rat
	maximum     *big.Rat
	minLength   int
	maxLength   int
	minItems    int
	maxItems    int
	minProps    int
	maxProps    int
	uniqueItems bool
	pattern     *regexp.Regexp
	patternText string
	format      string
}

// annotationKeywords carry no constraint; x-* extensions are skipped too.
var annotationKeywords = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "example": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "contentEncoding": true,
	"contentMediaType": true, "$comment": true,
}

type schemaCompiler struct {
	components map[string]any
	compiled   map[string]*schemaNode
}

const componentPrefix = "#/components/schemas/"

func newSchemaCompiler(components map[string]any) *schemaCompiler {
	return &schemaCompiler{components: components, compiled: map[string]*schemaNode{}}
}

// component compiles #/components/schemas/<name>, once; recursion is safe because the node is
// registered before its body is compiled.
func (c *schemaCompiler) component(name string) (*schemaNode, error) {
	if n, ok := c.compiled[name]; ok {
		return n, nil
	}
	raw, ok := c.components[name]
	if !ok {
		return nil, fmt.Errorf("unknown schema %s%s", componentPrefix, name)
	}
	n := &schemaNode{name: name}
	c.compiled[name] = n
	if err := c.fill(n, raw, componentPrefix+name); err != nil {
		return nil, err
	}
	return n, nil
}

func (c *schemaCompiler) compile(raw any, at string) (*schemaNode, error) {
	n := &schemaNode{}
	if err := c.fill(n, raw, at); err != nil {
		return nil, err
	}
	return n, nil
}

func (c *schemaCompiler) fill(n *schemaNode, raw any, at string) error {
	n.minLength, n.maxLength, n.minItems, n.maxItems, n.minProps, n.maxProps = -1, -1, -1, -1, -1, -1
	switch v := raw.(type) {
	case bool:
		n.alwaysFalse = !v
		return nil
	case map[string]any:
		return c.fillObject(n, v, at)
	default:
		return fmt.Errorf("%s: schema is %T, not an object or boolean", at, raw)
	}
}

func (c *schemaCompiler) fillObject(n *schemaNode, m map[string]any, at string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var err error
	for _, k := range keys {
		v := m[k]
		where := at + "/" + k
		switch k {
		case "$ref":
			s, _ := v.(string)
			if !strings.HasPrefix(s, componentPrefix) {
				return fmt.Errorf("%s: unsupported $ref %q", where, s)
			}
			n.ref, err = c.component(strings.TrimPrefix(s, componentPrefix))
		case "type":
			switch t := v.(type) {
			case string:
				n.types = []string{t}
			case []any:
				for _, x := range t {
					s, ok := x.(string)
					if !ok {
						return fmt.Errorf("%s: type entry %v is not a string", where, x)
					}
					n.types = append(n.types, s)
				}
			default:
				return fmt.Errorf("%s: bad type %v", where, v)
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: not an object", where)
			}
			n.properties = map[string]*schemaNode{}
			for name, p := range props {
				if n.properties[name], err = c.compile(p, where+"/"+name); err != nil {
					return err
				}
			}
		case "required":
			list, ok := v.([]any)
			if !ok {
				return fmt.Errorf("%s: not an array", where)
			}
			for _, x := range list {
				s, _ := x.(string)
				n.required = append(n.required, s)
			}
		case "additionalProperties":
			n.additional, err = c.compile(v, where)
		case "items":
			n.items, err = c.compile(v, where)
		case "enum":
			list, ok := v.([]any)
			if !ok {
				return fmt.Errorf("%s: not an array", where)
			}
			n.enum = list
		case "const":
			n.hasConst, n.constValue = true, v
		case "oneOf", "anyOf", "allOf":
			list, ok := v.([]any)
			if !ok {
				return fmt.Errorf("%s: not an array", where)
			}
			var subs []*schemaNode
			for i, x := range list {
				s, err := c.compile(x, where+"/"+strconv.Itoa(i))
				if err != nil {
					return err
				}
				subs = append(subs, s)
			}
			switch k {
			case "oneOf":
				n.oneOf = subs
			case "anyOf":
				n.anyOf = subs
			default:
				n.allOf = subs
			}
		case "minimum", "maximum":
			r, ok := ratOf(v)
			if !ok {
				return fmt.Errorf("%s: not a number", where)
			}
			if k == "minimum" {
				n.minimum = r
			} else {
				n.maximum = r
			}
		case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
			i, ok := intOf(v)
			if !ok {
				return fmt.Errorf("%s: not an integer", where)
			}
			switch k {
			case "minLength":
				n.minLength = i
			case "maxLength":
				n.maxLength = i
			case "minItems":
				n.minItems = i
			case "maxItems":
				n.maxItems = i
			case "minProperties":
				n.minProps = i
			default:
				n.maxProps = i
			}
		case "uniqueItems":
			n.uniqueItems, _ = v.(bool)
		case "pattern":
			s, _ := v.(string)
			n.patternText = s
			n.pattern, err = regexp.Compile(s)
		case "format":
			n.format, _ = v.(string)
		default:
			if annotationKeywords[k] || strings.HasPrefix(k, "x-") {
				continue
			}
			return fmt.Errorf("%s: unsupported JSON Schema keyword %q", where, k)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func ratOf(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(x))
	case float64:
		return new(big.Rat).SetFloat64(x), true
	}
	return nil, false
}

func intOf(v any) (int, bool) {
	r, ok := ratOf(v)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return int(r.Num().Int64()), true
}

// decodeJSON decodes with json.Number so that big integers (snowflakes, permission bit sets)
// are compared exactly.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("unexpected data after the JSON value")
	}
	return v, nil
}

// jsonType names the JSON type of a decoded value; integers are "integer".
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if r, ok := ratOf(x); ok && r.IsInt() {
			return "integer"
		}
		return "number"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func typeAllowed(types []string, v any) bool {
	t := jsonType(v)
	for _, want := range types {
		if want == t || (want == "number" && t == "integer") {
			return true
		}
	}
	return false
}

// jsonEqual compares decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number, float64:
		ra, ok1 := ratOf(x)
		rb, ok2 := ratOf(b)
		return ok1 && ok2 && ra.Cmp(rb) == 0
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return a == b
	}
}

func pointerJoin(ptr string, token string) string {
	token = strings.ReplaceAll(token, "~", "~0")
	token = strings.ReplaceAll(token, "/", "~1")
	return ptr + "/" + token
}

func brief(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

var (
	int32Min = big.NewRat(-1<<31, 1)
	int32Max = big.NewRat(1<<31-1, 1)
	int64Min = new(big.Rat).SetInt64(-1 << 63)
	int64Max = new(big.Rat).SetInt64(1<<63 - 1)
)

// validate appends to errs every way v breaks n. within names the nearest named schema, for
// messages.
func (n *schemaNode) validate(v any, ptr, within string, errs *[]SchemaError) {
	if n.name != "" {
		within = n.name
	}
	fail := func(at, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if within != "" {
			msg += " (" + within + ")"
		}
		*errs = append(*errs, SchemaError{Pointer: at, Message: msg})
	}
	if n.alwaysFalse {
		fail(ptr, "no value is allowed here")
		return
	}
	if len(n.types) > 0 && !typeAllowed(n.types, v) {
		fail(ptr, "got %s %s, want %s", jsonType(v), brief(v), strings.Join(n.types, " or "))
		return
	}
	if n.ref != nil {
		n.ref.validate(v, ptr, within, errs)
	}
	if n.enum != nil {
		found := false
		for _, e := range n.enum {
			if jsonEqual(e, v) {
				found = true
				break
			}
		}
		if !found {
			fail(ptr, "%s is not one of %s", brief(v), brief(n.enum))
		}
	}
	if n.hasConst && !jsonEqual(n.constValue, v) {
		fail(ptr, "%s is not %s", brief(v), brief(n.constValue))
	}
	switch x := v.(type) {
	case json.Number, float64:
		n.validateNumber(x, ptr, fail)
	case string:
		n.validateString(x, ptr, fail)
	case []any:
		if n.minItems >= 0 && len(x) < n.minItems {
			fail(ptr, "array has %d items, fewer than minItems %d", len(x), n.minItems)
		}
		if n.maxItems >= 0 && len(x) > n.maxItems {
			fail(ptr, "array has %d items, more than maxItems %d", len(x), n.maxItems)
		}
		if n.uniqueItems {
			for i := range x {
				for j := 0; j < i; j++ {
					if jsonEqual(x[i], x[j]) {
						fail(pointerJoin(ptr, strconv.Itoa(i)), "duplicates item %d but items must be unique", j)
					}
				}
			}
		}
		if n.items != nil {
			for i, item := range x {
				n.items.validate(item, pointerJoin(ptr, strconv.Itoa(i)), within, errs)
			}
		}
	case map[string]any:
		n.validateObject(x, ptr, within, errs, fail)
	}
	for _, s := range n.allOf {
		s.validate(v, ptr, within, errs)
	}
	if n.anyOf != nil {
		n.validateAlternatives(n.anyOf, false, v, ptr, within, errs)
	}
	if n.oneOf != nil {
		n.validateAlternatives(n.oneOf, true, v, ptr, within, errs)
	}
}

func (n *schemaNode) validateNumber(x any, ptr string, fail func(string, string, ...any)) {
	r, ok := ratOf(x)
	if !ok {
		fail(ptr, "unreadable number %v", x)
		return
	}
	if n.minimum != nil && r.Cmp(n.minimum) < 0 {
		fail(ptr, "%s is less than minimum %s", r.RatString(), n.minimum.RatString())
	}
	if n.maximum != nil && r.Cmp(n.maximum) > 0 {
		fail(ptr, "%s is more than maximum %s", r.RatString(), n.maximum.RatString())
	}
	switch n.format {
	case "int32":
		if r.Cmp(int32Min) < 0 || r.Cmp(int32Max) > 0 {
			fail(ptr, "%s does not fit format int32", r.RatString())
		}
	case "int64":
		if r.Cmp(int64Min) < 0 || r.Cmp(int64Max) > 0 {
			fail(ptr, "%s does not fit format int64", r.RatString())
		}
	}
}

func (n *schemaNode) validateString(s, ptr string, fail func(string, string, ...any)) {
	length := utf8.RuneCountInString(s)
	if n.minLength >= 0 && length < n.minLength {
		fail(ptr, "string has %d characters, fewer than minLength %d", length, n.minLength)
	}
	if n.maxLength >= 0 && length > n.maxLength {
		fail(ptr, "string has %d characters, more than maxLength %d", length, n.maxLength)
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		fail(ptr, "%s does not match pattern %s", brief(s), n.patternText)
	}
	switch n.format {
	case "snowflake":
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			fail(ptr, "%s is not a snowflake (an unsigned 64-bit integer in a string)", brief(s))
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			fail(ptr, "%s is not an RFC 3339 date-time", brief(s))
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			fail(ptr, "%s is not an absolute URI", brief(s))
		}
	}
}

func (n *schemaNode) validateObject(x map[string]any, ptr, within string, errs *[]SchemaError, fail func(string, string, ...any)) {
	for _, r := range n.required {
		if _, ok := x[r]; !ok {
			fail(ptr, "required property %q is missing", r)
		}
	}
	if n.minProps >= 0 && len(x) < n.minProps {
		fail(ptr, "object has %d properties, fewer than minProperties %d", len(x), n.minProps)
	}
	if n.maxProps >= 0 && len(x) > n.maxProps {
		fail(ptr, "object has %d properties, more than maxProperties %d", len(x), n.maxProps)
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if p, ok := n.properties[k]; ok {
			p.validate(x[k], pointerJoin(ptr, k), within, errs)
		} else if n.additional != nil {
			n.additional.validate(x[k], pointerJoin(ptr, k), within, errs)
		}
	}
}

// branchResult is how one alternative of oneOf/anyOf fared.
type branchResult struct {
	index     int
	name      string
	errs      []SchemaError
	wrongType bool   // the value is not even of the branch's type
	mismatch  bool   // the value, or a discriminating property of it, is refused outright
	prop      string // that property (like "type"); "" for the value itself
	allowed   []any  // the values it would accept
}

// validateAlternatives checks oneOf (exactlyOne) or anyOf. When nothing matches it reports the
// errors of the most plausible alternative: one whose discriminating properties (a "type" with
// an enum or const) accept the value, then the one with the fewest and deepest errors.
func (n *schemaNode) validateAlternatives(alts []*schemaNode, exactlyOne bool, v any, ptr, within string, errs *[]SchemaError) {
	var results []branchResult
	matched := 0
	var matchedNames []string
	for i, alt := range alts {
		var be []SchemaError
		alt.validate(v, ptr, within, &be)
		if len(be) == 0 {
			matched++
			matchedNames = append(matchedNames, alt.displayName(i))
			continue
		}
		r := branchResult{index: i, name: alt.displayName(i), errs: be}
		r.wrongType, r.mismatch, r.prop, r.allowed = alt.discriminate(v)
		results = append(results, r)
	}
	keyword := "anyOf"
	if exactlyOne {
		keyword = "oneOf"
	}
	if matched > 1 && exactlyOne {
		*errs = append(*errs, SchemaError{Pointer: ptr, Message: fmt.Sprintf(
			"matches %d alternatives of oneOf (%s), exactly one expected", matched, strings.Join(matchedNames, ", "))})
	}
	if matched > 0 {
		return
	}
	var plausible []branchResult
	for _, r := range results {
		if !r.wrongType && !r.mismatch {
			plausible = append(plausible, r)
		}
	}
	if len(plausible) > 0 {
		sort.SliceStable(plausible, func(i, j int) bool {
			a, b := plausible[i], plausible[j]
			if len(a.errs) != len(b.errs) {
				return len(a.errs) < len(b.errs)
			}
			return deepest(a.errs) > deepest(b.errs)
		})
		*errs = append(*errs, plausible[0].errs...)
		return
	}
	// Every alternative refuses the value outright: say which property decides, and what it
	// would accept.
	var types []string
	byProp := map[string][]any{}
	for _, r := range results {
		if r.wrongType {
			types = append(types, r.name)
			continue
		}
		byProp[r.prop] = append(byProp[r.prop], r.allowed...)
	}
	if len(byProp) == 0 {
		*errs = append(*errs, SchemaError{Pointer: ptr, Message: fmt.Sprintf(
			"got %s %s, which matches none of the %s alternatives (%s)", jsonType(v), brief(v), keyword, strings.Join(types, ", "))})
		return
	}
	props := make([]string, 0, len(byProp))
	for p := range byProp {
		props = append(props, p)
	}
	sort.Strings(props)
	obj, _ := v.(map[string]any)
	for _, p := range props {
		at, got := ptr, brief(v)
		if p != "" {
			at, got = pointerJoin(ptr, p), "missing"
			if val, ok := obj[p]; ok {
				got = brief(val)
			}
		}
		*errs = append(*errs, SchemaError{Pointer: at, Message: fmt.Sprintf(
			"%s matches none of the %s alternatives; allowed values: %s", got, keyword, brief(uniqueValues(byProp[p])))})
	}
}

func uniqueValues(vals []any) []any {
	var out []any
	for _, v := range vals {
		dup := false
		for _, o := range out {
			if jsonEqual(o, v) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, v)
		}
	}
	return out
}

func deepest(errs []SchemaError) int {
	d := 0
	for _, e := range errs {
		if c := strings.Count(e.Pointer, "/"); c > d {
			d = c
		}
	}
	return d
}

func (n *schemaNode) displayName(i int) string {
	for s := n; s != nil; s = s.ref {
		if s.name != "" {
			return s.name
		}
	}
	if len(n.types) > 0 {
		return strings.Join(n.types, "|")
	}
	return "#" + strconv.Itoa(i)
}

// resolved follows a bare $ref chain to the schema that holds the keywords.
func (n *schemaNode) resolved() *schemaNode {
	for n.ref != nil && len(n.types) == 0 && n.properties == nil {
		n = n.ref
	}
	return n
}

// discriminate reports whether v is of a type the schema refuses outright, is refused by the
// schema's own const/enum, or carries a property whose const/enum the schema refuses
// (Discord tells component and callback kinds apart by such a "type" property).
func (n *schemaNode) discriminate(v any) (wrongType, mismatch bool, prop string, allowed []any) {
	s := n.resolved()
	if len(s.types) > 0 && !typeAllowed(s.types, v) {
		return true, false, "", nil
	}
	if accept, ok := s.acceptedValues(); ok && !anyEqual(accept, v) {
		return false, true, "", accept
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return false, false, "", nil
	}
	names := make([]string, 0, len(s.properties))
	for name := range s.properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		accept, ok := s.properties[name].acceptedValues()
		if !ok {
			continue
		}
		val, present := obj[name]
		if (!present && containsString(s.required, name)) || (present && !anyEqual(accept, val)) {
			return false, true, name, accept
		}
	}
	return false, false, "", nil
}

// acceptedValues is the schema's enum or const, if it has one.
func (n *schemaNode) acceptedValues() ([]any, bool) {
	switch {
	case n.enum != nil:
		return n.enum, true
	case n.hasConst:
		return []any{n.constValue}, true
	}
	return nil, false
}

func anyEqual(list []any, v any) bool {
	for _, x := range list {
		if jsonEqual(x, v) {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
