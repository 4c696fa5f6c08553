package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/kokua-policy/kokua-policy/compile"
	"github.com/kokua-policy/kokua-policy/server"
)

// A host serves a policy file over HTTP and asks it a question, as
// kokua-run serve does; here the round trip goes through httptest.
func ExampleNew() {
	doc, _, err := compile.Compile([]byte(`[assistant]
agent = "assistant"

[assistant.tools]
confirm = []
review = []

[agents.assistant.tools]
available = ["compute", "fs"]
review = ["compute.run_command"]
`), nil, compile.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := compile.Write(doc, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "server-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = os.RemoveAll(dir) }()
	path := filepath.Join(dir, "policy.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Println(err)
		return
	}

	s, err := server.New(path, nil) // nil: no log
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/v1/decide", "application/json",
		strings.NewReader(`{"agent": "assistant", "tool": "compute.run_command"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Status, resp.Header.Get(server.DigestHeader) == s.Policy().Document().Digest)
	fmt.Print(string(body))
	// Output:
	// 200 OK true
	// {"decision":"review","agent":"assistant","tool":"run_command","toolset":"compute","reason":{"summary":"the call goes to review: entry \"compute.run_command\" in [agents.assistant.tools].review (declared)","list":"review","key":"[agents.assistant.tools].review","entry":"compute.run_command","position":{"column":11,"end_column":32,"end_line":10,"line":10},"inherited":false,"reviewer":false}}
}
