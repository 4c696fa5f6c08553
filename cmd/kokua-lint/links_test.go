package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLinksNoNetwork: kokua-lint starts once for every file a hook or a
// CI job lints, and every package it links costs each start its
// initialisation and its pages (issue 24). It serves the language server
// on stdin and stdout and reads and writes files: it links no HTTP, no
// TLS and no logger of a library (go.uber.org/zap came with
// go.lsp.dev/protocol, and brought net/http and crypto/tls with it).
// Nor does it link package net, which makes a default build with cgo a
// dynamically linked binary that pays the loader at every start (policy
// reads its PEM key files without crypto/x509, which imports it), nor
// encoding/xml, whose one use is kokua-compile's JUnit report
// (internal/expect/junit), nor go-udiff's root package, which compiles a
// regular expression as the program starts (internal/textdiff uses its lcs
// package), nor regexp itself, whose initialisation and the unicode tables
// it keeps cost every run a fifth of a millisecond (the few patterns a
// config's values and comments are checked against are hand-written
// scanners, held to the patterns by their tests).
func TestLinksNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/kokua-lint: %v", err)
	}
	forbidden := func(pkg string) bool {
		return slices.Contains([]string{"net", "net/http", "crypto/tls", "crypto/x509", "encoding/xml", "github.com/aymanbagabas/go-udiff", "regexp"}, pkg) || strings.HasPrefix(pkg, "go.uber.org/zap")
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			if forbidden(imp) {
				t.Errorf("%s brings %s into kokua-lint: a lint run would pay for its initialisation at every start, and package net would make a default build with cgo dynamically linked; keep the network, the JUnit writer, go-udiff's root package and regexp out of cmd/kokua-lint", fields[0], imp)
			}
		}
	}
}
