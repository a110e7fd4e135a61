package fakediscord

import (
	"strings"
	"testing"
)

// miniSpec exercises every keyword the validator supports, on a spec small enough to read.
const miniSpec = `{
  "openapi": "3.1.0",
  "paths": {
    "/things/{thing_id}": {
      "parameters": [{"name": "thing_id", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/Snowflake"}}],
      "post": {"operationId": "create_thing", "security": [{"BotToken": []}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}
    },
    "/things/@special": {
      "post": {"operationId": "special", "security": [{}, {"BotToken": []}]}
    }
  },
  "components": {"schemas": {
    "Snowflake": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"},
    "Kind": {"type": "integer", "oneOf": [{"title": "A", "const": 1}, {"title": "B", "const": 2}], "format": "int32"},
    "Node": {"type": "object", "properties": {"child": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Node"}]}, "n": {"type": "integer", "maximum": 3}}},
    "Red": {"type": "object", "properties": {"type": {"type": "integer", "enum": [1]}, "hue": {"type": "string", "maxLength": 3}}, "required": ["type"]},
    "Blue": {"type": "object", "properties": {"type": {"type": "integer", "enum": [2]}, "depth": {"type": "integer"}}, "required": ["type", "depth"]},
    "Thing": {
      "type": "object",
      "required": ["name"],
      "properties": {
        "id": {"$ref": "#/components/schemas/Snowflake"},
        "name": {"type": "string", "minLength": 1, "maxLength": 5, "description": "annotations are skipped"},
        "count": {"type": ["integer", "null"], "minimum": 0, "maximum": 10, "format": "int32"},
        "big": {"type": "integer", "format": "int32"},
        "perms": {"type": "integer", "minimum": 0, "maximum": 18014398509481983},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "uniqueItems": true},
        "kind": {"$ref": "#/components/schemas/Kind"},
        "fixed": {"const": "x"},
        "when": {"type": "string", "format": "date-time"},
        "link": {"type": "string", "format": "uri"},
        "extra": {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1, "maxProperties": 2},
        "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        "both": {"allOf": [{"type": "integer", "minimum": 5}, {"type": "integer", "maximum": 7}]},
        "either": {"anyOf": [{"type": "string", "maxLength": 1}, {"type": "boolean"}], "x-discord-union": "oneOf"},
        "overlap": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
        "tree": {"$ref": "#/components/schemas/Node"},
        "paint": {"type": "array", "items": {"oneOf": [{"$ref": "#/components/schemas/Red"}, {"$ref": "#/components/schemas/Blue"}]}},
        "blob": {"type": "string", "contentEncoding": "base64"}
      }
    }
  }}
}`

