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
// Package net, which a default build with cgo turns into a dynamically
// linked binary that pays the loader at every start, is imported by no
// package but crypto/x509, which policy's PEM key files need
// (policy/sign.go); this test fails when anything else brings it.
func TestLinksNoNetwork(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/kokua-lint: %v", err)
	}
	forbidden := []string{"net/http", "crypto/tls", "go.uber.org/zap"}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		for _, f := range forbidden {
			if pkg == f || strings.HasPrefix(pkg, f+"/") {
				t.Errorf("kokua-lint links %s: a lint run would pay for its initialisation at every start; keep the network out of cmd/kokua-lint", pkg)
			}
		}
		if slices.Contains(imports, "encoding/xml") {
			t.Errorf("%s imports encoding/xml into kokua-lint: the JUnit report is kokua-compile's (internal/expect/junit)", pkg)
		}
		if slices.Contains(imports, "net") && pkg != "crypto/x509" {
			t.Errorf("%s imports package net into kokua-lint: a default (cgo) build would be linked dynamically and load libc at every start", pkg)
		}
	}
}
