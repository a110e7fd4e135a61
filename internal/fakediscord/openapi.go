package fakediscord

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Spec is Discord's OpenAPI description, compiled for request validation and routing.
type Spec struct {
	ops   []*Operation
	byKey map[string]*Operation // "METHOD /template"

	mu       sync.Mutex // the compiler is not safe for concurrent use
	compiler *jsonschema.Compiler
}

// Operation is one method + path template of the API.
type Operation struct {
	ID       string // operationId, like "create_message"
	Method   string // upper case
	Template string // path template without the /api/v10 prefix, like "/channels/{channel_id}/messages"

	pathParams   map[string]*jsonschema.Schema
	bodies       map[string]*jsonschema.Schema // by media type
	bodyRequired bool
	botTokenOnly bool // the Authorization header is required (no anonymous security alternative)
	oauth        bool // a user's OAuth2 Bearer token is one of the alternatives
}

// Pattern is the operation as a net/http route pattern under /api/v10.
func (op *Operation) Pattern() string { return op.Method + " /api/v10" + op.Template }

// specGzip is Discord's OpenAPI description (MIT, see testdata/discord-openapi.LICENSE),
// compressed, so that the fake needs nothing beside the repository.
//
//go:embed testdata/discord-openapi.json.gz
var specGzip []byte

// DiscordSpec is Discord's OpenAPI description, compiled once: it is large and immutable.
var DiscordSpec = sync.OnceValues(func() (*Spec, error) {
	zr, err := gzip.NewReader(bytes.NewReader(specGzip))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	return parseSpec(data)
})

var httpMethods = []string{"get", "put", "post", "delete", "patch", "head", "options"}

// specURL names the description for the JSON Schema compiler; schemas are compiled by JSON
// pointer into it, so that their $refs to #/components/schemas/... resolve.
const specURL = "https://discord.com/openapi.json"

func parseSpec(data []byte) (*Spec, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	root, _ := doc.(map[string]any)
	paths, _ := root["paths"].(map[string]any)
	if comps, _ := root["components"].(map[string]any); comps["schemas"] == nil || paths == nil {
		return nil, errors.New("no components.schemas or paths: not Discord's OpenAPI description")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020) // OpenAPI 3.1 schemas are JSON Schema 2020-12
	c.AssertFormat()
	for _, f := range discordFormats {
		c.RegisterFormat(f)
	}
	if err := c.AddResource(specURL, doc); err != nil {
		return nil, err
	}
	compile := func(ptr ...string) (*jsonschema.Schema, error) {
		for i, tok := range ptr {
			ptr[i] = url.PathEscape(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
		}
		return c.Compile(specURL + "#/" + strings.Join(ptr, "/"))
	}
	s := &Spec{byKey: map[string]*Operation{}, compiler: c}
	for _, tmpl := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[tmpl].(map[string]any)
		for _, m := range httpMethods {
			raw, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			op := &Operation{Method: strings.ToUpper(m), Template: tmpl, pathParams: map[string]*jsonschema.Schema{}, bodies: map[string]*jsonschema.Schema{}}
			op.ID, _ = raw["operationId"].(string)
			for _, where := range [][]string{{"paths", tmpl, "parameters"}, {"paths", tmpl, m, "parameters"}} {
				list, _ := lookup(root, where...).([]any)
				for i, p := range list {
					if pm, _ := p.(map[string]any); pm["in"] == "path" {
						name, _ := pm["name"].(string)
						if op.pathParams[name], err = compile(append(where, strconv.Itoa(i), "schema")...); err != nil {
							return nil, err
						}
					}
				}
			}
			if rb, ok := raw["requestBody"].(map[string]any); ok {
				op.bodyRequired, _ = rb["required"].(bool)
				content, _ := rb["content"].(map[string]any)
				for mt := range content {
					if op.bodies[mt], err = compile("paths", tmpl, m, "requestBody", "content", mt, "schema"); err != nil {
						return nil, err
					}
				}
			}
			// Anonymous access is an empty security requirement among the alternatives.
			sec, ok := raw["security"].([]any)
			op.botTokenOnly = ok && !slices.ContainsFunc(sec, func(alt any) bool {
				m, ok := alt.(map[string]any)
				return ok && len(m) == 0
			})
			op.oauth = ok && slices.ContainsFunc(sec, func(alt any) bool {
				m, ok := alt.(map[string]any)
				_, oauth := m["OAuth2"]
				return ok && oauth
			})
			s.ops = append(s.ops, op)
			s.byKey[op.Method+" "+op.Template] = op
		}
	}
	return s, nil
}

