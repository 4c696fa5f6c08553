// Package sariflog holds what every SARIF log the module writes shares
// (kokua-lint's findings, kokua-compile test's report): the tool's home
// page and how a file name becomes an artifact's URI.
package sariflog

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/kokua-policy/kokua-policy/internal/manifest"
)

const (
	// InformationURI is the project's home page, each log's
	// tool.driver.informationUri.
	InformationURI = "https://github.com/kokua-policy/kokua-policy"
	// DefaultManifestURI stands for the embedded default install, which is
	// no file: SARIF needs a URI, and "<default install>" is none. It is a
	// relative reference, as the configs' are, so that code scanning
	// accepts it, and its location says what it is.
	DefaultManifestURI = "kokua-default-install.manifest.json"
)

// URI turns a file name as the command line gave it into a URI
// reference: the embedded manifest's stand-in name, a relative path with
// forward slashes and its special characters percent-encoded, or a file://
// URI for an absolute path.
func URI(name string) string {
	if name == manifest.DefaultManifestName {
		return DefaultManifestURI
	}
	p := filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // a Windows drive: file:///C:/...
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	// url.URL writes "./" before a first segment holding a colon, so that
	// it is not read as a scheme.
	return (&url.URL{Path: p}).String()
}
