package server

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kokua-policy/kokua-policy/internal/testing/policytest"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// openAPI is docs/openapi.yaml, loaded to check the server against it.
type openAPI struct {
	doc      map[string]any
	url      string
	compiler *jsonschema.Compiler
}

func loadOpenAPI(t *testing.T) *openAPI {
	t.Helper()
	path, err := filepath.Abs("../docs/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	// Through JSON, so that the schema library sees JSON values only.
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("openapi.yaml is not JSON-compatible: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	o := &openAPI{url: "file://" + filepath.ToSlash(path), compiler: jsonschema.NewCompiler()}
	if err := o.compiler.AddResource(o.url, inst); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal(raw, &o.doc)
	if v, _ := o.doc["openapi"].(string); !strings.HasPrefix(v, "3.1") {
		t.Fatalf("openapi %q, want 3.1", v)
	}
	return o
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// responseSchema finds the schema of a documented response, or says why
// there is none.
func (o *openAPI) responseSchema(t *testing.T, path, method string, status int) *jsonschema.Schema {
	t.Helper()
	paths := o.doc["paths"].(map[string]any)
	item, ok := paths[path].(map[string]any)
	if !ok {
		t.Fatalf("openapi.yaml has no path %s", path)
	}
	op, ok := item[strings.ToLower(method)].(map[string]any)
	if !ok {
		t.Fatalf("openapi.yaml has no %s %s", method, path)
	}
	code := strconv.Itoa(status)
	resp, ok := op["responses"].(map[string]any)[code].(map[string]any)
	if !ok {
		t.Fatalf("openapi.yaml does not document %d for %s %s", status, method, path)
	}
	ptr := "#/paths/" + pointerEscape(path) + "/" + strings.ToLower(method) + "/responses/" + code
	if ref, ok := resp["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/responses/")
		resp = o.doc["components"].(map[string]any)["responses"].(map[string]any)[name].(map[string]any)
		ptr = ref
	}
	content, _ := resp["content"].(map[string]any)
	if _, ok := content["application/json"]; !ok {
		t.Fatalf("%d of %s %s has no application/json content", status, method, path)
	}
	sch, err := o.compiler.Compile(o.url + ptr + "/content/application~1json/schema")
	if err != nil {
		t.Fatalf("%s: %v", ptr, err)
	}
	return sch
}

// TestOpenAPI checks that docs/openapi.yaml documents what the server
// answers: its paths are the server's, and every answer below, happy or
// not, has its status documented and matches the documented schema.
func TestOpenAPI(t *testing.T) {
	o := loadOpenAPI(t)
	var documented []string
	for p := range o.doc["paths"].(map[string]any) {
		documented = append(documented, p)
	}
	slices.Sort(documented)
	routes := []string{routeDecide, routeBatch, routeAgents, routeAgent, routeHealth, routeMetrics, routePage}
	slices.Sort(routes)
	if !slices.Equal(documented, routes) {
		t.Errorf("openapi.yaml paths %v, the server's %v", documented, routes)
	}

	s, path := newServer(t, policytest.Compile(t, policytest.ConfigA))
	h := s.Handler()
	one := `{"agent":"coder","tool":"compute.run_command"}`
	cases := []struct{ method, target, spec, body string }{
		{"POST", "/v1/decide", routeDecide, one},
		{"POST", "/v1/decide", routeDecide, `{"agent":"nobody","tool":"x","unattended":true}`},
		{"POST", "/v1/decide", routeDecide, `{"agent":"coder","tool":"compute.run_command","unattended":true}`},
		{"POST", "/v1/decide", routeDecide, `{"agent":"coder"}`},
		{"POST", "/v1/decide", routeDecide, `{"agent":"coder",`},
		{"POST", "/v1/decide", routeDecide, ``},
		{"POST", "/v1/decide", routeDecide, `{"agent":"coder","tool":"` + strings.Repeat("x", MaxDecideBytes) + `"}`},
		{"GET", "/v1/decide", routeDecide, ""},
		{"POST", "/v1/decide/batch", routeBatch, `{"requests":[` + one + `,{"agent":"assistant","tool":"fs.read_file"}]}`},
		{"POST", "/v1/decide/batch", routeBatch, `{"requests":[{"agent":"coder"}]}`},
		{"POST", "/v1/decide/batch", routeBatch, `{"requests":[` + strings.Repeat(one+",", MaxBatch) + one + `]}`},
		{"DELETE", "/v1/decide/batch", routeBatch, ""},
		{"GET", "/v1/agents", routeAgents, ""},
		{"PUT", "/v1/agents", routeAgents, ""},
		{"GET", "/v1/agents/coder", routeAgent, ""},
		{"GET", "/v1/agents/assistant", routeAgent, ""},
		{"GET", "/v1/agents/nobody", routeAgent, ""},
		{"POST", "/v1/agents/coder", routeAgent, ""},
		{"GET", "/healthz", routeHealth, ""},
		{"POST", "/healthz", routeHealth, ""},
		{"POST", "/metrics", routeMetrics, ""},
		{"GET", "/", routePage, ""},
	}
	check := func(method, target, spec, body string) {
		t.Helper()
		w := do(t, h, method, target, body)
		specMethod := method
		if w.Code == 405 {
			// A 405 is documented under the path's own method.
			specMethod = "GET"
			if spec == routeDecide || spec == routeBatch {
				specMethod = "POST"
			}
		}
		sch := o.responseSchema(t, spec, specMethod, w.Code)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(w.Body.Bytes()))
		if err != nil {
			t.Fatalf("%s %s: %v", method, target, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s %s answered %d, not as documented: %v\n%.300s", method, target, w.Code, err, w.Body)
		}
	}
	for _, c := range cases {
		check(c.method, c.target, c.spec, c.body)
	}
	// /healthz degraded.
	replace(t, path, policytest.Tamper(t, policytest.Compile(t, policytest.ConfigA)))
	_ = s.Reload()
	check("GET", "/healthz", routeHealth, "")

	// Every agent of every golden policy matches the documented agent.
	paths, _ := filepath.Glob("../testdata/compile/*/want.json")
	for _, p := range paths {
		s, err := New(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		h = s.Handler()
		check("GET", "/v1/agents", routeAgents, "")
		for name := range s.Policy().Document().Agents {
			check("GET", "/v1/agents/"+name, routeAgent, "")
		}
	}
}
