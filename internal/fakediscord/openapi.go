package fakediscord

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"sort"
	"strings"
	"sync"
)

// Spec is Discord's OpenAPI description, compiled for request validation and routing.
type Spec struct {
	ops     []*Operation
	schemas *schemaCompiler
}

// Operation is one method + path template of the API.
type Operation struct {
	ID       string // operationId, like "create_message"
	Method   string // upper case
	Template string // path template without the /api/v10 prefix, like "/channels/{channel_id}/messages"

	segments     []string
	pathParams   map[string]*schemaNode
	bodies       map[string]*schemaNode // by media type
	bodyRequired bool
	botTokenOnly bool // the Authorization header is required (no anonymous security alternative)
}

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

func parseSpec(data []byte) (*Spec, error) {
	doc, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	root, _ := doc.(map[string]any)
	comps, _ := root["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	paths, _ := root["paths"].(map[string]any)
	if schemas == nil || paths == nil {
		return nil, errors.New("no components.schemas or paths: not Discord's OpenAPI description")
	}
	s := &Spec{schemas: newSchemaCompiler(schemas)}
	// Compile every component up front: an unsupported keyword fails here, not mid-test.
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, err := s.schemas.component(name); err != nil {
			return nil, err
		}
	}
	templates := make([]string, 0, len(paths))
	for t := range paths {
		templates = append(templates, t)
	}
	sort.Strings(templates)
	for _, tmpl := range templates {
		item, _ := paths[tmpl].(map[string]any)
		common, err := s.pathParameters(item["parameters"], tmpl)
		if err != nil {
			return nil, err
		}
		for _, m := range httpMethods {
			raw, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			op, err := s.operation(strings.ToUpper(m), tmpl, raw, common)
			if err != nil {
				return nil, err
			}
			s.ops = append(s.ops, op)
		}
	}
	return s, nil
}

func (s *Spec) pathParameters(raw any, at string) (map[string]*schemaNode, error) {
	out := map[string]*schemaNode{}
	list, _ := raw.([]any)
	for _, p := range list {
		pm, _ := p.(map[string]any)
		if pm["in"] != "path" {
			continue
		}
		name, _ := pm["name"].(string)
		n, err := s.schemas.compile(pm["schema"], at+" parameter "+name)
		if err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, nil
}

func (s *Spec) operation(method, tmpl string, raw map[string]any, common map[string]*schemaNode) (*Operation, error) {
	op := &Operation{Method: method, Template: tmpl, pathParams: map[string]*schemaNode{}, bodies: map[string]*schemaNode{}}
	op.ID, _ = raw["operationId"].(string)
	op.segments = strings.Split(strings.Trim(tmpl, "/"), "/")
	for k, v := range common {
		op.pathParams[k] = v
	}
	own, err := s.pathParameters(raw["parameters"], tmpl)
	if err != nil {
		return nil, err
	}
	for k, v := range own {
		op.pathParams[k] = v
	}
	if rb, ok := raw["requestBody"].(map[string]any); ok {
		op.bodyRequired, _ = rb["required"].(bool)
		content, _ := rb["content"].(map[string]any)
		for mt, c := range content {
			cm, _ := c.(map[string]any)
			n, err := s.schemas.compile(cm["schema"], method+" "+tmpl+" "+mt)
			if err != nil {
				return nil, err
			}
			op.bodies[mt] = n
		}
	}
	op.botTokenOnly = true
	if sec, ok := raw["security"].([]any); ok {
		for _, alt := range sec {
			if m, ok := alt.(map[string]any); ok && len(m) == 0 {
				op.botTokenOnly = false
			}
		}
	} else {
		op.botTokenOnly = false
	}
	return op, nil
}

// Match finds the operation for a method and a path without the /api/vN prefix. Literal
// segments win over parameters, so /users/@me is not /users/{user_id}. It returns the path
// parameters by name.
func (s *Spec) Match(method, path string) (*Operation, map[string]string) {
	segs := splitPath(path)
	var best *Operation
	var bestParams map[string]string
	bestShape := ""
	for _, op := range s.ops {
		if op.Method != method || len(op.segments) != len(segs) {
			continue
		}
		params := map[string]string{}
		shape := make([]byte, len(segs))
		ok := true
		for i, want := range op.segments {
			if strings.HasPrefix(want, "{") && strings.HasSuffix(want, "}") {
				params[want[1:len(want)-1]] = segs[i]
				shape[i] = '0'
			} else if want == segs[i] {
				shape[i] = '1'
			} else {
				ok = false
				break
			}
		}
		// '1' (literal) > '0' (parameter): the greatest shape has the earliest literal segments.
		if ok && (best == nil || string(shape) > bestShape) {
			best, bestParams, bestShape = op, params, string(shape)
		}
	}
	return best, bestParams
}

func splitPath(path string) []string {
	raw := strings.Split(strings.Trim(path, "/"), "/")
	out := make([]string, len(raw))
	for i, r := range raw {
		if u, err := url.PathUnescape(r); err == nil {
			out[i] = u
		} else {
			out[i] = r
		}
	}
	return out
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
		if b.Value, err = decodeJSON(b.JSON); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
	}
	return b, nil
}

// ValidateParams checks path parameters (snowflake ids and the like) against their schemas.
func (op *Operation) ValidateParams(params map[string]string) []SchemaError {
	var errs []SchemaError
	names := make([]string, 0, len(params))
	for n := range params {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if sch, ok := op.pathParams[name]; ok {
			var pe []SchemaError
			sch.validate(params[name], "", "", &pe)
			for _, e := range pe {
				errs = append(errs, SchemaError{Pointer: "{" + name + "}", Message: e.Message})
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
			return []SchemaError{{Message: "request body is required"}}
		}
		return nil
	}
	if len(op.bodies) == 0 {
		return []SchemaError{{Message: fmt.Sprintf("%s %s takes no request body", op.Method, op.Template)}}
	}
	sch, ok := op.bodies[b.MediaType]
	if !ok {
		var allowed []string
		for mt := range op.bodies {
			allowed = append(allowed, mt)
		}
		sort.Strings(allowed)
		return []SchemaError{{Message: fmt.Sprintf("media type %s not accepted; want %s", b.MediaType, strings.Join(allowed, ", "))}}
	}
	if b.JSON == nil {
		// Files alone: the JSON part is an empty object.
		var errs []SchemaError
		sch.validate(map[string]any{}, "", "", &errs)
		return errs
	}
	var errs []SchemaError
	sch.validate(b.Value, "", "", &errs)
	return errs
}

// Validate locates the operation for method and path (without /api/vN) and checks its
// parameters and body. It errs when the spec has no such operation or the body is unreadable.
func (s *Spec) Validate(method, path, contentType string, body []byte) (*Operation, []SchemaError, error) {
	op, params := s.Match(method, path)
	if op == nil {
		return nil, nil, fmt.Errorf("no operation %s %s in Discord's OpenAPI description", method, path)
	}
	b, err := ParseBody(contentType, body)
	if err != nil {
		return op, nil, err
	}
	errs := op.ValidateParams(params)
	errs = append(errs, op.ValidateBody(b)...)
	return op, errs, nil
}

// Schema validates a document against #/components/schemas/<name>.
func (s *Spec) Schema(name string, doc []byte) ([]SchemaError, error) {
	sch, ok := s.schemas.compiled[name]
	if !ok {
		return nil, fmt.Errorf("no schema %s", name)
	}
	v, err := decodeJSON(doc)
	if err != nil {
		return nil, err
	}
	var errs []SchemaError
	sch.validate(v, "", "", &errs)
	return errs, nil
}