func mini(t *testing.T) *Spec {
	t.Helper()
	s, err := parseSpec([]byte(miniSpec))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSchemaKeywords(t *testing.T) {
	s := mini(t)
	valid := `{"name": "ok", "id": "12", "count": null, "big": 5, "perms": 18014398509481983,
		"tags": ["a", "b"], "kind": 2, "fixed": "x", "when": "2024-05-01T10:00:00.000000+00:00",
		"link": "attachment://board.png", "extra": {"k": 1}, "closed": {"a": "b"}, "both": 6,
		"either": true, "overlap": 1.5, "tree": {"child": {"child": null, "n": 3}},
		"paint": [{"type": 1, "hue": "red"}, {"type": 2, "depth": 4}], "blob": "AAAA"}`
	if _, errs, err := s.Validate("POST", "/things/7", "application/json", []byte(valid)); err != nil || len(errs) != 0 {
		t.Fatalf("valid body: %v %v", errs, err)
	}
	cases := []struct {
		name, body, pointer, message string
	}{
		{"required", `{}`, "", `required property "name" is missing`},
		{"type", `{"name": 5}`, "/name", "got integer 5, want string"},
		{"nullable type array", `{"name": "a", "count": "3"}`, "/count", "want integer or null"},
		{"minLength", `{"name": ""}`, "/name", "fewer than minLength 1"},
		{"maxLength counts characters, not bytes", `{"name": "ééééé é"}`, "/name", "7 characters, more than maxLength 5"},
		{"minimum", `{"name": "a", "count": -1}`, "/count", "less than minimum 0"},
		{"maximum", `{"name": "a", "count": 11}`, "/count", "more than maximum 10"},
		{"maximum beyond float64 precision", `{"name": "a", "perms": 18014398509481984}`, "/perms", "more than maximum"},
		{"int32", `{"name": "a", "big": 2147483648}`, "/big", "does not fit format int32"},
		{"integer", `{"name": "a", "count": 1.5}`, "/count", "got number 1.5"},
		{"minItems", `{"name": "a", "tags": []}`, "/tags", "fewer than minItems 1"},
		{"maxItems", `{"name": "a", "tags": ["a", "b", "c"]}`, "/tags", "more than maxItems 2"},
		{"uniqueItems", `{"name": "a", "tags": ["a", "a"]}`, "/tags/1", "must be unique"},
		{"items", `{"name": "a", "tags": [1]}`, "/tags/0", "want string"},
		{"oneOf of consts", `{"name": "a", "kind": 3}`, "/kind", "matches none of the oneOf alternatives"},
		{"const", `{"name": "a", "fixed": "y"}`, "/fixed", `"y" is not "x"`},
		{"date-time", `{"name": "a", "when": "yesterday"}`, "/when", "not an RFC 3339 date-time"},
		{"uri", `{"name": "a", "link": "no scheme"}`, "/link", "not an absolute URI"},
		{"additionalProperties schema", `{"name": "a", "extra": {"k": "v"}}`, "/extra/k", "want integer"},
		{"minProperties", `{"name": "a", "extra": {}}`, "/extra", "fewer than minProperties 1"},
		{"maxProperties", `{"name": "a", "extra": {"a": 1, "b": 2, "c": 3}}`, "/extra", "more than maxProperties 2"},
		{"additionalProperties false", `{"name": "a", "closed": {"b": 1}}`, "/closed/b", "no value is allowed here"},
		{"allOf", `{"name": "a", "both": 8}`, "/both", "more than maximum 7"},
		{"anyOf", `{"name": "a", "either": "long"}`, "/either", "more than maxLength 1"},
		{"oneOf matching twice", `{"name": "a", "overlap": 2}`, "/overlap", "matches 2 alternatives of oneOf"},
		{"recursive $ref", `{"name": "a", "tree": {"child": {"child": {"n": 4}}}}`, "/tree/child/child/n", "more than maximum 3"},
		{"discriminated oneOf picks the branch by type", `{"name": "a", "paint": [{"type": 2}]}`, "/paint/0", `required property "depth" is missing (Blue)`},
		{"discriminated oneOf reports the branch's own error", `{"name": "a", "paint": [{"type": 1, "hue": "crimson"}]}`, "/paint/0/hue", "more than maxLength 3 (Red)"},
		{"no branch accepts the discriminator", `{"name": "a", "paint": [{"type": 9}]}`, "/paint/0/type", "allowed values: [1,2]"},
		{"path parameter", `{"name": "a"}`, "{thing_id}", "does not match pattern"},
	}
	for _, c := range cases {
		path := "/things/7"
		if c.pointer == "{thing_id}" {
			path = "/things/07"
		}
		_, errs, err := s.Validate("POST", path, "application/json", []byte(c.body))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !hasError(errs, c.pointer, c.message) {
			t.Errorf("%s: want %q at %q, got %v", c.name, c.message, c.pointer, errs)
		}
	}
}

func hasError(errs []SchemaError, pointer, message string) bool {
	for _, e := range errs {
		if e.Pointer == pointer && strings.Contains(e.Message, message) {
			return true
		}
	}
	return false
}

func TestSpecRoutingAndBodies(t *testing.T) {
	s := mini(t)
	if op, _ := s.Match("POST", "/things/@special"); op == nil || op.ID != "special" {
		t.Errorf("literal segment lost to a parameter: %+v", op)
	}
	op, params := s.Match("POST", "/things/42")
	if op == nil || op.ID != "create_thing" || params["thing_id"] != "42" || !op.botTokenOnly {
		t.Errorf("matched %+v %v", op, params)
	}
	if op, _ := s.Match("GET", "/things/42"); op != nil {
		t.Errorf("GET matched %s", op.ID)
	}
	if _, _, err := s.Validate("POST", "/nothing", "application/json", nil); err == nil {
		t.Error("an unknown path validated")
	}
	if _, _, err := s.Validate("POST", "/things/1", "application/json", []byte(`{"name":`)); err == nil {
		t.Error("broken JSON validated")
	}
	_, errs, _ := s.Validate("POST", "/things/1", "", nil)
	if !hasError(errs, "", "request body is required") {
		t.Errorf("missing body: %v", errs)
	}
	_, errs, _ = s.Validate("POST", "/things/@special", "application/json", []byte(`{}`))
	if !hasError(errs, "", "takes no request body") {
		t.Errorf("unexpected body: %v", errs)
	}
	if _, _, err := s.Validate("POST", "/things/1", "text/plain", []byte("hi")); err == nil {
		t.Error("a text/plain body validated")
	}
}

func TestUnsupportedKeywordsFailCompilation(t *testing.T) {
	bad := strings.Replace(miniSpec, `"fixed": {"const": "x"}`, `"fixed": {"not": {"const": "x"}}`, 1)
	if _, err := parseSpec([]byte(bad)); err == nil || !strings.Contains(err.Error(), `"not"`) {
		t.Errorf("a spec using \"not\" compiled: %v", err)
	}
	badRef := strings.Replace(miniSpec, `"#/components/schemas/Node"}]`, `"other.json#/Node"}]`, 1)
	if _, err := parseSpec([]byte(badRef)); err == nil {
		t.Error("an external $ref compiled")
	}
}