// lookup follows keys down nested JSON objects.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// discordFormats are the formats of Discord's description that JSON Schema does not define.
var discordFormats = []*jsonschema.Format{
	{Name: "snowflake", Validate: func(v any) error {
		if s, ok := v.(string); ok {
			if _, err := strconv.ParseUint(s, 10, 64); err != nil {
				return errors.New("not a snowflake (an unsigned 64-bit integer in a string)")
			}
		}
		return nil
	}},
	{Name: "int32", Validate: intFormat(32)},
	{Name: "int64", Validate: intFormat(64)},
}

func intFormat(bits int) func(any) error {
	return func(v any) error {
		if n, ok := v.(json.Number); ok {
			if _, err := strconv.ParseInt(n.String(), 10, bits); err != nil {
				return fmt.Errorf("does not fit a signed %d-bit integer", bits)
			}
		}
		return nil
	}
}

// Operations lists every operation of the description.
func (s *Spec) Operations() []*Operation { return s.ops }

// Operation finds an operation by method and path template, like
// ("POST", "/channels/{channel_id}/messages").
func (s *Spec) Operation(method, template string) (*Operation, bool) {
	op, ok := s.byKey[method+" "+template]
	return op, ok
}

// Body is a request body taken apart: the JSON document (the whole body, or the payload_json
// part of multipart/form-data) and any uploaded files.
type Body struct {
	MediaType string
	JSON      []byte // nil when the body has no JSON document
	Value     any    // JSON decoded with json.Number
	Files     []File
}

// File is an uploaded file of a multipart request.
type File struct {
	Field       string // form field, like "files[0]"
	Filename    string
	ContentType string
	Data        []byte
}

// ParseBody splits a request body by its Content-Type.
func ParseBody(contentType string, body []byte) (*Body, error) {
	b := &Body{}
	if len(body) == 0 {
		return b, nil
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, fmt.Errorf("unreadable Content-Type %q: %w", contentType, err)
	}
	b.MediaType = mt
	switch mt {
	case "application/json":
		b.JSON = body
	case "multipart/form-data":
		r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		fields := map[string]any{}
		for {
			part, err := r.NextPart()
			if err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, fmt.Errorf("multipart body: %w", err)
			}
			var buf bytes.Buffer
			if _, err := buf.ReadFrom(part); err != nil {
				return nil, fmt.Errorf("multipart part %q: %w", part.FormName(), err)
			}
			switch {
			case part.FileName() != "":
				b.Files = append(b.Files, File{Field: part.FormName(), Filename: part.FileName(),
					ContentType: part.Header.Get("Content-Type"), Data: buf.Bytes()})
			case part.FormName() == "payload_json":
				b.JSON = buf.Bytes()
			default:
				fields[part.FormName()] = buf.String()
			}
		}
		if b.JSON == nil && len(fields) > 0 {
			// Plain form fields stand for top-level JSON properties.
			if b.JSON, err = json.Marshal(fields); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("unsupported Content-Type %q", mt)
	}
	if b.JSON != nil {
		if b.Value, err = jsonschema.UnmarshalJSON(bytes.NewReader(b.JSON)); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
	}
	return b, nil
}

// ValidateParams checks path parameters (snowflake ids and the like) against their schemas.
func (op *Operation) ValidateParams(params map[string]string) []SchemaError {
	var errs []SchemaError
	for _, name := range slices.Sorted(maps.Keys(params)) {
		if sch, ok := op.pathParams[name]; ok {
			for _, e := range schemaErrors(sch.Validate(params[name])) {
				errs = append(errs, SchemaError{Pointer: "{" + name + "}", Code: e.Code, Message: e.Message})
			}
		}
	}
	return errs
}

// ValidateBody checks a parsed body against the operation's request body schema for the
// body's media type. A multipart body is checked through its JSON document.
func (op *Operation) ValidateBody(b *Body) []SchemaError {
	if b == nil || (b.JSON == nil && len(b.Files) == 0) {
		if op.bodyRequired {
			return []SchemaError{{Code: "BASE_TYPE_REQUIRED", Message: "request body is required"}}
		}
		return nil
	}
	if len(op.bodies) == 0 {
		return []SchemaError{{Message: fmt.Sprintf("%s %s takes no request body", op.Method, op.Template)}}
	}
	sch, ok := op.bodies[b.MediaType]
	if !ok {
		return []SchemaError{{Code: "CONTENT_TYPE_INVALID", Message: fmt.Sprintf("media type %s not accepted; want %s",
			b.MediaType, strings.Join(slices.Sorted(maps.Keys(op.bodies)), ", "))}}
	}
	var v any = map[string]any{} // files alone: the JSON part is an empty object
	if b.JSON != nil {
		v = b.Value
	}
	return schemaErrors(sch.Validate(v))
}

// Schema validates a JSON document against #/components/schemas/<name>.
func (s *Spec) Schema(name string, doc []byte) ([]SchemaError, error) {
	s.mu.Lock()
	sch, err := s.compiler.Compile(specURL + "#/components/schemas/" + url.PathEscape(name))
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	return schemaErrors(sch.Validate(v)), nil
}
