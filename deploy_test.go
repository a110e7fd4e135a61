package main

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parseTOML reads the subset of TOML that fly.toml uses: tables, arrays of
// tables, and keys with strings, numbers, booleans and flat arrays. It is
// strict: anything else is an error, so a typo cannot pass unnoticed.
func parseTOML(src string) (map[string]any, error) {
	root := map[string]any{}
	cur := root
	for n, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(stripComment(raw))
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "[["):
			if !strings.HasSuffix(line, "]]") {
				return nil, fmt.Errorf("line %d: bad array of tables %q", n+1, line)
			}
			path := strings.Split(strings.Trim(line, "[] "), ".")
			parent := walk(root, path[:len(path)-1])
			last := path[len(path)-1]
			arr, _ := parent[last].([]map[string]any)
			cur = map[string]any{}
			parent[last] = append(arr, cur)
		case strings.HasPrefix(line, "["):
			if !strings.HasSuffix(line, "]") {
				return nil, fmt.Errorf("line %d: bad table %q", n+1, line)
			}
			cur = walk(root, strings.Split(strings.Trim(line, "[] "), "."))
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				return nil, fmt.Errorf("line %d: expected key = value, got %q", n+1, line)
			}
			val, err := tomlValue(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			key := strings.TrimSpace(k)
			if _, dup := cur[key]; dup {
				return nil, fmt.Errorf("line %d: %s set twice", n+1, key)
			}
			cur[key] = val
		}
	}
	return root, nil
}

func stripComment(s string) string {
	in := false
	for i, r := range s {
		switch {
		case r == '"':
			in = !in
		case r == '#' && !in:
			return s[:i]
		}
	}
	return s
}

func walk(m map[string]any, path []string) map[string]any {
	for _, p := range path {
		next, ok := m[strings.TrimSpace(p)].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[strings.TrimSpace(p)] = next
		}
		m = next
	}
	return m
}

func tomlValue(v string) (any, error) {
	switch {
	case strings.HasPrefix(v, `"`):
		s, err := strconv.Unquote(v)
		if err != nil {
			return nil, fmt.Errorf("bad string %s", v)
		}
		return s, nil
	case v == "true" || v == "false":
		return v == "true", nil
	case strings.HasPrefix(v, "["):
		var out []any
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(v, "["), "]"))
		if inner == "" {
			return out, nil
		}
		for _, part := range strings.Split(inner, ",") {
			x, err := tomlValue(strings.TrimSpace(part))
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return nil, fmt.Errorf("unsupported value %s", v)
	}
	return n, nil
}

func TestFlyTomlHasVolumeChecksAndNoAutoStop(t *testing.T) {
	src, err := os.ReadFile("fly.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := parseTOML(string(src))
	if err != nil {
		t.Fatal(err)
	}
	mounts, _ := cfg["mounts"].([]map[string]any)
	if len(mounts) != 1 || mounts[0]["destination"] != "/data" || mounts[0]["source"] == "" {
		t.Fatalf("want one volume mounted at /data, got %v", cfg["mounts"])
	}
	env, _ := cfg["env"].(map[string]any)
	if db, _ := env["CONDUCTOR_DB"].(string); !strings.HasPrefix(db, "/data/") {
		t.Errorf("CONDUCTOR_DB %q is not on the volume", db)
	}
	addr, _ := env["CONDUCTOR_HTTP"].(string)
	checks, _ := cfg["checks"].(map[string]any)
	hz, _ := checks["healthz"].(map[string]any)
	if hz["type"] != "http" || hz["path"] != "/healthz" || !strings.HasSuffix(addr, fmt.Sprint(":", hz["port"])) {
		t.Errorf("health check %v does not match CONDUCTOR_HTTP %q", hz, addr)
	}
	// The live board's public listener (docs/activity.md). The machine is
	// a gateway bot first: fly's proxy must never stop it for being idle.
	web, _ := env["CONDUCTOR_WEB"].(string)
	hs, ok := cfg["http_service"].(map[string]any)
	if !ok || !strings.HasSuffix(web, fmt.Sprint(":", hs["internal_port"])) {
		t.Errorf("http_service %v does not serve CONDUCTOR_WEB %q", cfg["http_service"], web)
	}
	if stop := hs["auto_stop_machines"]; stop != "off" && stop != false {
		t.Errorf("http_service.auto_stop_machines = %v: it would stop a gateway bot that gets no page traffic", stop)
	}
	if n, _ := hs["min_machines_running"].(float64); n < 1 || hs["force_https"] != true {
		t.Errorf("http_service: min_machines_running %v, force_https %v", hs["min_machines_running"], hs["force_https"])
	}
	if u, _ := env["CONDUCTOR_PUBLIC_URL"].(string); !strings.HasPrefix(u, "https://") {
		t.Errorf("CONDUCTOR_PUBLIC_URL %q", u)
	}
	restart, _ := cfg["restart"].([]map[string]any)
	if len(restart) != 1 || restart[0]["policy"] != "always" {
		t.Errorf("restart policy: %v", cfg["restart"])
	}
	if cfg["kill_signal"] != "SIGTERM" {
		t.Errorf("kill_signal %v: the bot shuts down cleanly on SIGTERM", cfg["kill_signal"])
	}
}

func TestDockerfileIsStaticMultiStageNonRoot(t *testing.T) {
	src, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	d := string(src)
	for _, want := range []string{"AS build", "CGO_ENABLED=0", "COPY --from=build"} {
		if !strings.Contains(d, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	// The runtime user is distroless's nonroot by number (fly mounts the
	// volume for it without a name lookup), and the last USER wins.
	var user string
	for _, line := range strings.Split(d, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "USER" {
			user = f[1]
		}
	}
	if user != "65532:65532" {
		t.Errorf("the image runs as USER %q, want 65532:65532", user)
	}
	if last := strings.LastIndex(d, "\nFROM "); strings.Contains(d[last:], "USER root") || strings.LastIndex(d, "USER ") < last {
		t.Error("USER 65532:65532 must be set in the runtime stage")
	}
	last := strings.LastIndex(d, "\nFROM ")
	if strings.Count(d, "\nFROM ") < 2 || !strings.HasPrefix(d[last+len("\nFROM "):], "gcr.io/distroless/static") {
		t.Error("the runtime image should be a minimal static one with CA certificates")
	}
}

// The container builds with CGO_ENABLED=0: check that such a build works
// and gives a static binary.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole binary")
	}
	out := filepath.Join(t.TempDir(), "conductor")
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, b)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the binary asks for a dynamic loader: it is not static")
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Fatalf("the binary links %v", libs)
	}
	run := exec.Command(out, "maps", "--map", "usa")
	if b, err := run.Output(); err != nil || !strings.Contains(string(b), `"id": "usa"`) {
		t.Fatalf("the static binary does not run: %v", err)
	}
}
